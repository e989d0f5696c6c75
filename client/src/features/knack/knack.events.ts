import { createAction } from '@reduxjs/toolkit';
import type { AddKnackResult } from '../../api/generated/operations';

/**
 * The server answered a knack (new, or the one already made): the reacted list, the counts and the
 * status follow; a new one thanks the member.
 */
export const knackRegistered = createAction<{ contentId: string } & Pick<AddKnackResult, 'message' | 'knackStatus' | 'reactedCount'>>('knack/registered');

/**
 * The detail modal opened an image with knack status 1 (paid out, not the viewer's own, not knacked yet)
 * for a signed-in member: it knacks once.
 */
export const imageViewed = createAction<{ contentId: string }>('knack/imageViewed');
