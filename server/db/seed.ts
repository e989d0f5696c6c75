/** Reference data every Knack needs, inserted when missing (idempotent: safe on every start). */
import { DEFAULT_SUPPORT_EMAIL } from '../config';
import { seedCms } from '../modules/cms';
import { migrateContents } from '../modules/contents';
import { buildStatesOfOlderSides, ensureSupportAccount } from '../modules/messages';
import { backfillSearchWords } from '../modules/users';
import { buildCommentListsIfNone } from '../modules/comments';
import { buildFollowListsIfNone } from '../modules/follows';
import { seedPlans } from '../modules/subscriptions';
import { seedTags } from '../modules/tags';

export async function seedReferenceData({ supportEmail = DEFAULT_SUPPORT_EMAIL }: { supportEmail?: string } = {}): Promise<void> {
  await seedTags();
  await seedPlans();
  await seedCms();
  await migrateContents();
  await backfillSearchWords();
  // Follows and comments from before their lists were kept (or written alone by the large seed) get their lists.
  await buildFollowListsIfNone();
  await buildCommentListsIfNone();
  // The account behind the message modal's 'Admin' recipient.
  await ensureSupportAccount(supportEmail);
  // Members' message counts and thread lists for sides written before they were kept.
  await buildStatesOfOlderSides();
}
