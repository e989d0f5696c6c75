/**
 * Changing how a member is known, from the settings: their username, under the sign-up's rules and messages, and
 * their email, asked with the current password, which changes only once the link mailed to the new address is
 * opened (the old address is told, with a link that cancels the change, or undoes it for 7 days once made, and then
 * secures the account). Here beside sign-up because the rules and the emailed one-time links are auth's; the
 * account writes are the users module's, and the pieces' copy of the owner's username is the contents module's.
 */
import { Types } from 'mongoose';
import type { Mailer } from '../../integrations/mail';
import type { AuthContext } from '../../lib/auth-context';
import { isSelfOrAdmin } from '../../lib/permissions';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import type { Schemas } from '../../lib/openapi-types';
import { withLock } from '../../lib/mutex';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { renameOwner } from '../contents';
import {
  dropPendingEmail,
  findUserByEmail,
  holdPayoutEmailSetSince,
  normalizeUsername,
  pendingEmailOf,
  renameAccount,
  setPendingEmail,
  switchEmail,
  takeBackAccount,
  usernameHeldByAnother,
  userReads,
  type UserDoc,
} from '../users';
import { FAULT_POINTS, faultPoint } from '../../lib/fault-points';
import { accountTakenBackMail, emailChangeMail, emailChangeNoticeMail, type HeldPayout } from './auth.mails';
import { checkCurrentPassword } from './auth.password-check';
import { MESSAGES, checkEmail, checkUsername, fail } from './auth.rules';
import {
  createOneTimeToken,
  emailHeldForCancel,
  extendCancelLinks,
  revokeAllSessions,
  revokeLinksButEarlierCancels,
  revokeWaitingLinks,
  spendOneTimeToken,
  usableOneTimeToken,
} from './auth.tokens';

/**
 * Username changes a member may make in a day. A name given up stays the member's for good, so without a limit
 * one member could hold a great many names out of everyone else's reach.
 */
export const USERNAME_CHANGE_LIMIT: Limit = { max: 5, windowMs: 86_400_000 };
/** Email changes asked for in an hour, per member: each one mails an address the member typed. */
export const EMAIL_CHANGE_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };
/** How long the links of an email change work until the change is made. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60_000;
/** How long the cancel link mailed to the old address works once the change is made: it undoes it then. */
export const EMAIL_CHANGE_UNDO_MS = 7 * 24 * 60 * 60_000;
/** How long the link to choose a new password works, mailed when an email change was cancelled or undone. */
const TAKE_BACK_RESET_TTL_MS = 24 * 60 * 60_000;

export const IDENTITY_MESSAGES = {
  noMember: 'This member does not exist.',
  tooManyUsernameChanges: 'Too many username changes today. Please try again tomorrow.',
  tooManyEmailChanges: 'Too many email changes requested. Please wait and try again.',
  emailBusy: 'Another change of your email is in progress. Please try again.',
} as const;

/** `{email}` in a message of x-validation (openapi.yaml), filled in. */
export const withEmail = (message: string, email: string) => message.replace('{email}', email);

/** What opening a link of an email change did, and the member's email now. */
export type EmailLinkAnswer = Schemas['EmailLinkAnswer'];

export interface IdentityDeps {
  publicUrl: string;
  mailer: Mailer;
  logger: Logger;
}

