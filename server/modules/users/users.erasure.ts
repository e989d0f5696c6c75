/**
 * The account's part in "Download my data" and "Delete my account". Closing comes first and at once: the account
 * no longer has the member's email, username, names, password or sign-in providers (so nobody can sign in to it,
 * its profile is gone, and the username, the names it gave up and the email can be registered again), and every
 * access token it was given stops working. Removing the documents comes last, once the other modules have removed what is theirs.
 */
import { Types } from 'mongoose';
import type { Schemas } from '../../lib/openapi-types';
import { FormerUsernameModel } from './users.identity';
import { claimMemberKey, confirmMemberKey, extensionOf, releaseAccountKeys, releaseExtensionKey, releaseMemberKey } from './users.keys';
import { roleOf, toUserDto, toUserExtDto } from './users.mapper';
import { UserExtModel, UserModel, type UserDoc } from './users.model';
import { changeNameTerms } from './users.name-index';

/** The account as the member sees it, without its password hash, token version or provider ids. */
export async function accountExportOf(userId: string, adminEmails: readonly string[]): Promise<Schemas['DataExportAccount'] | null> {
  const _id = new Types.ObjectId(userId);
  const [user, ext] = await Promise.all([UserModel.findById(_id).lean<UserDoc & { createdAt: Date }>(), extensionOf(_id)]);
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
  const _id = new Types.ObjectId(userId);
  const standIn = { email: `deleted.${userId}@knack.invalid`, username: `deleted.${userId}` };
  // The stand-ins are keyed like any value (no one else can have them), the member's own values freed after.
  await Promise.all([claimMemberKey('email', standIn.email, _id), claimMemberKey('username', standIn.username, _id)]);
  const named = await UserModel.findById(_id, { username: 1, searchWords: 1 }).lean<Pick<UserDoc, 'username' | 'searchWords'>>();
  // The name index loses the member's words around the write that clears them.
  const before = await changeNameTerms(userId, named ?? {}, {}, () =>
    UserModel.findByIdAndUpdate(_id, {
      $set: {
        ...standIn,
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
    }).lean<UserDoc>(),
  );
  if (before) {
    await Promise.all([confirmMemberKey('email', standIn.email, _id), confirmMemberKey('username', standIn.username, _id)]);
    if (before.email !== standIn.email) await releaseAccountKeys(before);
  } else {
    await Promise.all([releaseMemberKey('email', standIn.email, _id), releaseMemberKey('username', standIn.username, _id)]);
  }
  // The names the member gave up are theirs alone while the account lives (users.identity.ts); free with it.
  await FormerUsernameModel.deleteMany({ userId: new Types.ObjectId(userId) });
}

/** Removes the account and its extension (location, credits, payout email). Safe to repeat. */
export async function removeAccount(userId: string): Promise<void> {
  const _id = new Types.ObjectId(userId);
  const user = await UserModel.findById(_id, { email: 1, username: 1, googleId: 1, facebookId: 1 }).lean<UserDoc>();
  const ext = await extensionOf(_id);
  if (ext) {
    await UserExtModel.deleteOne({ _id: ext._id });
    await releaseExtensionKey(_id, ext._id);
  }
  await UserModel.deleteOne({ _id });
  if (user) await releaseAccountKeys(user);
}
