/**
 * Every kept total, ranked list and running balance that can be rebuilt from the facts (lib/kept-state.ts), in the
 * order a full rebuild runs them: a later one may read what an earlier one keeps.
 */
import type { KeptState } from '../lib/kept-state';
import { earningsRollupsState } from '../modules/analytics';
import { ledgerRootsState } from '../modules/anchors';
import { adminStatsState } from '../modules/dashboard';
import { ledgerDaysState } from '../modules/ledger';
import { listingMarksState } from '../modules/payments';

export const keptStates: KeptState[] = [ledgerDaysState, ledgerRootsState, adminStatsState, earningsRollupsState, listingMarksState];

/** The kept states named (all of them for none); an unknown name throws, listing the known ones. */
export function keptStatesNamed(names: string[]): KeptState[] {
  if (names.length === 0) return keptStates;
  return names.map((name) => {
    const found = keptStates.find((state) => state.name === name);
    if (!found) throw new Error(`Unknown kept state "${name}". Known: ${keptStates.map((state) => state.name).join(', ') || 'none'}.`);
    return found;
  });
}
