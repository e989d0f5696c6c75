/**
 * Accounts and sessions: sign-up with email activation, sign-in, social sign-in, session refresh, logout,
 * password reset. Form rules and messages come from auth.rules; permissions and roles are decided here, never
 * by a request field.
 */
import { isDuplicateKey } from '../../lib/duplicate-key';
import bcrypt from 'bcrypt';
import { Types } from 'mongoose';
import type { AuthConfig } from '../../config';
import type { Mailer } from '../../integrations/mail';
import { signAccessToken } from '../../lib/access-token';
import { AppError } from '../../lib/errors';
import { requireAdmin } from '../../lib/permissions';
import type { Logger } from '../../lib/logger';
import { clearLimit, consumeLimit, giveBackHit, type CountedHit, type Limit } from '../../lib/rate-limit';
import {
  findUserByEmail,
  normalizeUsername,
  roleOf,
  usernameTaken,
  type Role,
  type UserDoc,
  activateAccount,
  createAccount,
  dropPendingEmail,
  deleteAccount,
  linkSocialId,
  memberBySocialId,
  markActivationSent,
  registerWaitingAccount,
  waitingAccountFor,
  revokeAccessTokens,
  setPasswordHash,
  userReads,
} from '../users';
import type { AuthContext } from '../../lib/auth-context';
import { checkCurrentPassword } from './auth.password-check';
import { activationMail, registrationMail, resetPasswordMail } from './auth.mails';
import {
  MESSAGES,
  checkEmail,
  checkNewPassword,
  checkUsername,
  fail,
  validateNewMember,
  validateSignup,
  type NewMemberInput,
  type SignupInput,
  type ValidSignup,
} from './auth.rules';
import type { SocialProfile } from './auth.social';
import {
  consumeOneTimeToken,
  consumeSession,
  createOneTimeToken,
  createSession,
  emailHeldForCancel,
  giveBackOneTimeToken,
  revokeAllSessions,
  revokeOneTimeTokens,
  revokeSession,
  revokeWaitingLinks,
  spendOneTimeToken,
  usableOneTimeToken,
} from './auth.tokens';

/**
 * Sign-in attempts in 15 minutes. Every attempt is counted before its password is compared, so that a burst of
 * guesses sent at once is cut off at the limit like guesses sent one by one; a sign-in that succeeds forgives
 * only this address's own count for the account. A lock-out is per account and address together, so that a
 * stranger guessing from one address shuts out only themselves: the owner, from their own address, still gets
 * in. Each address may try 20 times across all accounts (a guesser trying many accounts). Each account may be
 * tried 50 times from all addresses together: a guesser needs ten addresses to lock it out, and still gets at
 * most about 4,800 guesses a day, where a person who forgot their password gives up or resets long before.
 */
export const LOGIN_LIMITS = {
  accountFromAddress: { max: 5, windowMs: 15 * 60_000 } satisfies Limit,
  account: { max: 50, windowMs: 15 * 60_000 } satisfies Limit,
  address: { max: 20, windowMs: 15 * 60_000 } satisfies Limit,
};
/**
 * Sign-up attempts in an hour that get past the form's rules. Per address, 30: a household, an office or a
 * class signing up together stays well under it, while a script making accounts by the hundred is stopped.
 * Per email, 5: an address is signed up for once (a second time is 409), so more is someone probing it.
 */
export const SIGNUP_LIMITS = {
  address: { max: 30, windowMs: 60 * 60_000 } satisfies Limit,
  email: { max: 5, windowMs: 60 * 60_000 } satisfies Limit,
};
/** Mails sent on request (activation again, password reset), per address. */
export const MAIL_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };
/** Registrations of waiting accounts, per address: as many as sign-ups. */
export const REGISTER_LIMIT: Limit = { max: 30, windowMs: 60 * 60_000 };
/** The messages of waiting accounts and their registration (the form's own rules answer the sign-up's messages). */
export const REGISTRATION_MESSAGES = {
  badLink: 'This registration link is invalid or has expired.',
  memberEmail: 'This email belongs to a Knack account. Log in to upload.',
  finishRegistration: 'Finish your registration with the link we emailed to this address.',
} as const;
/** How long a registration link works; a waiting account is removed once the last one mailed to it has ended. */
export const REGISTRATION_TTL_MS = 30 * 86_400_000;
const ACTIVATION_TTL_MS = 7 * 86_400_000;
const RESET_TTL_MS = 60 * 60_000;
const ACTIVATION_RESEND_GAP_MS = 60_000;

