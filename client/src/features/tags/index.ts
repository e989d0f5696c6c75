/**
 * features/tags: the tag list (main tags and sub-tags), read through the cache. The tag types, type colours and
 * knack prices are shared helpers (lib/tags, lib/tagColors, lib/formatKnackPrice); the tag sections and type icon
 * are shared components (components/tags).
 */
export { useTags, groupTags, prefetchTags, type Tags } from './useTags';
