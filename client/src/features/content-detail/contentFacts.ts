import type { TagType } from '../../lib/tags';
import type { Content } from '../../lib/content';

const MAIN_TAG_TYPES: Record<string, TagType> = { music: 'music', art: 'art', photos: 'photos' };

/** The type its first tag names (the first tag is the category); the stored type otherwise. */
export function typeByFirstTag(content: Pick<Content, 'tags' | 'type'>): TagType {
  return MAIN_TAG_TYPES[content.tags[0]?.name.trim().toLowerCase() ?? ''] ?? content.type;
}

/** The picture shown for a piece: the large thumbnail, else the cover or the medium one. */
export function stageImage(content: Content): string {
  return content.hthumbPath || content.coverPath || content.mthumbPath || content.thumbPath;
}

/** The full-size picture (show-full-image): the image itself, or a song's cover. */
export function fullImage(content: Content): string {
  return content.isImage ? content.filePath : content.coverPath || content.hthumbPath;
}
