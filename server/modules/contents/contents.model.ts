import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { changeTitleTerms } from './contents.title-index';

const settingSchema = new Schema(
  {
    public: { type: Boolean, default: true },
    private: { type: Boolean, default: false },
    followers: { type: Boolean, default: false },
    hidePlayCount: { type: Boolean, default: false },
    hideViewCount: { type: Boolean, default: false },
  },
  { _id: false },
);

/**
 * The piece's files, copied from its uploads when it is published, so that a feed page is one read of
 * `contents` (no join per card). `status` follows the audio's waveform processing.
 */
const contentMediaSchema = new Schema(
  {
    photoKey: { type: String, required: true },
    thumbKeys: { type: new Schema({ thumb: String, mthumb: String, hthumb: String, wthumb: String }, { _id: false }), required: true },
    audioKey: { type: String, default: null },
    waveformKey: { type: String, default: null },
    duration: { type: Number, default: null },
    fileName: { type: String, default: '' },
    fileSize: { type: Number, required: true },
    fileType: { type: String, required: true },
    status: { type: String, enum: ['ready', 'processing', 'failed'], default: 'ready' },
  },
  { _id: false },
);

/**
 * A piece minted as a Stellar NFT: its token, the transaction that minted it and its pinned file, as the NFT module
 * handed them over when it published the piece (the shortened forms included, as the app shows them).
 */
const contentNftSchema = new Schema(
  {
    tokenCode: { type: String, required: true },
    tokenIssuer: { type: String, required: true },
    tokenIssuerShort: { type: String, required: true },
    asset: { type: String, required: true },
    tokenAmount: { type: Number, required: true },
    transactionHash: { type: String, required: true },
    ipfsHash: { type: String, required: true },
    ipfsHashShort: { type: String, required: true },
    ipfsUrl: { type: String, required: true },
    network: { type: String, enum: ['testnet', 'public', 'custom'], required: true },
  },
  { _id: false },
);

/** A piece: a song (with its cover) or an image, under one main tag and a sub-tag. */
const contentSchema = new Schema(
  {
    ownerId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    /** Copied from the owner (ownerName, ownerUsername); a username change must update them. */
    ownerUsername: { type: String, required: true },
    ownerName: { type: String, default: '' },
    payerId: { type: Schema.Types.ObjectId, ref: 'User', default: null },
    title: { type: String, required: true },
    /** The share link's title part, unique per owner: `/{ownerUsername}-{slug}`. */
    slug: { type: String, required: true },
    /** Lower-cased words of the title, for anchored word-start search (no $text). */
    titleWords: { type: [String], default: [] },
    description: { type: String, required: true },
    /** Tags as objects `{ name }`; a piece has one, its main tag (the category). */
    tags: { type: [new Schema({ name: { type: String, required: true } }, { _id: false })], required: true },
    subTag: { type: String, default: '' },
    type: { type: String, enum: ['music', 'art', 'photos'], required: true },
    photoUploadId: { type: Schema.Types.ObjectId, ref: 'Upload', required: true },
    audioUploadId: { type: Schema.Types.ObjectId, ref: 'Upload', default: null },
    media: { type: contentMediaSchema, required: true },
    /** Published through the artist-page flow (isOrlando) or to the Top 50 chart. */
    isOrlando: { type: Boolean, default: false },
    isTop50: { type: Boolean, default: false },
    top50Email: { type: String, default: null },
    /** The artist whose Top 50 chart the piece was entered in (their own songs are on it anyway); null if none. */
    top50ArtistId: { type: Schema.Types.ObjectId, ref: 'User', default: null },
    /**
     * Sent by a visitor and owned by their waiting account: private, off every list, its files restricted, until the
     * account is registered from the link mailed to its address (then published as its owner's setting says).
     */
    awaitingOwner: { type: Boolean, default: false },
    isPaidOut: { type: Boolean, default: false },
    /** Off the public lists while flags from members wait for an admin's decision. */
    isHide: { type: Boolean, default: false },
    /** Hidden by an admin after flags: nobody but its owner and admins sees it, whatever its setting. */
    takenDown: { type: Boolean, default: false },
    setting: { type: settingSchema, default: () => ({}) },
    /**
     * What one knack of this piece was worth when it was published (its tag's knack price then): it sets the listing
     * fee's tier. A knack credits the tag's price in force when it happens (tags module, knackPriceNow).
     */
    knackRateMicros: { type: Number, required: true },
    reactedCount: { type: Number, default: 0 },
    /** Comments and shares not removed (kept by the comments module, recounted by the rankings job). */
    commentsCount: { type: Number, default: 0 },
    /** Plays counted from the embeddable player (share/content-react), at most one per visitor per day. */
    playCount: { type: Number, default: 0 },
    projectId: { type: Schema.Types.ObjectId, default: null },
    /** Set when the piece was published as a Stellar NFT (its `_id` is then the mint's id). */
    nft: { type: contentNftSchema, default: undefined },
    // Ranking keys (feeds/feeds.rankings.ts): kept up to date on write, so every feed is an indexed read.
    /** In the public feeds: public and not hidden. */
    listed: { type: Boolean, required: true },
    /** When an admin re-posted it to the top of Featured. */
    featuredAt: { type: Date, default: null },
    featureRank: { type: Number, required: true },
    trendScore: { type: Number, default: 0 },
    radarScore: { type: Number, default: 0 },
  },
  { timestamps: { createdAt: 'uploadedAt', updatedAt: 'updatedAt' } as const },
);
contentSchema.index({ ownerId: 1, _id: -1 });
contentSchema.index({ payerId: 1, _id: -1 });
contentSchema.index({ ownerUsername: 1, slug: 1 }, { unique: true });
contentSchema.index({ titleWords: 1 });
// A new listed piece is put in the title index before it is inserted (an insert that fails leaves an id that every
// search checks and drops); the changes of a stored piece record theirs where they are made (changeTitleTerms).
contentSchema.pre('save', async function indexNewPiece() {
  if (this.isNew) await changeTitleTerms(this._id, {}, this);
});
for (const key of ['featureRank', 'reactedCount', 'trendScore', 'radarScore'] as const) contentSchema.index({ listed: 1, [key]: -1, _id: -1 });
contentSchema.index({ listed: 1, _id: -1 });
// The weekly digest reads the pieces published in a week.
contentSchema.index({ uploadedAt: 1 });

