import type { ContentDetailState } from './contentDetail.slice';

type WithContentDetail = { contentDetail: ContentDetailState };

export const selectContentDetail = (state: WithContentDetail) => state.contentDetail;
export const selectDetailOpen = (state: WithContentDetail) => state.contentDetail.open;

export interface DetailPosition {
  index: number;
  count: number;
  hasPrevious: boolean;
  hasNext: boolean;
}

/** Where the shown piece sits among its siblings (a new object: select with shallowEqual). */
export function selectDetailPosition(state: WithContentDetail): DetailPosition {
  const { content, siblings } = state.contentDetail;
  const index = siblings.findIndex((piece) => piece.id === content?.id);
  return { index, count: siblings.length, hasPrevious: index > 0, hasNext: index >= 0 && index < siblings.length - 1 };
}
