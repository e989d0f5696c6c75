/** features/tags: the tag list (main tags and sub-tags), type colours and knack prices. */
export { tagsReducer, tagsRequested, tagsLoaded, tagsFailed, initialTagsState } from './tags.slice';
export type { TagsState, LoadStatus } from './tags.slice';
export { tagsSaga } from './tags.saga';
export { selectTagGroups, selectTagsStatus, selectTagsError, selectAllTags, groupTags, MAIN_TAG_ORDER } from './tags.selectors';
export { TYPE_COLORS, typeColor, typeStyle } from './tagColors';
export type { TypePalette } from './tagColors';
export { formatKnackPrice, formatKnackPricePer, knackUnit, DEFAULT_KNACK_PRICE } from './formatKnackPrice';
export type { Tag, TagType, TagGroup } from './tags.types';
// Components live in ./ui.ts (route UI stays out of the entry chunk).
