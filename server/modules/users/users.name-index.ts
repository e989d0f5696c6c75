/**
 * The index of members by the prefixes of their names (lib/prefix-index.ts), in `member_name_prefixes`: what the
 * member searches read instead of scanning `users`. A member's terms are the words of their username and full name
 * (`searchWords`); a closed account has none. A username's start is found through its words (`kai_l` through `kai`
 * and `l`) and then checked whole. Every change goes through `changeNameTerms`; a new account is added by the
 * model's save hook before it is inserted.
 */
import { model } from 'mongoose';
import { prefixIndex, prefixIndexSchema } from '../../lib/prefix-index';

const NamePrefixModel = model('MemberNamePrefix', prefixIndexSchema(), 'member_name_prefixes');

/**
 * As for titles (contents.title-index.ts): eight characters tell most names apart, and 100 ids per prefix bound a
 * search to 100 reads of members by `_id`; only a prefix more members share than that leaves its oldest out.
 */
export const nameIndex = prefixIndex(NamePrefixModel, { maxPrefixLength: 8, keptPerPrefix: 100 });

/** What nameTermsOf reads of a member. */
export type NamedMember = { username?: string | null; searchWords?: string[] | null };

/** The terms a member is indexed by: their search words (none for a closed account, or one from before them). */
export const nameTermsOf = (member: NamedMember): string[] => [...(member.searchWords ?? [])];

/** Records a member's change of names from `before` to `after` around `write`, the change itself. */
export function changeNameTerms<T>(userId: { toString(): string }, before: NamedMember, after: NamedMember, write?: () => Promise<T>): Promise<T | undefined> {
  return nameIndex.change(String(userId), nameTermsOf(before), nameTermsOf(after), write);
}
