/**
 * Every kept total, ranked list and running balance that can be rebuilt from the facts (lib/kept-state.ts), in the
 * order a full rebuild runs them: a later one may read what an earlier one keeps.
 */
import type { KeptState } from '../lib/kept-state';
import { earningsRollupsState } from '../modules/analytics';
import { ledgerRootsState } from '../modules/anchors';
import { commentListsKeptState } from '../modules/comments';
import { pieceLinksState } from '../modules/contents';
import { adminStatsState } from '../modules/dashboard';
import { feedListsState, rankingsState, searchIndexState } from '../modules/feeds';
import { followListsKeptState } from '../modules/follows';
import { ledgerDaysState, ledgerKeptStates } from '../modules/ledger';
import { inboxListsState, unreadCountsState } from '../modules/messages';
import { listingMarksState } from '../modules/payments';
import { memberKeysState } from '../modules/users';

export const keptStates: KeptState[] = [
  // Keys first: the other rebuilds may look members and pieces up by them.
  memberKeysState,
  pieceLinksState,
  // The ledger's first: the rankings count from the ledger's entries.
  ...ledgerKeptStates,
  // The days' lists before the jobs that read a day from them.
  ledgerDaysState,
  ledgerRootsState,
  adminStatsState,
  earningsRollupsState,
  listingMarksState,
  rankingsState,
  feedListsState,
  followListsKeptState,
  commentListsKeptState,
  unreadCountsState, // before inbox-lists, which reads the sides it brings to their messages
  inboxListsState,
  searchIndexState,
];

/** The kept states named (all of them for none); an unknown name throws, listing the known ones. */
export function keptStatesNamed(names: string[]): KeptState[] {
  if (names.length === 0) return keptStates;
  return names.map((name) => {
    const found = keptStates.find((state) => state.name === name);
    if (!found) throw new Error(`Unknown kept state "${name}". Known: ${keptStates.map((state) => state.name).join(', ') || 'none'}.`);
    return found;
  });
}
