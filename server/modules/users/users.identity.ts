/**
 * The account writes of a change of username or email, made here because this module owns `users`. Auth decides
 * when and checks the sign-up's rules first (auth/auth.identity.ts); these functions keep the names given up and
 * the address a change waits for, and give an account back to an address it had before.
 */
import { Schema, model, type Types, type UpdateQuery } from 'mongoose';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { withLock } from '../../lib/mutex';
import { wordsOf } from '../../lib/search';
import { changeNameTerms } from './users.name-index';
import { claimMemberKey, confirmMemberKey, memberByKey, releaseMemberKey } from './users.keys';
import { UserModel, type UserDoc } from './users.model';
import { PATTERNS } from '../../../generated/validation';

/**
 * A username a member gave up, keyed by the name itself, so that following an old link is one read by `_id`.
 * Kept for good and for that member alone: nobody else can take it, so the profile and share links the member
 * posted elsewhere can never lead to a stranger who took the name over; the member may take it back.
 */
const formerUsernameSchema = new Schema(
  {
    _id: { type: String, required: true },
    userId: { type: Schema.Types.ObjectId, ref: 'User', required: true },
    /** When it was first given up. */
    at: { type: Date, required: true },
  },
  { versionKey: false },
);
formerUsernameSchema.index({ userId: 1 });
export const FormerUsernameModel = model('FormerUsername', formerUsernameSchema, 'former_usernames');

/** The member who used `username` (normalized) before, or null. */
async function formerHolderOf(username: string): Promise<Types.ObjectId | null> {
  const former = await FormerUsernameModel.findById(username, { userId: 1 }).lean();
  return former?.userId ?? null;
}

/**
 * Whether `username` (normalized) is another member's than `userId`: their name now, or a name they gave up. The
 * account is asked first and the former names second; renameAccount keeps a name before it lets it go, so a
 * name being given up at that moment is found in one or the other. The app's own first path segments
 * (`explore`, `pricing`, …) count as held: a profile at `/{username}` could never be reached under them.
 */
export async function usernameHeldByAnother(username: string, userId?: Types.ObjectId): Promise<boolean> {
  if (PATTERNS.appScreens.test(username)) return true;
  const holder = await memberByKey('username', username);
  if (holder && !(userId && holder._id.equals(userId))) return true;
  const former = await formerHolderOf(username);
  return Boolean(former && !(userId && former.equals(userId)));
}

/** The member a username names: the one who has it now, else the one who gave it up (whose name now differs). */
export async function resolveUsername(username: string): Promise<UserDoc | null> {
  const name = username.toLowerCase();
  const current = await memberByKey('username', name);
  if (current) return current;
  const holder = await formerHolderOf(name);
  return holder ? UserModel.findById(holder).lean<UserDoc>() : null;
}

export type RenameResult = { renamed: boolean; user: UserDoc } | { taken: true };

/**
 * Gives the member `username` (normalized, and checked against the sign-up's rules by the caller); `taken` when
 * it is another member's now or was before. Their current name is kept as a former name first and only then let
 * go, so at every moment it is held by the account or by its former names. The changes of one member run one at
 * a time: two at once could otherwise let the name taken by the first go without keeping it. Null when there is
 * no such member.
 */
export function renameAccount(userId: Types.ObjectId, username: string): Promise<RenameResult | null> {
  return withLock(
    `rename:${userId}`,
    async () => {
      const user = await UserModel.findById(userId).lean<UserDoc>();
      if (!user) return null;
      if (user.username === username) return { renamed: false, user };
      if (await usernameHeldByAnother(username, userId)) return { taken: true };
      // The new name's key is claimed by insert: of two members (or a sign-up) taking it at once, one has it.
      if (!(await claimMemberKey('username', username, userId))) return { taken: true };
      await keepFormerName(user.username, userId);
      let renamed: UserDoc | null;
      try {
        const searchWords = wordsOf(username, user.fullName);
        renamed =
          (await changeNameTerms(userId, user, { username, searchWords }, () =>
            UserModel.findByIdAndUpdate(userId, { $set: { username, searchWords } }, { new: true }).lean<UserDoc>(),
          )) ?? null;
      } catch (err) {
        await releaseMemberKey('username', username, userId);
        // A sign-up or another member's change took the name since the check: the unique index decides.
        if (isDuplicateKey(err)) return { taken: true };
        throw err;
      }
      if (!renamed) {
        await releaseMemberKey('username', username, userId);
        return null;
      }
      // The old name is found through the former names from now on (formerHolderOf).
      await Promise.all([confirmMemberKey('username', username, userId), releaseMemberKey('username', user.username, userId)]);
      return { renamed: true, user: renamed };
    },
    { busyMessage: 'Another change of this username is in progress. Please try again.' },
  );
}

