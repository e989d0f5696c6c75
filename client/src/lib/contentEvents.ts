/**
 * Actions about a piece that several features dispatch or react to. They live here, below the features,
 * so that a feature can send them without depending on the one that handles them:
 * - any list (a grid, the player bar, a chart) opens the detail modal with `detailOpened`, which
 *   features/content-detail shows;
 * - the detail modal reports an image shown with `imageViewed`, which features/knack knacks;
 * - a listing fee paid (features/payments) and a knack registered (features/knack) update the open piece,
 *   and a knack also the member's reacted list (features/auth) and the player queue (features/player);
 * - a comment added or removed (features/comments) moves the piece's comments count in the player bar;
 * - a piece changed by its owner (features/privacy) updates the copies in the detail modal and the player queue.
 * They are for the state the store keeps outside the cache (the modal, the queue, the session). What was read
 * through the cache is not told with them: the change that altered a piece invalidates its reads (its contract
 * tag), and every list on screen showing it loads again.
 */
import { createAction } from '@reduxjs/toolkit';
import type { AddKnackResult } from '../api/generated/operations';
import type { Content } from './content';

export interface DetailRequest {
  content: Content;
  /** The pieces around it; empty or omitted: only this one. */
  siblings?: Content[];
}

/** A card was chosen: the content detail modal shows it, its arrows walk `siblings`. */
export const detailOpened = createAction<DetailRequest>('contentDetail/detailOpened');

/** A piece's listing fee is paid (a credit, a code, or a confirmed checkout): it is monetized now. */
export const listingPaid = createAction<{ contentId: string; payerId: string }>('payments/listingPaid');

/**
 * The detail modal opened an image with knack status 1 (paid out, not the viewer's own, not knacked yet)
 * for a signed-in member: features/knack knacks it once.
 */
export const imageViewed = createAction<{ contentId: string }>('knack/imageViewed');

/**
 * The server answered a knack (new, or the one already made): the reacted list, the counts and the
 * status follow; a new one thanks the member.
 */
export const knackRegistered = createAction<{ contentId: string } & Pick<AddKnackResult, 'message' | 'knackStatus' | 'reactedCount'>>('knack/registered');

/** A piece's comments count changed here (a comment added or removed): the player bar's count follows. */
export const commentsCounted = createAction<{ contentId: string; commentsCount: number }>('comments/counted');

/**
 * A piece was changed here (its privacy setting, by features/privacy): the copies the store keeps (the detail modal's
 * piece and siblings, the player queue) take the server's answer.
 */
export const pieceUpdated = createAction<Content>('content/pieceUpdated');
