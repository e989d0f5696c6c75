import { microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import type { ContentDoc } from './contents.model';

export type UrlOf = (key: string) => string;

/** The share path of a piece: `/{ownerUsername}-{title slug}`. */
export const contentLink = (content: Pick<ContentDoc, 'ownerUsername' | 'slug'>) => `/${content.ownerUsername}-${content.slug}`;

/** A piece as the API shows it, from its document alone. `url` turns storage keys into URLs the viewer may load. */
export function toContentDto(content: ContentDoc, url: UrlOf): Schemas['Content'] {
  const { media } = content;
  const thumbs = media.thumbKeys;
  return {
    id: String(content._id),
    type: content.type,
    link: contentLink(content),
    ownerId: String(content.ownerId),
    ownerName: content.ownerName,
    ownerUsername: content.ownerUsername,
    payerId: content.payerId ? String(content.payerId) : null,
    title: content.title,
    description: content.description,
    filePath: url(media.audioKey ?? media.photoKey),
    coverPath: url(media.photoKey),
    thumbPath: url(thumbs.thumb ?? media.photoKey),
    mthumbPath: url(thumbs.mthumb ?? media.photoKey),
    hthumbPath: url(thumbs.hthumb ?? media.photoKey),
    wthumbPath: url(thumbs.wthumb ?? media.photoKey),
    fileName: media.fileName,
    fileSize: media.fileSize,
    fileType: media.fileType,
    isImage: !media.audioKey,
    isAudio: Boolean(media.audioKey),
    isOrlando: content.isOrlando,
    isPaidOut: content.isPaidOut,
    isHide: content.isHide,
    featured: Boolean(content.featuredAt),
    subTag: content.subTag,
    tags: content.tags.map(({ name }) => ({ name })),
    setting: {
      public: content.setting.public,
      private: content.setting.private,
      followers: content.setting.followers,
      hidePlayCount: content.setting.hidePlayCount,
      hideViewCount: content.setting.hideViewCount,
    },
    // A piece's listing carries no earnings: knack/get-money answers its knack value and what it earned.
    knackValue: 0,
    knackRate: microsToUsd(content.knackRateMicros),
    reactedCount: content.reactedCount,
    playCount: content.playCount ?? 0,
    uploadedAt: content.uploadedAt.toISOString(),
    projectId: content.projectId ? String(content.projectId) : null,
    processing: media.status,
    ...(media.duration != null ? { duration: media.duration } : {}),
    ...(media.waveformKey ? { waveformPath: url(media.waveformKey) } : {}),
  };
}
