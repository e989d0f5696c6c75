/** Reference data every Knack needs, inserted when missing (idempotent: safe on every start). */
import { DEFAULT_SUPPORT_EMAIL } from '../config';
import { seedCms } from '../modules/cms';
import { migrateContents } from '../modules/contents';
import { buildStatesOfOlderSides, ensureSupportAccount } from '../modules/messages';
import { backfillSearchWords } from '../modules/users';
import { seedPlans } from '../modules/subscriptions';
import { seedTags } from '../modules/tags';

export async function seedReferenceData({ supportEmail = DEFAULT_SUPPORT_EMAIL }: { supportEmail?: string } = {}): Promise<void> {
  await seedTags();
  await seedPlans();
  await seedCms();
  await migrateContents();
  await backfillSearchWords();
  // The account behind the message modal's 'Admin' recipient.
  await ensureSupportAccount(supportEmail);
  // Members' message counts and thread lists for sides written before they were kept.
  await buildStatesOfOlderSides();
}
