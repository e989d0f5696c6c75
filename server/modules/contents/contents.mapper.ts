import type { AuthContext } from '../../lib/auth-context';
import { isOwnerOrAdmin } from '../../lib/permissions';
import { microsToUsd } from '../../lib/money';
import type { Schemas } from '../../lib/openapi-types';
import type { ContentDoc } from './contents.model';

export type UrlOf = (key: string) => string;

/**
 * Who a piece's counts are shown to: a signed-in caller, or null for an answer that is not one caller's (a visitor,
 * or a page shared by everyone, such as the cached public feeds).
 */
export type CountReader = Pick<AuthContext, 'userId' | 'role'> | null | undefined;

/** Whether the owner hides the piece's count from others: a song's plays (hidePlayCount), a picture's views (hideViewCount). */
export const hidesCount = (content: Pick<ContentDoc, 'type' | 'setting'>) =>
  content.type === 'music' ? content.setting.hidePlayCount : content.setting.hideViewCount;

/** A count as `reader` may see it: null when the owner hides it from them. */
export const shownCount = (content: Pick<ContentDoc, 'type' | 'setting' | 'ownerId'>, reader: CountReader, count: number): number | null =>
  // Its owner and admins see a count even when it is hidden.
  hidesCount(content) && !isOwnerOrAdmin(reader, content.ownerId) ? null : count;

/** The share path of a piece: `/{ownerUsername}-{title slug}`. */
export const contentLink = (content: Pick<ContentDoc, 'ownerUsername' | 'slug'>) => `/${content.ownerUsername}-${content.slug}`;

const nftView = (nft: NonNullable<ContentDoc['nft']>): Schemas['ContentNft'] => ({
  tokenCode: nft.tokenCode,
  tokenIssuer: nft.tokenIssuer,
  tokenIssuerShort: nft.tokenIssuerShort,
  asset: nft.asset,
  tokenAmount: nft.tokenAmount,
  transactionHash: nft.transactionHash,
  ipfsHash: nft.ipfsHash,
  ipfsHashShort: nft.ipfsHashShort,
  ipfsUrl: nft.ipfsUrl,
  network: nft.network,
});

/**
 * A piece as the API shows it to `reader`, from its document and what one knack of it is worth now (its tag's price
 * moves daily). `url` turns storage keys into URLs the viewer may load; a count the owner hides is null for everyone
 * but the owner and admins.
 */
export function toContentDto(content: ContentDoc, url: UrlOf, reader: CountReader, knackMicros: number): Schemas['Content'] {
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
    knackRate: microsToUsd(knackMicros),
    reactedCount: shownCount(content, reader, content.reactedCount),
    playCount: shownCount(content, reader, content.playCount ?? 0),
    uploadedAt: content.uploadedAt.toISOString(),
    projectId: content.projectId ? String(content.projectId) : null,
    processing: media.status,
    ...(media.duration != null ? { duration: media.duration } : {}),
    ...(media.waveformKey ? { waveformPath: url(media.waveformKey) } : {}),
    ...(content.nft ? { nft: nftView(content.nft) } : {}),
  };
}
