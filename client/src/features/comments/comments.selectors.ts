import type { CommentsState } from './comments.slice';

type WithComments = { comments: CommentsState };

export const selectFocusRequest = (state: WithComments) => ({ request: state.comments.focusRequest, contentId: state.comments.focusContentId });
