import type { CommentsState, PieceComments } from './comments.slice';

type WithComments = { comments: CommentsState };

export const selectPieceComments = (state: WithComments, contentId: string): PieceComments | undefined => state.comments.byContent[contentId];

export const selectFocusRequest = (state: WithComments) => ({ request: state.comments.focusRequest, contentId: state.comments.focusContentId });

/** The times in the track of a song's loaded comments, for the markers on its waveform. */
export function selectCommentTimes(state: WithComments, contentId: string): { id: string; atSeconds: number; name: string }[] {
  const items = state.comments.byContent[contentId]?.items ?? [];
  return items.flatMap((comment) => (comment.atSeconds === null ? [] : [{ id: comment.id, atSeconds: comment.atSeconds, name: comment.commentorName }]));
}