export type ContentDoc = InferSchemaType<typeof contentSchema> & { _id: Types.ObjectId; uploadedAt: Date };
export const ContentModel = model('Content', contentSchema, 'contents');

/** Pieces as other modules may read them (they never write them). */
export const contentReads = readerOf<ContentDoc>(ContentModel);

/**
 * A file a piece had before its owner replaced it (`kind`: the song's audio, or the picture: a song's cover, or the
 * image of art and photos): its upload, still claimed by the piece and readable by its owner only, kept until
 * `keepUntil` (30 days after), then removed with its files by the housekeeping job. `replacedBy` is the upload that
 * took its place.
 *
 * A replacement writes this record first, as `switching`, then points the piece at the new upload, then marks it
 * `kept`: a process that stops in between leaves a `switching` record, which the housekeeping job settles from the
 * piece (finished when the piece holds `replacedBy`, undone otherwise), so no file is left that nothing would remove.
 */
const contentVersionSchema = new Schema(
  {
    contentId: { type: Schema.Types.ObjectId, required: true },
    kind: { type: String, enum: ['audio', 'image'], required: true },
    uploadId: { type: Schema.Types.ObjectId, required: true },
    replacedBy: { type: Schema.Types.ObjectId, required: true },
    fileName: { type: String, default: '' },
    size: { type: Number, required: true },
    mimeType: { type: String, required: true },
    duration: { type: Number, default: null },
    replacedAt: { type: Date, required: true },
    keepUntil: { type: Date, required: true },
    state: { type: String, enum: ['switching', 'kept'], required: true },
    /** The version this switch restores (null for a new file); absent on records written before it was kept. */
    restores: { type: Schema.Types.ObjectId, default: null },
  },
  { versionKey: false },
);
// A piece's versions are read through their chain (contents.versions.ts); by piece only when the piece is removed.
contentVersionSchema.index({ contentId: 1 });
export type ContentVersionDoc = InferSchemaType<typeof contentVersionSchema> & { _id: Types.ObjectId };
export const ContentVersionModel = model('ContentVersion', contentVersionSchema, 'content_versions');