export interface AuthDeps {
  config: AuthConfig;
  publicUrl: string;
  mailer: Mailer;
  logger: Logger;
  /** A waiting account was registered: what it sent waiting (its Top 50 songs) is published now. */
  onRegistered?: (user: UserDoc) => Promise<void>;
}

/** What signup-orland takes: the mailed link's account and token, and the sign-up's username and password. */
export interface RegistrationInput {
  userId: string;
  token: string;
  username?: string;
  password?: string;
  passwordConfirm?: string;
}

/** A signed-in session: the access token for the response, the refresh token for the cookie. */
export interface SignedIn {
  user: UserDoc;
  role: Role;
  token: string;
  refreshToken: string;
}

export type SigninResult = SignedIn | { pendingActivation: true };

export function createAuthService({ config, publicUrl, mailer, logger, onRegistered }: AuthDeps) {
  // A real hash of a random password at the configured cost: comparing against it takes as long as a real check,
  // so an unknown email cannot be told from a wrong password by timing. Made on the first sign-in that needs it,
  // not at start (a hash at cost 12 holds a core for about 0.2 s).
  let dummyHash: Promise<string> | undefined;
  const dummyHashOf = () => (dummyHash ??= bcrypt.hash(`no-such-user-${Math.random()}`, config.bcryptCost));

  async function signIn(user: UserDoc, familyId?: string): Promise<SignedIn> {
    const token = signAccessToken(config, { userId: String(user._id), tokenVersion: user.tokenVersion });
    const refreshToken = await createSession(config, user._id, user.tokenVersion, familyId);
    return { user, role: roleOf(config.adminEmails, user.email), token, refreshToken };
  }

  async function sendActivation(user: Pick<UserDoc, '_id' | 'email' | 'firstName'>): Promise<void> {
    const token = await createOneTimeToken(user._id, 'activate', ACTIVATION_TTL_MS);
    await mailer.send(activationMail(user.email, user.firstName, `${publicUrl}/confirm?token=${token}`));
    await markActivationSent(user._id);
  }

  /**
   * Links a provider id to the account that has the provider's verified email. An account never activated
   * has had its address proved by nobody until now: whoever signed up with it may be a stranger holding the
   * address in wait for its owner. So that nothing of theirs survives, its password is cleared (the owner
   * sets one with a reset), and its sessions, older access tokens and emailed links all stop working.
   */
  async function linkProvider(user: UserDoc, idField: 'googleId' | 'facebookId', providerId: string): Promise<UserDoc | null> {
    if (user.isActive) return linkSocialId(user._id, idField, providerId, false);
    const linked = await linkSocialId(user._id, idField, providerId, true);
    await Promise.all([revokeAllSessions(user._id), revokeOneTimeTokens(user._id)]);
    return linked;
  }

  /**
   * Ends the emailed links waiting to be used that act on the account as it is, and with them a change of email
   * still waiting (auth.tokens.ts says which links each event ends): after a password change or reset, or logging
   * out everywhere.
   */
  async function endWaitingLinks(userId: Types.ObjectId | string): Promise<void> {
    await revokeWaitingLinks(userId);
    await dropPendingEmail(new Types.ObjectId(String(userId)));
  }

  /** Mails a waiting account the link that registers it, on the chart page of its last Top 50 upload. */
  async function sendRegistrationLink(user: Pick<UserDoc, '_id' | 'email' | 'registrationChart'>): Promise<void> {
    const token = await createOneTimeToken(user._id, 'register', REGISTRATION_TTL_MS);
    const chart = user.registrationChart ?? '';
    const link = `${publicUrl}/${encodeURIComponent(chart)}-music-top-50/${String(user._id)}?token=${token}`;
    await mailer.send(registrationMail(user.email, chart, link));
    // Its last link's mailing: a waiting account whose last link has expired is removed (account module).
    await markActivationSent(user._id);
  }

  async function hashPassword(password: string): Promise<string> {
    return bcrypt.hash(password, config.bcryptCost);
  }

  /**
   * Makes the account, inactive, and mails its activation link. A mail server that is down only delays the mail (it
   * waits in the outbox); if the mail cannot even be kept, no account stays.
   */
  async function createWaitingAccount(valid: ValidSignup): Promise<UserDoc> {
    if ((await findUserByEmail(valid.email)) || (await emailHeldForCancel(valid.email))) {
      throw new AppError(409, 'conflict', MESSAGES.emailTaken, [{ path: 'email', message: MESSAGES.emailTaken }]);
    }
    let created;
    try {
      created = await createAccount({
        email: valid.email,
        username: valid.username,
        firstName: valid.firstName,
        lastName: valid.lastName,
        fullName: valid.fullName,
        passwordHash: await hashPassword(valid.password),
        isActive: false,
      });
    } catch (err) {
      // Two sign-ups racing for the same name or address: the unique index decides.
      const key = (err as { code?: number; keyPattern?: Record<string, unknown> }).keyPattern;
      if (isDuplicateKey(err) && key?.username) fail(MESSAGES.usernameTaken, 'username');
      if (isDuplicateKey(err)) throw new AppError(409, 'conflict', MESSAGES.emailTaken);
      throw err;
    }
    try {
      await sendActivation(created);
    } catch (err) {
      // No half-made account: without the mail it could never be activated.
      logger.error({ err }, 'activation mail failed; sign-up undone');
      await deleteAccount(created._id);
      throw new AppError(503, 'mail_failed', MESSAGES.mailFailed);
    }
    return created;
  }

  return {
    async signup(input: SignupInput, address: string): Promise<UserDoc> {
      const valid = validateSignup(input);
      const tooMany = 'Too many sign-ups. Please wait and try again.';
      await consumeLimit(`signup:ip:${address}`, SIGNUP_LIMITS.address, tooMany);
      if (await usernameTaken(valid.username)) fail(MESSAGES.usernameTaken, 'username');
      // Counted once the username is free, so only tries that could take the address fill its count.
      await consumeLimit(`signup:email:${valid.email}`, SIGNUP_LIMITS.email, tooMany);
      // An address waiting since a Top 50 upload is registered from its mailed link: it is sent again, and the
      // answer is the sign-up's own (check your email), so the form tells no more than it does for a new address.
      const waiting = await findUserByEmail(valid.email);
      if (waiting?.awaitsRegistration) {
        await sendRegistrationLink(waiting);
        return waiting;
      }
      return createWaitingAccount(valid);
    },

    /**
     * The account for the email of a visitor's Top 50 upload to `chart` (the artist's username): the waiting
     * account the address has, or a new one (one per address, however many uploads arrive at once), with its
     * registration link mailed. The address of a member's account is refused: that member logs in to upload.
     */
    async waitingAccountForUpload(email: string, chart: string): Promise<UserDoc> {
      const refused = () => new AppError(409, 'conflict', REGISTRATION_MESSAGES.memberEmail, [{ path: 'email', message: REGISTRATION_MESSAGES.memberEmail }]);
      if (await emailHeldForCancel(email)) throw refused();
      const { user } = await waitingAccountFor(email, chart);
      if (!user.awaitsRegistration) throw refused();
      try {
        await sendRegistrationLink(user);
      } catch (err) {
        logger.error({ err }, 'registration mail failed; the upload is refused');
        throw new AppError(503, 'mail_failed', MESSAGES.mailFailed);
      }
      return user;
    },

    /**
     * Registers a waiting account from its mailed link (signup-orland): the sign-up's rules and messages for the
     * username and password, then the link is spent (once, however many tries arrive together), the account
     * becomes a real one, signed in, and its waiting songs are published.
     */
    async register(input: RegistrationInput, address: string): Promise<SignedIn> {
      await consumeLimit(`register:ip:${address}`, REGISTER_LIMIT, 'Too many sign-ups. Please wait and try again.');
      const link = await usableOneTimeToken(input.token, 'register');
      if (!link || String(link.userId) !== input.userId) fail(REGISTRATION_MESSAGES.badLink, 'token');
      if (!input.username?.trim()) fail(MESSAGES.username, 'username');
      if (!input.password) fail(MESSAGES.password, 'password');
      if (!input.passwordConfirm) fail(MESSAGES.passwordConfirm, 'passwordConfirm');
      const username = normalizeUsername(input.username);
      checkUsername(username);
      checkNewPassword(input.password, input.passwordConfirm, { password: 'password', confirm: 'passwordConfirm' }, MESSAGES.passwordMismatch);
      if (await usernameTaken(username)) fail(MESSAGES.usernameTaken, 'username');
      const passwordHash = await hashPassword(input.password);
      if (!(await spendOneTimeToken(input.token, 'register'))) fail(REGISTRATION_MESSAGES.badLink, 'token');
      let user: UserDoc | null;
      try {
        user = await registerWaitingAccount(link.userId, username, passwordHash);
      } catch (err) {
        // The name was taken between the check and the write: the link is given back for another name.
        if (!isDuplicateKey(err)) throw err;
        await giveBackOneTimeToken(input.token);
        fail(MESSAGES.usernameTaken, 'username');
      }
      if (!user) fail(REGISTRATION_MESSAGES.badLink, 'token');
      await revokeOneTimeTokens(user._id);
      await onRegistered?.(user);
      return signIn(user);
    },

    /**
     * An account an admin makes for someone (the account-create form): the same rules and messages as a sign-up, the
     * same inactive account and activation mail. No sign-up limit: only admins reach it.
     */
    async createForMember(caller: AuthContext | undefined, input: NewMemberInput): Promise<UserDoc> {
      requireAdmin(caller, 'Only admins can create accounts.');
      const valid = validateNewMember(input);
      if (await usernameTaken(valid.username)) fail(MESSAGES.usernameTaken, 'username');
      return createWaitingAccount(valid);
    },

    async signin(emailInput: string | undefined, password: string | undefined, address: string): Promise<SigninResult> {
      if (!emailInput?.trim()) fail(MESSAGES.loginEmail, 'email');
      if (!password) fail(MESSAGES.loginPassword, 'password');
      const email = emailInput.trim().toLowerCase();
      const fromHereKey = `login:account:${email}:from:${address}`;
      const counters: [string, Limit][] = [
        [fromHereKey, LOGIN_LIMITS.accountFromAddress],
        [`login:account:${email}`, LOGIN_LIMITS.account],
        [`login:ip:${address}`, LOGIN_LIMITS.address],
      ];
      const wait = 'Too many failed sign-in attempts. Please wait and try again.';
      // Counted before the comparison: a count made after it would let every guess of a burst be compared before
      // the first one was counted. A wrong password keeps its count.
      const counted = await Promise.allSettled(counters.map(([key, limit]) => consumeLimit(key, limit, wait)));
      const refused = counted.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
      if (refused) throw refused.reason;

      const user = await findUserByEmail(email);
      const ok = await bcrypt.compare(password, user?.passwordHash ?? (await dummyHashOf()));
      if (!user || !user.passwordHash || !ok) throw new AppError(401, 'unauthorized', MESSAGES.badCredentials);
      // A sign-in that succeeds is not what the limits are against: it gives back its own hit on the account and on
      // the address (an office or a class signing in together is never cut off), and this address's own slips on
      // the account are forgiven. The account's count keeps what strangers tried.
      const [, onAccount, onAddress] = counted as PromiseFulfilledResult<CountedHit>[];
      await Promise.all([clearLimit(fromHereKey), giveBackHit(onAccount!.value), giveBackHit(onAddress!.value)]);
      if (user.deactivatedAt) throw new AppError(403, 'deactivated', MESSAGES.accountDeactivated);
      if (!user.isActive) {
        const lastSent = user.activationSentAt?.getTime() ?? 0;
        if (Date.now() - lastSent > ACTIVATION_RESEND_GAP_MS) await sendActivation(user);
        return { pendingActivation: true };
      }
      return signIn(user);
    },

    async confirm(token: string): Promise<SignedIn> {
      const userId = await consumeOneTimeToken(token, 'activate');
      if (!userId) fail(MESSAGES.badActivationLink, 'token');
      const user = await activateAccount(userId);
      if (!user) fail(MESSAGES.badActivationLink, 'token');
      return signIn(user);
    },

    /** Sends the activation mail again to an inactive account; says nothing about who has an account. */
    async resendActivation(emailInput: string, address: string): Promise<void> {
      const email = checkEmail(emailInput);
      await consumeLimit(`mail:ip:${address}`, MAIL_LIMIT, 'Too many emails requested. Please wait and try again.');
      const user = await findUserByEmail(email);
      if (user?.awaitsRegistration) await sendRegistrationLink(user);
      else if (user && !user.isActive) await sendActivation(user);
    },

    async requestReset(emailInput: string | undefined, address: string): Promise<void> {
      const email = checkEmail(emailInput, 'email', MESSAGES.loginEmail);
      await consumeLimit(`mail:ip:${address}`, MAIL_LIMIT, 'Too many emails requested. Please wait and try again.');
      const user = await findUserByEmail(email);
      if (!user) return;
      // A waiting account has no password to reset: it gets its registration link again.
      if (user.awaitsRegistration) return sendRegistrationLink(user);
      const token = await createOneTimeToken(user._id, 'reset', RESET_TTL_MS);
      await mailer.send(resetPasswordMail(user.email, user.firstName, `${publicUrl}/auth/reset-password?token=${token}`));
    },

    async resetPassword(token: string, newPassword: string | undefined, confirm: string | undefined): Promise<void> {
      if (!newPassword) fail(MESSAGES.resetPassword, 'newPassword');
      checkNewPassword(newPassword, confirm ?? '', { password: 'newPassword', confirm: 'passwordConfirm' }, MESSAGES.resetMismatch);
      const userId = await consumeOneTimeToken(token, 'reset');
      if (!userId) fail(MESSAGES.badResetLink, 'token');
      // A reset also proves the address: an account waiting for activation becomes active.
      await setPasswordHash(userId, await hashPassword(newPassword));
      await Promise.all([revokeAllSessions(userId), endWaitingLinks(userId)]);
    },

    /**
     * A member's own password change (settings): the current password first, then the sign-up rule for the new
     * one. Every session and access token of the account ends; the caller gets a new session.
     */
    async changePassword(caller: AuthContext, id: string, password: string, newPassword: string): Promise<SignedIn> {
      if (caller.userId !== id) throw new AppError(404, 'not_found', 'This member does not exist.');
      await checkCurrentPassword(id, password);
      checkNewPassword(newPassword, newPassword, { password: 'newPassword', confirm: 'newPassword' }, MESSAGES.passwordMismatch);
      const userId = new Types.ObjectId(id);
      await setPasswordHash(userId, await hashPassword(newPassword));
      await Promise.all([revokeAllSessions(userId), endWaitingLinks(userId)]);
      const user = await userReads.byId<UserDoc>(userId);
      if (!user) throw new AppError(404, 'not_found', 'This member does not exist.');
      return signIn(user);
    },

    /** Rotates the refresh token: the old one is spent, a new one of the same family is issued. */
    async refresh(refreshToken: string | undefined): Promise<SignedIn> {
      const expired = new AppError(401, 'unauthorized', MESSAGES.sessionExpired);
      if (!refreshToken) throw expired;
      const session = await consumeSession(refreshToken);
      const user = await userReads.byId<UserDoc>(session.userId);
      if (!user || !user.isActive || user.deactivatedAt || user.tokenVersion !== session.tokenVersion) throw expired;
      return signIn(user, session.familyId);
    },

    async logout(refreshToken: string | undefined): Promise<void> {
      if (refreshToken) await revokeSession(refreshToken);
    },

    async logoutEverywhere(userId: Types.ObjectId | string): Promise<void> {
      await revokeAccessTokens(userId);
      await Promise.all([revokeAllSessions(userId), endWaitingLinks(userId)]);
    },

    /**
     * Signs in the account linked to the provider id; else links the account with the provider's
     * verified email; else creates one (active: the provider vouched for the address).
     */
    async socialSignin(profile: SocialProfile): Promise<SignedIn> {
      const idField = profile.provider === 'google' ? 'googleId' : 'facebookId';
      let user = await memberBySocialId(idField, profile.providerId);
      if (!user && profile.email) {
        const existing = await findUserByEmail(profile.email);
        // A waiting account is registered from its mailed link (or "Forgot password", which mails it again).
        if (existing?.awaitsRegistration) throw new AppError(409, 'conflict', REGISTRATION_MESSAGES.finishRegistration);
        if (existing) user = await linkProvider(existing, idField, profile.providerId);
      }
      // An address that another member may still take back with a cancel link gets no new account.
      if (!user && profile.email && (await emailHeldForCancel(profile.email))) {
        throw new AppError(409, 'conflict', MESSAGES.emailTaken, [{ path: 'email', message: MESSAGES.emailTaken }]);
      }
      if (!user) {
        if (!profile.email) {
          throw new AppError(
            400,
            'bad_request',
            `Your ${profile.provider === 'google' ? 'Google' : 'Facebook'} account did not share a verified email address.`,
          );
        }
        user = await createAccount({
          email: profile.email,
          username: await freeUsername(profile.email.split('@')[0] ?? profile.firstName),
          firstName: profile.firstName,
          lastName: profile.lastName,
          fullName: profile.fullName,
          image: profile.picture ?? null,
          isActive: true,
          [idField]: profile.providerId,
        });
      }
      if (user.deactivatedAt) throw new AppError(403, 'deactivated', MESSAGES.accountDeactivated);
      return signIn(user);
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

/** A username made from an email's local part: valid characters, 6 to 30 long, not taken. */
async function freeUsername(seed: string): Promise<string> {
  const base =
    normalizeUsername(seed)
      .replace(/[^a-z0-9_.]/g, '')
      .slice(0, 24)
      .padEnd(6, '_') || 'member';
  if (!(await usernameTaken(base))) return base;
  for (let i = 0; i < 20; i++) {
    const candidate = `${base}_${Math.floor(Math.random() * 100_000)}`.slice(0, 30);
    if (!(await usernameTaken(candidate))) return candidate;
  }
  throw new AppError(409, 'conflict', 'Could not find a free username. Please sign up with email.');
}
