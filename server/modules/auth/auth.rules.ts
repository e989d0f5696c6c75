/**
 * The form rules of spec §5, enforced again on the server with the same messages. Each check answers
 * the first broken rule as a 400 whose `errors` name the field(s).
 */
import { AppError } from '../../lib/errors';
import { normalizeUsername } from '../users/users.service';

export const MESSAGES = {
  loginEmail: 'Please input email',
  loginPassword: 'Please input password',
  badCredentials: 'Incorrect email or password.',
  emailRequired: 'You should input an email',
  emailInvalid: 'You should input an correct email',
  firstName: 'You should input your first name.',
  lastName: 'You should input your last name.',
  username: 'You should input your username.',
  password: 'You should input your password.',
  passwordConfirm: 'You should input your confirm password.',
  usernameLength: 'Sorry, your username must be between 6 and 30 characters long.',
  usernameChars: 'Usernames may use letters, numbers, underscores and dots only.',
  usernameTaken: 'That username is taken. Try another.',
  passwordRule: 'Password should include at least one uppercase, numeric, special charater and also should have 8 or more length',
  passwordTooLong: 'Password must be at most 72 bytes.',
  passwordMismatch: "Those passwords didn't match. Try again.",
  resetPassword: 'Please input password',
  resetMismatch: 'Password and confirmed password should be match.',
  emailTaken: 'An account with this email already exists. Please log in.',
  checkEmail: 'Check Your Email',
  emailSent: 'Email Sent',
  success: 'Success',
  activated: 'Successfully created an account.',
  badActivationLink: 'This activation link is invalid or has expired.',
  badResetLink: 'This reset link is invalid or has expired.',
  passwordReset: 'Your password has been reset. Log in with your new password.',
  loggedOut: 'You are logged out.',
  loggedOutEverywhere: 'You are logged out on every device.',
  sessionExpired: 'Your session has expired. Please log in again.',
  mailFailed: 'We could not send the email. Please try again in a moment.',
} as const;

export const USERNAME_MIN = 6;
export const USERNAME_MAX = 30;
/** bcrypt reads at most 72 bytes; a longer password would be silently cut, so it is refused. */
export const PASSWORD_MAX_BYTES = 72;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).{8,}$/;
const USERNAME_CHARS = /^[a-z0-9_.]+$/;

export function fail(message: string, ...fields: string[]): never {
  throw new AppError(400, 'bad_request', message, fields.map((path) => ({ path, message })));
}

const blank = (value: string | undefined): boolean => !value || !value.trim();

export function checkEmail(email: string | undefined, field = 'email', required: string = MESSAGES.emailRequired): string {
  if (blank(email)) fail(required, field);
  const normalized = email!.trim().toLowerCase();
  if (!EMAIL.test(normalized)) fail(MESSAGES.emailInvalid, field);
  return normalized;
}

export function checkUsername(username: string): void {
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) fail(MESSAGES.usernameLength, 'username');
  if (!USERNAME_CHARS.test(username)) fail(MESSAGES.usernameChars, 'username');
}

/** The strength rule, the byte limit, then the confirmation. */
export function checkNewPassword(
  password: string,
  confirm: string,
  fields: { password: string; confirm: string },
  mismatchMessage: string,
): void {
  if (Buffer.byteLength(password, 'utf8') > PASSWORD_MAX_BYTES) fail(MESSAGES.passwordTooLong, fields.password);
  if (!PASSWORD.test(password)) fail(MESSAGES.passwordRule, fields.password);
  if (password !== confirm) fail(mismatchMessage, fields.password, fields.confirm);
}

export interface SignupInput {
  firstName?: string;
  lastName?: string;
  fullName?: string;
  username?: string;
  email?: string;
  password?: string;
  passwordConfirm?: string;
}

export interface ValidSignup {
  firstName: string;
  lastName: string;
  fullName: string;
  username: string;
  email: string;
  password: string;
}

/** Spec §5 sign-up, in the order the form shows its fields. */
export function validateSignup(input: SignupInput): ValidSignup {
  const email = checkEmail(input.email);
  if (blank(input.firstName)) fail(MESSAGES.firstName, 'firstName');
  if (blank(input.lastName)) fail(MESSAGES.lastName, 'lastName');
  if (blank(input.username)) fail(MESSAGES.username, 'username');
  if (!input.password) fail(MESSAGES.password, 'password');
  if (!input.passwordConfirm) fail(MESSAGES.passwordConfirm, 'passwordConfirm');
  const username = normalizeUsername(input.username!);
  checkUsername(username);
  checkNewPassword(input.password!, input.passwordConfirm!, { password: 'password', confirm: 'passwordConfirm' }, MESSAGES.passwordMismatch);
  const firstName = input.firstName!.trim();
  const lastName = input.lastName!.trim();
  return { email, username, firstName, lastName, fullName: input.fullName?.trim() || `${firstName} ${lastName}`, password: input.password! };
}
