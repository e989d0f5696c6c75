/**
 * The form rules (x-validation in openapi.yaml, generated), enforced again on the server with the same
 * messages the client shows. Each check answers the first broken rule as a 400 whose `errors` name the
 * field(s).
 */
import { LIMITS, MESSAGES, PATTERNS } from '../../../generated/validation';
import { AppError } from '../../lib/errors';
import { normalizeUsername } from '../users';

export { MESSAGES };

// bcrypt reads at most 72 bytes (LIMITS.passwordMaxBytes): a longer password would be cut, so it is refused.
const { usernameMin: USERNAME_MIN, usernameMax: USERNAME_MAX, passwordMaxBytes: PASSWORD_MAX_BYTES } = LIMITS;
const { email: EMAIL, password: PASSWORD, usernameChars: USERNAME_CHARS } = PATTERNS;

export function fail(message: string, ...fields: string[]): never {
  throw new AppError(
    400,
    'bad_request',
    message,
    fields.map((path) => ({ path, message })),
  );
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
export function checkNewPassword(password: string, confirm: string, fields: { password: string; confirm: string }, mismatchMessage: string): void {
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

/** Sign-up, checked in the order the form shows its fields. */
export function validateSignup(input: SignupInput): ValidSignup {
  const email = checkEmail(input.email);
  if (blank(input.firstName)) fail(MESSAGES.firstName, 'firstName');
  if (blank(input.lastName)) fail(MESSAGES.lastName, 'lastName');
  if (blank(input.username)) fail(MESSAGES.username, 'username');
  if (!input.password) fail(MESSAGES.password, 'password');
  if (!input.passwordConfirm) fail(MESSAGES.passwordConfirm, 'passwordConfirm');
  const username = normalizeUsername(input.username!);
  checkUsername(username);
  checkNewPassword(input.password, input.passwordConfirm, { password: 'password', confirm: 'passwordConfirm' }, MESSAGES.passwordMismatch);
  const firstName = input.firstName!.trim();
  const lastName = input.lastName!.trim();
  return { email, username, firstName, lastName, fullName: input.fullName?.trim() || `${firstName} ${lastName}`, password: input.password };
}

export interface NewMemberInput {
  firstName: string;
  lastName: string;
  username: string;
  email: string;
  password: string;
}

/**
 * The admin's account-create form, checked in the order it shows its fields: each must be filled ('You should input
 * your {field}.'), then the sign-up rules for the email, username and password. It has no confirmation field.
 */
export function validateNewMember(input: NewMemberInput): ValidSignup {
  if (blank(input.firstName)) fail(MESSAGES.firstName, 'firstName');
  if (blank(input.lastName)) fail(MESSAGES.lastName, 'lastName');
  if (blank(input.username)) fail(MESSAGES.username, 'username');
  if (blank(input.email)) fail(MESSAGES.emailField, 'email');
  if (blank(input.password)) fail(MESSAGES.password, 'password');
  return validateSignup({ ...input, passwordConfirm: input.password });
}
