import { readerOf } from '../../lib/query';
import { Schema, model, type InferSchemaType, type Types } from 'mongoose';
import { wordsOf } from '../../lib/search';
import { changeNameTerms } from './users.name-index';

const userSchema = new Schema(
  {
    /** Trimmed and lower-cased: the key of sign-in and look-ups. */
    email: { type: String, required: true, unique: true },
    /** Trimmed, lower-cased, spaces as underscores. */
    username: { type: String, required: true, unique: true },
    firstName: { type: String, default: '' },
    lastName: { type: String, default: '' },
    fullName: { type: String, default: '' },
    /** bcrypt hash; null for accounts made by Google or Facebook sign-in until a password is set. */
    passwordHash: { type: String, default: null },
    isActive: { type: Boolean, default: false },
    /** URL of the profile photo (ours, or the sign-in provider's picture). */
    image: { type: String, default: null },
    /** URLs of the cropped header (shown) and of its uploaded original (kept for cropping again). */
    headerImage: { type: String, default: null },
    headerImageOriginal: { type: String, default: null },
    bio: { type: String, default: '' },
    /** Social profiles shown on the public profile, each kept as the profile's address ('' for none). */
    social: {
      facebook: { type: String, default: '' },
      twitter: { type: String, default: '' },
      linkedin: { type: String, default: '' },
      instagram: { type: String, default: '' },
    },
    sex: { type: String, enum: ['M', 'W', null], default: null },
    birthday: { type: Date, default: null },
    /** Mails with news from Knack and about messages (on unless turned off), and mails with offers (off unless turned on). */
    willReceiveNews: { type: Boolean, default: true },
    willReceivePromotes: { type: Boolean, default: false },
    /**
     * Knack's own mails a member can stop one by one, from the settings or the mail's one-click unsubscribe link (all
     * on unless turned off): the weekly digest of followed artists' new pieces (sent only with `willReceiveNews` on
     * too), the monthly earnings statement, and the notice that a payout or cash-out was sent.
     */
    willReceiveDigest: { type: Boolean, default: true },
    willReceiveStatements: { type: Boolean, default: true },
    willReceivePayoutNotices: { type: Boolean, default: true },
    metaTitle: { type: String, default: '' },
    metaDescription: { type: String, default: '' },
    userType: { type: Number, default: 0 },
    /** Bumped by password change, reset, logout-all and an account taken back: every older token stops working. */
    tokenVersion: { type: Number, default: 0 },
    googleId: { type: String },
    facebookId: { type: String },
    onesignalUserId: { type: String, default: null },
    /**
     * A waiting account: made for the email of a visitor's Top 50 upload, with no password and a placeholder
     * username no one can type. It cannot sign in until the link mailed to that address registers it
     * (auth/signup-orland), which clears this.
     */
    awaitsRegistration: { type: Boolean, default: false },
    /** A waiting account's last Top 50: the artist's username, whose chart page its registration link opens. */
    registrationChart: { type: String, default: null },
    /** When an admin deactivated the account (it cannot sign in until reactivated); null while it may. */
    deactivatedAt: { type: Date, default: null },
    /** When the last activation mail went out (resending is throttled). */
    activationSentAt: { type: Date, default: null },
    /**
     * The address the member asked to change their email to, until the link mailed there is opened (then it becomes
     * `email`) or `pendingEmailExpiresAt` passes; null when no change waits (users.identity.ts).
     */
    pendingEmail: { type: String, default: null },
    pendingEmailExpiresAt: { type: Date, default: null },
    // Counters kept on write, so artist lists and profiles are indexed reads (feeds/feeds.rankings.ts).
    /** Public pieces. */
    contentsCount: { type: Number, default: 0 },
    followersCount: { type: Number, default: 0 },
    followingsCount: { type: Number, default: 0 },
    /** Reactions to the member's pieces in the last 7 days. */
    trendScore: { type: Number, default: 0 },
    /** Lower-cased words of the username and full name, for anchored word-start search. */
    searchWords: { type: [String], default: [] },
  },
  { timestamps: { createdAt: 'createdAt', updatedAt: 'updated' } as const },
);
userSchema.index({ googleId: 1 }, { unique: true, sparse: true });
userSchema.index({ facebookId: 1 }, { unique: true, sparse: true });
userSchema.pre('save', function keepSearchWords() {
  if (this.isModified('username') || this.isModified('fullName')) this.searchWords = wordsOf(this.username, this.fullName);
});
// A new account is put in the name index before it is inserted (after its words are set, above); the changes of a
// stored account record theirs where they are made (changeNameTerms).
userSchema.pre('save', async function indexNewMember() {
  if (this.isNew) await changeNameTerms(this._id, {}, this);
});
userSchema.index({ searchWords: 1 });
userSchema.index({ contentsCount: 1, _id: -1 });
userSchema.index({ followersCount: -1, _id: -1 });
userSchema.index({ trendScore: -1, _id: -1 });

export type UserDoc = InferSchemaType<typeof userSchema> & { _id: Types.ObjectId; updated: Date };
export const UserModel = model('User', userSchema);

/** The user's extension (userExt): location and listing credits. */
const userExtSchema = new Schema(
  {
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true, unique: true },
    /** Where the member is from (regional settings): an ISO 3166-1 code, a region of it by name, a city. */
    country: { type: String, default: null },
    city: { type: String, default: '' },
    state: { type: String, default: '' },
    /** The member's IANA time zone. */
    timezone: { type: String, default: null },
    pCredit: { type: Number, default: 0, min: 0 },
    sCredit: { type: Number, default: 0, min: 0 },
    /**
     * The credit movement being recorded (credits.ts), written before it and cleared in the same update that moves
     * the totals: one a process died on is applied once, or dropped, by the next credit step or the repair job.
     */
    pendingCreditMovement: {
      type: new Schema({ _id: { type: String, required: true }, standard: Number, premium: Number }, { _id: false }),
      default: null,
    },
    /**
     * The number of the last entry of the member's credit movement list that this extension was told of (credits.ts):
     * where a reader starts looking for the list's end. Set after each entry, best-effort: it may lag behind the end,
     * never pass it.
     */
    creditListEnd: { type: Number, default: 0 },
    /** Where payouts and cash-outs are sent (payment settings); owner and admins only. */
    paypal: { type: String, default: null },
    /** When `paypal` was last set; null when set before this was recorded. */
    paypalChangedAt: { type: Date, default: null },
    /** Nothing is paid to `paypal` until the member confirms it with their password (users.payout.ts). */
    paypalHeld: { type: Boolean, default: false },
  },
  { timestamps: true },
);
export type UserExtDoc = InferSchemaType<typeof userExtSchema>;
export const UserExtModel = model('UserExt', userExtSchema, 'user_exts');

/** Members and their extensions as other modules may read them (they never write them). */
export const userReads = readerOf<UserDoc>(UserModel);
export const userExtReads = readerOf<UserExtDoc>(UserExtModel);
