/**
 * The account's part in "Download my data" and "Delete my account". Closing comes first and at once: the account
 * no longer has the member's email, username, names, password or sign-in providers (so nobody can sign in to it,
 * its profile is gone, and the username, the names it gave up and the email can be registered again), and every
 * access token it was given stops working. Removing the documents comes last, once the other modules have removed what is theirs.
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { FormerUsernameModel } from './users.identity';
import { roleOf, toUserDto, toUserExtDto } from './users.mapper';
import { UserExtModel, UserModel, type UserDoc, type UserExtDoc } from './users.model';
import { changeNameTerms } from './users.name-index';

/** The account as the member sees it, without its password hash, token version or provider ids. */
export async function accountExportOf(userId: string, adminEmails: readonly string[]): Promise<Schemas['DataExportAccount'] | null> {
  const _id = new Types.ObjectId(userId);
  const [user, ext] = await Promise.all([
    UserModel.findById(_id).lean<UserDoc & { createdAt: Date }>(),
    UserExtModel.findOne({ userId: _id }).lean<UserExtDoc>(),
  ]);
  if (!user) return null;
  return {
    user: toUserDto(user, roleOf(adminEmails, user.email)),
    userExt: toUserExtDto(ext),
    payoutEmail: ext?.paypal ?? null,
    signInWith: { password: Boolean(user.passwordHash), google: Boolean(user.googleId), facebook: Boolean(user.facebookId) },
    createdAt: user.createdAt.toISOString(),
  };
}

/**
 * Takes everything personal off the account and ends its access tokens; it stays, inactive and nameless, until
 * `removeAccount`. The stand-in email and username use the id, which no sign-up can take (`.invalid` is never a
 * real domain). Safe to repeat.
 */
export async function closeAccount(userId: string): Promise<void> {
  const named = await UserModel.findById(userId, { username: 1, searchWords: 1 }).lean<Pick<UserDoc, 'username' | 'searchWords'>>();
  await changeNameTerms(userId, named ?? {}, {}, () => closeAccountFields(userId));
}

/** What closing an account writes: every personal field cleared, and the names it gave up let go. */
async function closeAccountFields(userId: string): Promise<void> {
  await UserModel.updateOne(
    { _id: new Types.ObjectId(userId) },
    {
      $set: {
        email: `deleted.${userId}@knack.invalid`,
        username: `deleted.${userId}`,
        firstName: '',
        lastName: '',
        fullName: '',
        passwordHash: null,
        isActive: false,
        image: null,
        headerImage: null,
        headerImageOriginal: null,
        bio: '',
        social: { facebook: '', twitter: '', linkedin: '', instagram: '' },
        sex: null,
        birthday: null,
        willReceiveNews: false,
        willReceivePromotes: false,
        willReceiveDigest: false,
        willReceiveStatements: false,
        willReceivePayoutNotices: false,
        metaTitle: '',
        metaDescription: '',
        onesignalUserId: null,
        pendingEmail: null,
        pendingEmailExpiresAt: null,
        searchWords: [],
        // A waiting account being removed can no longer be registered from its link.
        awaitsRegistration: false,
        registrationChart: null,
        contentsCount: 0,
        followersCount: 0,
        followingsCount: 0,
        trendScore: 0,
      },
      $unset: { googleId: 1, facebookId: 1 },
      $inc: { tokenVersion: 1 },
    },
  );
  // The names the member gave up are theirs alone while the account lives (users.identity.ts); free with it.
  await FormerUsernameModel.deleteMany({ userId: new Types.ObjectId(userId) });
}

/** Removes the account and its extension (location, credits, payout email). Safe to repeat. */
export async function removeAccount(userId: string): Promise<void> {
  const _id = new Types.ObjectId(userId);
  await UserExtModel.deleteOne({ userId: _id });
  await UserModel.deleteOne({ _id });
}
