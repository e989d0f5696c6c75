/**
 * features/tags: the tag list (main tags and sub-tags) in the store. The tag types, type colours and knack
 * prices are shared helpers (lib/tags, lib/tagColors, lib/formatKnackPrice); the tag sections and type icon
 * are shared components (components/tags).
 */
export { tagsReducer, tagsRequested, tagsLoaded, tagsFailed, initialTagsState } from './tags.slice';
export type { TagsState } from './tags.slice';
export { tagsSaga } from './tags.saga';
export { selectTagGroups, selectTagsStatus, selectTagsError, selectAllTags, groupTags, MAIN_TAG_ORDER } from './tags.selectors';
