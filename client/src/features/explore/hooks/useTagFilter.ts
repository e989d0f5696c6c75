import { useMemo } from 'react';
import { useTags } from '../../tags';
import type { Tag, TagGroup } from '../../../lib/tags';

export interface TagFilter {
  /** Music, Art and Photos with their sub-tags (empty until loaded). */
  groups: TagGroup[];
  /** 'none': no slug; 'unknown': the tags are loaded and none has this slug; 'failed': they could not be loaded. */
  status: 'none' | 'loading' | 'found' | 'unknown' | 'failed';
  /** The main tag chosen (the tag itself, or the parent of the sub-tag chosen). */
  main?: Tag;
  /** The sub-tag chosen. */
  sub?: Tag;
  /** The tag list is still on its way. */
  tagsLoading: boolean;
  /** Loads the tags again (after a failure). */
  reload: () => void;
}

/** Finds the tag of a URL slug (`/explore/music`, `/explore/hip-hop`) among main tags and sub-tags. */
export function findTagBySlug(groups: readonly TagGroup[], slug: string): Pick<TagFilter, 'main' | 'sub'> | undefined {
  const wanted = slug.toLowerCase();
  for (const group of groups) {
    if (group.main.slug === wanted) return { main: group.main };
    const sub = group.subTags.find((tag) => tag.slug === wanted);
    if (sub) return { main: group.main, sub };
  }
  return undefined;
}

/** Loads the tags (once) and resolves the tag slug of the URL, if any. */
export function useTagFilter(slug: string | undefined): TagFilter {
  const { status, groups, reload } = useTags();

  return useMemo<TagFilter>(() => {
    const base = { groups, tagsLoading: status === 'idle' || status === 'loading', reload };
    if (!slug) return { ...base, status: 'none' };
    if (status === 'failed') return { ...base, status: 'failed' };
    if (status !== 'loaded') return { ...base, status: 'loading' };
    const found = findTagBySlug(groups, slug);
    return found ? { ...base, status: 'found', ...found } : { ...base, status: 'unknown' };
  }, [groups, slug, status, reload]);
}
