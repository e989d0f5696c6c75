import { useCallback, useMemo } from 'react';
import { knackApi, useGetAllTagsQuery } from '../../api/generated/endpoints';
import type { CachedError } from '../../api/cache';
import type { LoadStatus, Tag, TagGroup, TagType } from '../../lib/tags';

/** Main tags in the order the product shows them. */
const MAIN_TAG_ORDER: readonly TagType[] = ['music', 'art', 'photos'];

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

export interface Tags {
  /** Every tag, main tags and sub-tags (empty until loaded). */
  tags: Tag[];
  /** Music, Art and Photos with their sub-tags (empty until loaded). */
  groups: TagGroup[];
  status: LoadStatus;
  /** The server's message when the list could not be loaded. */
  error: string | null;
  /** Loads the list again (after a failure). */
  reload: () => void;
}

const NO_TAGS: Tag[] = [];

/**
 * The tag list (GET /tag/get-all), read through the cache: every page and form that shows tags shares one copy,
 * loaded by the first that needs it, and a list that failed loads again when the next one asks.
 */
export function useTags(): Tags {
  const { data, error, isError, isUninitialized, refetch } = useGetAllTagsQuery();
  const tags = data?.tags ?? NO_TAGS;
  const groups = useMemo(() => groupTags(tags), [tags]);
  const status: LoadStatus = data ? 'loaded' : isError ? 'failed' : isUninitialized ? 'idle' : 'loading';
  const message = isError ? (error as CachedError).message : null;
  const reload = useCallback(() => void refetch(), [refetch]);
  return useMemo(() => ({ tags, groups, status, error: message, reload }), [tags, groups, status, message, reload]);
}

/** Starts loading the tag list ahead of a form that needs it (a list loaded already, or on its way, is not asked again). */
export const prefetchTags = () => knackApi.util.prefetch('getAllTags', undefined, {});
