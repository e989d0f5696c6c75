import { Schema, model } from 'mongoose';

/**
 * A member's mint of a piece as a Stellar NFT, from the token code (started) to the published piece. The `_id` is
 * an ObjectId's hex: the issuer account is derived from it (nft.issuer.ts), and the piece is published under it,
 * so that publishing it again inserts nothing. No secret key is kept here: the issuer's is derived when it signs.
 */
const nftMintSchema = new Schema(
  {
    _id: { type: String, required: true },
    memberId: { type: String, required: true },
    status: { type: String, enum: ['started', 'prepared', 'submitted', 'published'], required: true },
    tokenCode: { type: String, required: true },
    /** The supply in stroops of the asset (units of 0.0000001). */
    tokenAmount: { type: Number, required: true },
    tokenIssuer: { type: String, required: true },
    /** The member's linked wallet when the mint started: it signs, pays, and receives the token. */
    ownerAddress: { type: String, required: true },
    network: { type: String, required: true },
    networkPassphrase: { type: String, required: true },
    /** The uploads whose files were pinned (their keys), which the piece must be published with. */
    photoPath: { type: String, default: null },
    audioPath: { type: String, default: null },
    /** The main file's CID (the song, else the image), and the image's (the song's cover) when they differ. */
    ipfsHash: { type: String, default: null },
    ipfsUrl: { type: String, default: null },
    imageIpfsUrl: { type: String, default: null },
    /** The optional SEP-1 currency fields the member gave, for stellar.toml. */
    toml: { type: new Schema({ name: String, description: String, image: String }, { _id: false }), default: null },
    /** The prepared transaction, signed by the issuer (base64 XDR), its hash (hex) and its end. */
    transaction: { type: String, default: null },
    transactionHash: { type: String, default: null },
    expiresAt: { type: Date, default: null },
    contentId: { type: String, default: null },
    startedAt: { type: Date, required: true },
    submittedAt: { type: Date, default: null },
    publishedAt: { type: Date, default: null },
  },
  { versionKey: false },
);
nftMintSchema.index({ memberId: 1 });
nftMintSchema.index({ status: 1, _id: -1 });

export type NftMintStatus = 'started' | 'prepared' | 'submitted' | 'published';

export interface NftMintDoc {
  _id: string;
  memberId: string;
  status: NftMintStatus;
  tokenCode: string;
  tokenAmount: number;
  tokenIssuer: string;
  ownerAddress: string;
  network: 'testnet' | 'public' | 'custom';
  networkPassphrase: string;
  photoPath: string | null;
  audioPath: string | null;
  ipfsHash: string | null;
  ipfsUrl: string | null;
  imageIpfsUrl: string | null;
  toml: { name?: string; description?: string; image?: string } | null;
  transaction: string | null;
  transactionHash: string | null;
  expiresAt: Date | null;
  contentId: string | null;
  startedAt: Date;
  submittedAt: Date | null;
  publishedAt: Date | null;
}

export const NftMintModel = model<NftMintDoc>('NftMint', nftMintSchema, 'nft_mints');
