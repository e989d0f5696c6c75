import { createSelector } from '@reduxjs/toolkit';
import type { TagsState } from './tags.slice';
import type { Tag, TagGroup, TagType } from '../../lib/tags';

type WithTags = { tags: TagsState };

/** Main tags in the order the product shows them. */
export const MAIN_TAG_ORDER: readonly TagType[] = ['music', 'art', 'photos'];

export const selectTagsStatus = (state: WithTags) => state.tags.status;
export const selectTagsError = (state: WithTags) => state.tags.error;
export const selectAllTags = (state: WithTags) => state.tags.items;

/**
 * Main tags (parentTag null) with their sub-tags, Music, Art, Photos first; sub-tags keep the server's
 * order. A sub-tag whose main tag is missing is left out.
 */
export function groupTags(tags: readonly Tag[]): TagGroup[] {
  const mains = tags.filter((tag) => tag.parentTag === null);
  const groups = mains.map<TagGroup>((main) => ({
    type: main.type,
    main,
    subTags: tags.filter((tag) => tag.parentTag === main.id),
  }));
  const rank = (type: TagType) => {
    const index = MAIN_TAG_ORDER.indexOf(type);
    return index === -1 ? MAIN_TAG_ORDER.length : index;
  };
  return groups.sort((a, b) => rank(a.type) - rank(b.type));
}

export const selectTagGroups = createSelector([selectAllTags], groupTags);
