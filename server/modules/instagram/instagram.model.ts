import { Schema, model } from 'mongoose';

/**
 * A member's connected Instagram professional account, one per member (`_id` = the member's id): the account's id and
 * username, and its long-lived access token, encrypted (AES-256-GCM under a key derived from JWT_SECRET), so a copy
 * of the database alone cannot post for anyone.
 */
const linkSchema = new Schema(
  {
    _id: { type: String, required: true },
    instagramUserId: { type: String, required: true },
    username: { type: String, required: true },
    tokenCipher: { type: String, required: true },
    expiresAt: { type: Date, required: true },
    connectedAt: { type: Date, required: true },
  },
  { versionKey: false },
);

export interface InstagramLinkDoc {
  _id: string;
  instagramUserId: string;
  username: string;
  tokenCipher: string;
  expiresAt: Date;
  connectedAt: Date;
}

export const InstagramLinkModel = model('InstagramLink', linkSchema, 'instagram_links');

/**
 * One piece being posted, or lately posted, by one member (`_id` = `{userId}:{contentId}`). Inserting it is what
 * makes a post exclusive: a second tap, or a second tab, while the first is on its way finds it taken. Once posted it
 * stays a while, so the same piece is not posted twice by mistake, and then may be posted again.
 */
const postSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: String, required: true },
    contentId: { type: String, required: true },
    status: { type: String, enum: ['posting', 'posted'], required: true },
    at: { type: Date, required: true },
    mediaId: { type: String, default: null },
    permalink: { type: String, default: null },
  },
  { versionKey: false },
);

export interface InstagramPostDoc {
  _id: string;
  userId: string;
  contentId: string;
  status: 'posting' | 'posted';
  at: Date;
  mediaId: string | null;
  permalink: string | null;
}

export const InstagramPostModel = model('InstagramPost', postSchema, 'instagram_posts');