export function createIdentityService({ publicUrl, mailer, logger }: IdentityDeps) {
  /** The member the settings call is for: oneself, or anyone for an admin when `admins` may; else 404, so ids cannot be probed. */
  async function memberOf(caller: AuthContext, id: string, admins: boolean): Promise<UserDoc> {
    if (!(admins ? isSelfOrAdmin(caller, id) : caller.userId === id)) throw notFound(IDENTITY_MESSAGES.noMember);
    const user = await userReads.byId<UserDoc>(new Types.ObjectId(id));
    if (!user) throw notFound(IDENTITY_MESSAGES.noMember);
    return user;
  }

  /** Steps of one member's email change that read and then write their pending address: one at a time. */
  const oneEmailStepAtATime = <T>(userId: Types.ObjectId, step: () => Promise<T>) =>
    withLock(`email-change:${userId}`, step, { busyMessage: IDENTITY_MESSAGES.emailBusy });

  const badLink = (): never => fail(MESSAGES.badEmailChangeLink, 'token');

  return {
    /**
     * A new username for the member (or, by an admin, for anyone). The name they give up stays theirs and keeps
     * leading to them (users/users.identity.ts says why); their pieces' share links take the new name.
     */
    async changeUsername(caller: AuthContext, id: string, raw: string): Promise<UserDoc> {
      const member = await memberOf(caller, id, true);
      if (!raw.trim()) fail(MESSAGES.username, 'username');
      const username = normalizeUsername(raw);
      checkUsername(username);
      if (username === member.username) {
        // Nothing to change and nothing counted; the pieces' copy of the name is set again, in case an earlier
        // change stopped before it.
        await renameOwner(member._id, username);
        return member;
      }
      // A name seen taken now uses up no try. This look changes nothing, so it cannot let a change through: the
      // try is counted below, before the rename, which looks again.
      if (await usernameHeldByAnother(username, member._id)) fail(MESSAGES.usernameTaken, 'username');
      // Counted before the rename, never after it: a count made once the rename is done would let every change of
      // a burst sent at once pass before the first one was counted.
      await consumeLimit(`username-change:${id}`, USERNAME_CHANGE_LIMIT, IDENTITY_MESSAGES.tooManyUsernameChanges);
      const result = await renameAccount(member._id, username);
      if (!result) throw notFound(IDENTITY_MESSAGES.noMember);
      if ('taken' in result) fail(MESSAGES.usernameTaken, 'username');
      await renameOwner(member._id, username);
      return result.user;
    },

    /**
     * Asks to change the member's own email: the link that makes the change goes to the new address, and the
     * current address is told, with a link that cancels. Nothing changes until the first link is opened; if the
     * mails cannot be kept for sending (a mail server that is down only delays them: they wait in the outbox),
     * nothing is recorded at all (links whose change was never recorded do nothing). The
     * current password is asked first, as for the payout address: whoever holds the email can reset the password,
     * so a stolen session alone must not be able to move it.
     */
    async requestEmailChange(caller: AuthContext, id: string, raw: string, password: string | undefined): Promise<{ message: string; user: UserDoc }> {
      const member = await memberOf(caller, id, false);
      const email = checkEmail(raw);
      if (email === member.email) fail(MESSAGES.emailUnchanged, 'email');
      await checkCurrentPassword(id, password);
      await consumeLimit(`email-change:${id}`, EMAIL_CHANGE_LIMIT, IDENTITY_MESSAGES.tooManyEmailChanges);
      if (await emailTakenFor(email, member._id)) throw emailTaken();

      const expiresAt = new Date(Date.now() + EMAIL_CHANGE_TTL_MS);
      const confirmToken = await createOneTimeToken(member._id, 'email-change', EMAIL_CHANGE_TTL_MS, { email, previousEmail: member.email });
      const cancelToken = await createOneTimeToken(member._id, 'email-cancel', EMAIL_CHANGE_TTL_MS, { email, previousEmail: member.email });
      try {
        await mailer.send(emailChangeMail(email, member.firstName, member.username, `${publicUrl}/confirm?token=${confirmToken}&action=email`));
        await mailer.send(emailChangeNoticeMail(member.email, member.firstName, email, `${publicUrl}/confirm?token=${cancelToken}&action=cancel-email`));
      } catch (err) {
        logger.error({ err }, 'email change mails failed; nothing changed');
        throw new AppError(503, 'mail_failed', MESSAGES.mailFailed);
      }
      const user = await oneEmailStepAtATime(member._id, () => setPendingEmail(member._id, email, expiresAt));
      if (!user) throw notFound(IDENTITY_MESSAGES.noMember);
      return { message: withEmail(MESSAGES.emailChangeSent, email), user };
    },

    /**
     * The link mailed to the new address was opened: the email becomes that address, if this link is for the
     * change still waiting (not replaced by a newer request, nor cancelled) and nobody took the address meanwhile.
     * The old address's cancel link then works for 7 days from now, and the other links waiting to be used end
     * (auth.tokens.ts says which), so that none mailed to the old address acts on the account any more.
     *
     * The link itself ends last, with those links, not first: a process that stops after the email changed (or
     * before) leaves the link working, and opening it again finishes the same change (the email already its
     * address, no change waiting) instead of answering that the link is used while the old links still work. The
     * member's email lock makes the openings one at a time.
     */
    async confirmEmailChange(token: string): Promise<EmailLinkAnswer> {
      const link = await usableOneTimeToken(token, 'email-change');
      if (!link?.email) return badLink();
      const email = link.email;
      return oneEmailStepAtATime(link.userId, async () => {
        const member = await userReads.byId<UserDoc>(link.userId);
        if (!member) return badLink();
        // This link's change, made by an opening that stopped before its last steps: they are run again.
        const madeBefore = member.email === email && !pendingEmailOf(member);
        const previousEmail = madeBefore ? link.previousEmail : member.email;
        if (!madeBefore) {
          if (pendingEmailOf(member) !== email) return badLink();
          const switched = (await emailHeldForCancel(email, member._id)) ? 'taken' : await switchEmail(member._id, email);
          if (switched === 'taken') {
            await dropPendingEmail(member._id);
            throw emailTaken();
          }
          if (!switched) return badLink();
          faultPoint(FAULT_POINTS.emailAfterSwitch);
        }
        // Links made before the confirm link carried its former address name only the new one.
        await extendCancelLinks(member._id, previousEmail ? { email, previousEmail } : { email }, new Date(Date.now() + EMAIL_CHANGE_UNDO_MS));
        faultPoint(FAULT_POINTS.emailAfterCancelLinks);
        await revokeWaitingLinks(member._id);
        return { message: withEmail(MESSAGES.emailChanged, email), userId: String(member._id), email };
      });
    },

    /**
     * The cancel link of the notice to the old address was opened. Whoever asked for the change knew the password,
     * so this says "it was not me": a change still waiting ends; a change made (perhaps followed by more) is
     * undone, the address the notice went to becoming the email again. Either way the account is secured: its
     * password and social sign-in links are cleared, every session and access token ends, every emailed link but
     * the cancel links made before this one ends, a payout address set since the change was asked for is held, and
     * the address is mailed a link to choose a new password. Works once, for 7 days after the change.
     */
    async cancelEmailChange(token: string): Promise<EmailLinkAnswer> {
      const link = await spendOneTimeToken(token, 'email-cancel');
      if (!link?.email) return badLink();
      const newEmail = link.email;
      return oneEmailStepAtATime(link.userId, async () => {
        const member = await userReads.byId<UserDoc>(link.userId);
        if (!member) return badLink();
        // Links made before the address they were mailed to was recorded went to the email the account still has.
        const formerEmail = link.previousEmail ?? member.email;
        const undone = member.email !== formerEmail;
        if (!undone && pendingEmailOf(member) !== newEmail) return badLink(); // replaced by a newer request, or ended
        // Links made before their time was recorded are taken as made as early as they could have been.
        const askedAt = link.createdAt ?? new Date(link.expiresAt.getTime() - EMAIL_CHANGE_TTL_MS - EMAIL_CHANGE_UNDO_MS);

        const taken = await takeBackAccount(member._id, formerEmail);
        if (taken === 'taken') throw emailTaken();
        if (!taken) return badLink();
        await Promise.all([revokeAllSessions(member._id), revokeLinksButEarlierCancels(member._id, askedAt)]);
        const heldPayout = await holdPayoutEmailSetSince(member._id, askedAt);
        await mailNewPasswordLink(taken, { undone, heldPayout });

        const outcome = undone ? MESSAGES.emailChangeUndone : MESSAGES.emailChangeCancelled;
        const message = [withEmail(outcome, formerEmail), MESSAGES.accountSecured, ...(heldPayout ? [MESSAGES.payoutHeld] : [])].join(' ');
        return { message, userId: String(member._id), email: formerEmail };
      });
    },
  };

  /** Mails the address an account was given back to the link that sets its new password. */
  async function mailNewPasswordLink(member: UserDoc, what: { undone: boolean; heldPayout: HeldPayout | null }): Promise<void> {
    const resetToken = await createOneTimeToken(member._id, 'reset', TAKE_BACK_RESET_TTL_MS);
    const resetLink = `${publicUrl}/auth/reset-password?token=${resetToken}`;
    try {
      await mailer.send(accountTakenBackMail(member.email, member.firstName, { ...what, resetLink }));
    } catch (err) {
      // The account is secured already; its member can still ask for a reset link with "Forgot password".
      logger.error({ err }, 'mail with the new-password link failed after an email change was cancelled');
    }
  }
}

/** Whether another account has `email`, or may still take it back with a cancel link: 409 for `userId` then. */
async function emailTakenFor(email: string, userId: Types.ObjectId): Promise<boolean> {
  return Boolean(await findUserByEmail(email)) || emailHeldForCancel(email, userId);
}

const emailTaken = () => new AppError(409, 'conflict', MESSAGES.emailTaken, [{ path: 'email', message: MESSAGES.emailTaken }]);

export type IdentityService = ReturnType<typeof createIdentityService>;
