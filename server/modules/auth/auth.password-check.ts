/**
 * Asking a signed-in member for their password again before a sensitive change (such as where payouts are
 * sent), so that a stolen session alone cannot make it. Wrong answers are counted per member: past the limit
 * the check answers 429, so it cannot be used to guess the password.
 */
import bcrypt from 'bcrypt';
import { Types } from 'mongoose';
import { AppError } from '../../lib/errors';
import { clearLimit, consumeLimit, type Limit } from '../../lib/rate-limit';
import { userReads } from '../users';
import { MESSAGES, fail } from './auth.rules';

/**
 * Five tries in 15 minutes per member, whatever the address: the caller already holds the member's session,
 * so the member is what an attacker would be guessing for.
 */
export const PASSWORD_CHECK_LIMIT: Limit = { max: 5, windowMs: 15 * 60_000 };

export const PASSWORD_CHECK_MESSAGES = {
  missing: MESSAGES.loginPassword,
  wrong: 'Incorrect password.',
  notSet: 'Your account has no password yet (you sign in with Google or Facebook). Set one with “Forgot password”: we email you a link. Then try again.',
  tooMany: 'Too many wrong passwords. Please wait and try again.',
} as const;

/**
 * Answers the member's address and first name when `password` is their current password; else throws 400 on
 * the `password` field, or 429 once too many attempts were made. Accounts made by Google or Facebook sign-in
 * have no password to give: they are told to set one through the password reset, which creates it.
 */
export async function checkCurrentPassword(userId: string, password: string | undefined): Promise<{ email: string; firstName: string }> {
  if (!password) fail(PASSWORD_CHECK_MESSAGES.missing, 'password');
  const user = await userReads.byId(new Types.ObjectId(userId), { passwordHash: 1, email: 1, firstName: 1 });
  if (!user?.passwordHash) {
    throw new AppError(400, 'password_not_set', PASSWORD_CHECK_MESSAGES.notSet, [{ path: 'password', message: PASSWORD_CHECK_MESSAGES.notSet }]);
  }
  // Every attempt is counted before the comparison, so a burst of parallel guesses is cut off at the limit
  // too; the right password then clears the count, which leaves only wrong ones adding up.
  const key = `password-check:${userId}`;
  await consumeLimit(key, PASSWORD_CHECK_LIMIT, PASSWORD_CHECK_MESSAGES.tooMany);
  if (!(await bcrypt.compare(password, user.passwordHash))) fail(PASSWORD_CHECK_MESSAGES.wrong, 'password');
  await clearLimit(key);
  return { email: user.email, firstName: user.firstName ?? '' };
}
