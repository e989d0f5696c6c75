/**
 * Every kept total, ranked list and running balance that can be rebuilt from the facts (lib/kept-state.ts), in the
 * order a full rebuild runs them: a later one may read what an earlier one keeps.
 */
import { isKeptStateMarked, markKeptStates, rebuildKeptState, type KeptState } from '../lib/kept-state';
import { withLock } from '../lib/mutex';
import { earningsRollupsState } from '../modules/analytics';
import { ledgerRootsState } from '../modules/anchors';
import { bidListsState } from '../modules/bids';
import { commentListsKeptState } from '../modules/comments';
import { contentVersionsState, pieceLinksState, projectPiecesState, supportedPiecesState } from '../modules/contents';
import { adminStatsState } from '../modules/dashboard';
import { productEventListsState } from '../modules/events';
import { feedListsState, rankingsState, searchIndexState } from '../modules/feeds';
import { followListsKeptState } from '../modules/follows';
import { ledgerDaysState, ledgerKeptStates } from '../modules/ledger';
import { inboxListsState, unreadCountsState } from '../modules/messages';
import { nftMintListsState } from '../modules/nft';
import { listingMarksState, paymentOrderListsState } from '../modules/payments';
import { projectListsState } from '../modules/projects';
import { currentPlansState } from '../modules/subscriptions';
import { anyMemberExists, creditListsState, memberKeysState } from '../modules/users';
import { cashOutListsState, walletCollectionsState } from '../modules/wallet';

export const keptStates: KeptState[] = [
  // Keys first: the other rebuilds may look members and pieces up by them.
  memberKeysState,
  pieceLinksState,
  // The ledger's first: the rankings count from the ledger's entries.
  ...ledgerKeptStates,
  // After the ledger's: the collections count from the fees-paid chains.
  cashOutListsState,
  walletCollectionsState,
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
  creditListsState,
  currentPlansState,
  projectListsState,
  projectPiecesState,
  supportedPiecesState,
  contentVersionsState,
  bidListsState,
  nftMintListsState,
  productEventListsState,
  paymentOrderListsState,
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

/** Building every state of a large database takes minutes; instances starting together wait for the first. */
const FIRST_BUILD_MS = 6 * 60 * 60_000;

/**
 * Run at start, before the app serves: a database that has never had a kept state built (its facts written by an
 * older release) gets it built from the facts, in order, once; a database with no member yet is empty, and its
 * states are kept by their writers from the first fact, so they are only marked. Answers the names built.
 */
export async function buildMissingKeptStates(): Promise<string[]> {
  return withLock(
    'kept-states:first-build',
    async () => {
      const missing: KeptState[] = [];
      for (const state of keptStates) if (!(await isKeptStateMarked(state.name))) missing.push(state);
      if (!missing.length) return [];
      if (!(await anyMemberExists())) {
        await markKeptStates(missing.map((state) => state.name));
        return [];
      }
      for (const state of missing) await rebuildKeptState(state, { compare: false });
      return missing.map((state) => state.name);
    },
    { ttlMs: FIRST_BUILD_MS, waitMs: FIRST_BUILD_MS, busyMessage: 'Another instance is building the kept states.' },
  );
}
