/** Reference data every Knack needs, inserted when missing (idempotent: safe on every start). */
import { seedCms } from '../modules/cms';
import { migrateContents } from '../modules/contents';
import { backfillSearchWords } from '../modules/users';
import { seedPlans } from '../modules/subscriptions';
import { seedTags } from '../modules/tags';

export async function seedReferenceData(): Promise<void> {
  await seedTags();
  await seedPlans();
  await seedCms();
  await migrateContents();
  await backfillSearchWords();
}
