/**
 * Member search over the name index (users.name-index.ts): the candidates it holds are read by `_id` and checked
 * exactly, so a search reads at most the index's few documents and 100 members, however many members there are.
 */
import { Types } from 'mongoose';
import type { KeptStateReport } from '../../lib/kept-state';
import type { IndexedItem } from '../../lib/prefix-index';
import { readById } from '../../lib/query';
import { queryWords, startsEveryWord } from '../../lib/search';
import { UserModel, type UserDoc } from './users.model';
import { nameIndex, nameTermsOf } from './users.name-index';

const readMembers = async (ids: string[], projection?: Record<string, 1>) =>
  (await Promise.all(ids.map((id) => readById<UserDoc>(UserModel, new Types.ObjectId(id), projection)))).filter((user): user is UserDoc => Boolean(user));

/**
 * Up to `count` members whose username or full name has a word starting with each word of `query` and who meet
 * `accept`, newest first (highest `_id`), after the member `before` when given. The index holds its candidates
 * newest first, so they are read by `_id` a batch at a time until the page is full: a first page reads about as
 * many members as it shows (more when `accept` turns many away), not every candidate.
 */
export async function newestMembersMatching(
  query: string,
  { before, count, accept = () => true }: { before?: string; count: number; accept?: (member: UserDoc) => boolean },
): Promise<UserDoc[]> {
  const words = queryWords(query);
  if (!words.length || count < 1) return [];
  const { ids } = await nameIndex.candidates(words);
  const after = before === undefined ? ids : ids.filter((id) => id < before);
  const page: UserDoc[] = [];
  for (let at = 0; at < after.length && page.length < count; at += count) {
    const batch = await readMembers(after.slice(at, at + count));
    page.push(...batch.filter((member) => startsEveryWord(words, member.searchWords ?? []) && accept(member)));
  }
  return page.slice(0, count);
}

/**
 * The members whose username starts with `start` (as usernames are kept), in no order: found through the words of
 * `start` (each starts a word of the username, the last maybe cut short), then checked whole. A start without a
 * letter or digit finds no one.
 */
export async function membersWithUsernameStart<T extends Pick<UserDoc, '_id' | 'username'>>(start: string, projection: Record<string, 1>): Promise<T[]> {
  const words = queryWords(start);
  if (!words.length) return [];
  const { ids } = await nameIndex.candidates(words);
  const members = (await readMembers(ids, { ...projection, username: 1 })) as unknown as T[];
  return members.filter((member) => member.username.startsWith(start));
}

/** Every member with the terms they are indexed by, read in one pass (for the index's check and rebuild). */
async function* indexedMembers(): AsyncIterable<IndexedItem> {
  for await (const member of UserModel.collection.find({}, { projection: { username: 1, searchWords: 1 } })) {
    yield { id: String(member._id), terms: nameTermsOf(member as unknown as Pick<UserDoc, 'username' | 'searchWords'>) };
  }
}

/** The name index against the members: compared (`check`) or written (`rebuild`). */
export const nameIndexState = {
  check: (): Promise<KeptStateReport> => nameIndex.check(indexedMembers()),
  rebuild: (): Promise<KeptStateReport> => nameIndex.rebuild(indexedMembers()),
  /** For tests that empty the collection under a running app. */
  forget: nameIndex.forget,
};