async function keepFormerName(username: string, userId: Types.ObjectId): Promise<void> {
  try {
    await FormerUsernameModel.create({ _id: username, userId, at: new Date() });
  } catch (err) {
    // Given up before (and taken back since): it is kept already.
    if (!isDuplicateKey(err)) throw err;
  }
}

/** The address a change of email waits for, while the link mailed there can still be opened; else null. */
export function pendingEmailOf(user: Pick<UserDoc, 'pendingEmail' | 'pendingEmailExpiresAt'>, now = new Date()): string | null {
  return user.pendingEmail && user.pendingEmailExpiresAt && user.pendingEmailExpiresAt > now ? user.pendingEmail : null;
}

/** Records the address a change of email waits for until `expiresAt`, replacing any earlier one; answers the account. */
export function setPendingEmail(userId: Types.ObjectId, email: string, expiresAt: Date): Promise<UserDoc | null> {
  return UserModel.findByIdAndUpdate(userId, { $set: { pendingEmail: email, pendingEmailExpiresAt: expiresAt } }, { new: true }).lean<UserDoc>();
}

/** Ends the waiting change of email, if any. */
export async function dropPendingEmail(userId: Types.ObjectId): Promise<void> {
  await UserModel.updateOne({ _id: userId }, { $set: { pendingEmail: null, pendingEmailExpiresAt: null } });
}

/**
 * Makes `email` the account's email and ends the waiting change; 'taken' when another account has the address
 * (its unique index decides, so two accounts can never end with one address). Null when there is no such member.
 */
export function switchEmail(userId: Types.ObjectId, email: string): Promise<UserDoc | 'taken' | null> {
  return changeEmail(userId, email, { $set: { email, pendingEmail: null, pendingEmailExpiresAt: null } });
}

/**
 * Writes an update that gives the account `email`, its key claimed first (users.keys.ts) and the old address's
 * key released after: 'taken' when another account has the address or is taking it; null when there is no such
 * member.
 */
async function changeEmail(userId: Types.ObjectId, email: string, update: UpdateQuery<UserDoc>): Promise<UserDoc | 'taken' | null> {
  if (!(await claimMemberKey('email', email, userId))) return 'taken';
  let before: UserDoc | null;
  try {
    before = await UserModel.findByIdAndUpdate(userId, update).lean<UserDoc>();
  } catch (err) {
    await releaseMemberKey('email', email, userId);
    if (isDuplicateKey(err)) return 'taken';
    throw err;
  }
  if (!before) {
    await releaseMemberKey('email', email, userId);
    return null;
  }
  await confirmMemberKey('email', email, userId);
  const gone: Promise<void>[] = [];
  if (before.email !== email) gone.push(releaseMemberKey('email', before.email, userId));
  // Taking an account back unlinks its Google and Facebook sign-in: their keys go with them.
  if ('$unset' in update) gone.push(releaseMemberKey('google', before.googleId, userId), releaseMemberKey('facebook', before.facebookId, userId));
  await Promise.all(gone);
  return UserModel.findById(userId).lean<UserDoc>();
}

/**
 * Gives the account back to whoever holds `email`, an address it had before (an email change cancelled, or undone,
 * from the link mailed there): `email` is its email again and no change waits; its password and its Google and
 * Facebook sign-in links are cleared, since whoever asked for the change knew the password and may have linked
 * their own sign-in meanwhile; every access token issued before stops working. The holder of the address sets a
 * new password by the emailed link, or signs in with Google or Facebook again, which links the account anew by
 * its address. 'taken' when another account has the address (its unique index decides); null when there is no
 * such member.
 */
export function takeBackAccount(userId: Types.ObjectId, email: string): Promise<UserDoc | 'taken' | null> {
  return changeEmail(userId, email, {
    $set: { email, pendingEmail: null, pendingEmailExpiresAt: null, passwordHash: null },
    $unset: { googleId: 1, facebookId: 1 },
    $inc: { tokenVersion: 1 },
  });
}
