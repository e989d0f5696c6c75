import type { components } from '../../../generated/openapi';

export type Tag = components['schemas']['Tag'];
export type TagType = components['schemas']['TagType'];

/** A main tag (Music, Art, Photos) with its sub-tags. */
export interface TagGroup {
  type: TagType;
  main: Tag;
  subTags: Tag[];
}

/** Where loading the tag list stands. */
export type LoadStatus = 'idle' | 'loading' | 'loaded' | 'failed';
