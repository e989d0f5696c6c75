/**
 * Embed plays that older code keyed by the piece's id as a request spelled it (`play:{contentId}:…` with the id in
 * capitals): one visitor's play of a day was counted again for each spelling. The rankings job puts each back under
 * its key before it counts the plays.
 */
import { rekeyDocuments } from '../../lib/rekey';
import { EmbedPlayModel } from './share.model';

const PREFIX = 'play:';
const ID_LENGTH = 24;

/** Merges embed plays keyed by a piece's id in capitals into the one play of their visitor and day; safe to repeat. */
export const repairEmbedPlayKeys = () =>
  rekeyDocuments<{ _id: string; contentId: { toString(): string } }>(
    EmbedPlayModel,
    /^play:[0-9a-f]{0,23}[A-F]/,
    ({ _id, contentId }) => `${PREFIX}${String(contentId)}${_id.slice(PREFIX.length + ID_LENGTH)}`,
  );
