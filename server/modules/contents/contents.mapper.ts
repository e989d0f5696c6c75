import { microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import type { UploadDoc } from '../media';
import type { UserDoc } from '../users';
import type { ContentDoc } from './contents.model';

export type UrlOf = (key: string) => string;

/** A piece as the API shows it. `url` turns storage keys into URLs the viewer may load. */
export function toContentDto(
  content: ContentDoc,
  owner: Pick<UserDoc, 'fullName' | 'username'> | null,
  photo: UploadDoc,
  audio: UploadDoc | null,
  url: UrlOf,
): Schemas['Content'] {
  const main = audio ?? photo;
  const thumbs = photo.thumbKeys ?? {};
  return {
    id: String(content._id),
    ownerId: String(content.ownerId),
    ownerName: owner?.fullName ?? '',
    ownerUsername: owner?.username ?? '',
    payerId: content.payerId ? String(content.payerId) : null,
    title: content.title,
    description: content.description,
    filePath: url(main.key),
    coverPath: url(photo.key),
    thumbPath: url(thumbs.thumb ?? photo.key),
    mthumbPath: url(thumbs.mthumb ?? photo.key),
    hthumbPath: url(thumbs.hthumb ?? photo.key),
    wthumbPath: url(thumbs.wthumb ?? photo.key),
    fileName: main.originalName,
    fileSize: main.size,
    fileType: main.mimeType,
    isImage: !audio,
    isAudio: Boolean(audio),
    isOrlando: content.isOrlando,
    isPaidOut: content.isPaidOut,
    isHide: content.isHide,
    subTag: content.subTag,
    tags: content.tags.map(({ name }) => ({ name })),
    setting: {
      public: content.setting.public,
      private: content.setting.private,
      followers: content.setting.followers,
      hidePlayCount: content.setting.hidePlayCount,
      hideViewCount: content.setting.hideViewCount,
    },
    // Earnings so far come with the knack ledger (money issue); nothing is earned before it.
    knackValue: 0,
    knackRate: microsToUsd(content.knackRateMicros),
    reactedCount: content.reactedCount,
    uploadedAt: content.uploadedAt.toISOString(),
    projectId: content.projectId ? String(content.projectId) : null,
    processing: audio?.status ?? 'ready',
    ...(audio?.duration != null ? { duration: audio.duration } : {}),
    ...(audio?.waveformKey ? { waveformPath: url(audio.waveformKey) } : {}),
  };
}
