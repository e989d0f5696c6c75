/**
 * A piece of content and the user shapes that come with it, as the API answers them (derived from the
 * generated contract types): the one `Content` type every feature uses.
 */
import type { components } from '../../../generated/openapi';

type Schemas = components['schemas'];

export type Content = Schemas['Content'];
export type PublicUser = Schemas['PublicUser'];
export type UserCard = Schemas['UserCard'];
export type ContentDetail = Schemas['ContentDetailResponse'];

/** A piece's count as the viewer is shown it: plays of a song, views of art and photos. */
export interface ShownCount {
  count: number;
  unit: 'plays' | 'views';
  /** The owner hides it from others: only the owner and admins are sent it, and it is marked so for them. */
  hiddenFromOthers: boolean;
}

/** How a count its owner hides is marked for the owner and admins, who alone are shown it. */
export const HIDDEN_FROM_OTHERS = 'hidden from others';

/** Whether the owner hides the piece's count from others: a song's plays (hidePlayCount), a picture's views (hideViewCount). */
export const hidesCount = (content: Pick<Content, 'type' | 'setting'>) =>
  content.type === 'music' ? content.setting.hidePlayCount : content.setting.hideViewCount;

/**
 * The piece's count as the viewer may see it, or null. The API sends a count its owner hides (null otherwise) only to
 * the owner and admins: to them it shows, marked as hidden from others.
 */
export function shownCount(content: Pick<Content, 'type' | 'setting' | 'reactedCount'>): ShownCount | null {
  if (content.reactedCount === null) return null;
  return { count: content.reactedCount, unit: content.type === 'music' ? 'plays' : 'views', hiddenFromOthers: hidesCount(content) };
}

/**
 * A count the server just answered, merged with the copy kept here: null (hidden from this viewer) wins, else the
 * larger (a knack made here may be newer than the answer).
 */
export const laterCount = (answered: number | null, kept: number | null): number | null => (answered === null ? null : Math.max(answered, kept ?? 0));
