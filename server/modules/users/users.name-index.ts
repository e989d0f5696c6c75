/**
 * The index of members by the prefixes of their names (lib/prefix-index.ts), in `member_name_prefixes`: what the
 * member searches read instead of scanning `users`. A member's terms are the words of their username and full name
 * (`searchWords`) and their whole username (so that a username's start, signs included, is found as typed); a closed
 * account has none. Every change of them goes through `changeNameTerms`; a new account is added by the model's save
 * hook before it is inserted.
 */
import { model } from 'mongoose';
import { prefixIndex, prefixIndexSchema } from '../../lib/prefix-index';

const NamePrefixModel = model('MemberNamePrefix', prefixIndexSchema(), 'member_name_prefixes');

/**
 * As for titles (contents.title-index.ts): eight characters tell most names apart, and 200 ids per prefix bound a
 * search to 200 reads of members by `_id`; only a prefix more members share than that leaves its oldest out.
 */
export const nameIndex = prefixIndex(NamePrefixModel, { maxPrefixLength: 8, keptPerPrefix: 200 });

/** What nameTermsOf reads of a member. */
export type NamedMember = { username?: string | null; searchWords?: string[] | null };

/** The terms a member is indexed by (none without search words: a closed account, or one from before them). */
export const nameTermsOf = (member: NamedMember): string[] =>
  member.searchWords?.length ? [...new Set([...member.searchWords, ...(member.username ? [member.username.toLowerCase()] : [])])] : [];

/** Records a member's change of names from `before` to `after` around `write`, the change itself. */
export function changeNameTerms<T>(userId: { toString(): string }, before: NamedMember, after: NamedMember, write?: () => Promise<T>): Promise<T | undefined> {
  return nameIndex.change(String(userId), nameTermsOf(before), nameTermsOf(after), write);
}
