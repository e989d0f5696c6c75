/** The ledger's daily Merkle roots, anchored on Stellar, and the proof of an entry against its day's root. */
export { anchorsRouter } from './anchors.routes';
export {
  ANCHOR_DATA_NAME,
  ANCHOR_MESSAGES,
  createAnchorsService,
  MAX_DAYS_PER_RUN,
  PROOF_LIMIT,
  type AnchorsRun,
  type AnchorsService,
} from './anchors.service';
export { dayOf, treeOfDay } from './anchors.days';
export { ledgerRootsState } from './anchors.state';
export { LedgerRootModel, ledgerRootReads, type AnchorStatus, type LedgerRootDoc } from './anchors.model';
