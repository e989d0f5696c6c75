import { LIMITS, MESSAGES, PATTERNS } from '../../../../generated/validation';

/**
 * The auth form rules with their exact messages (x-validation in openapi.yaml, generated); the server checks
 * each again and answers the same message. Usernames and emails are normalized as the server does (trimmed,
 * lower-cased; spaces in a username become underscores).
 */
export const AUTH_MESSAGES = {
  ...MESSAGES,
  googleError: 'Google Auth Error:',
  facebookError: 'Facebook Auth Error:',
} as const;

export const { usernameMin: USERNAME_MIN, usernameMax: USERNAME_MAX, passwordMaxBytes: PASSWORD_MAX_BYTES } = LIMITS;
const { email: EMAIL, password: PASSWORD, usernameChars: USERNAME_CHARS } = PATTERNS;

export function normalizeEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

export function normalizeUsername(raw: string): string {
  return raw.trim().toLowerCase().replace(/\s+/g, '_');
}

export function isEmail(raw: string): boolean {
  return EMAIL.test(normalizeEmail(raw));
}

/** The signup email (step 1): the first broken rule's message, or null. */
export function emailProblem(raw: string | undefined): string | null {
  if (!raw || !raw.trim()) return AUTH_MESSAGES.emailRequired;
  if (!isEmail(raw)) return AUTH_MESSAGES.emailInvalid;
  return null;
}

/** The username's shape (not whether it is taken): the first broken rule's message, or null. */
export function usernameProblem(raw: string | undefined): string | null {
  if (!raw || !raw.trim()) return AUTH_MESSAGES.username;
  const username = normalizeUsername(raw);
  if (username.length < USERNAME_MIN || username.length > USERNAME_MAX) return AUTH_MESSAGES.usernameLength;
  if (!USERNAME_CHARS.test(username)) return AUTH_MESSAGES.usernameChars;
  return null;
}

/** The strength rule and the byte limit: the message, or null. Emptiness is each form's own rule. */
export function passwordProblem(password: string | undefined): string | null {
  if (!password) return null;
  if (new TextEncoder().encode(password).length > PASSWORD_MAX_BYTES) return AUTH_MESSAGES.passwordTooLong;
  if (!PASSWORD.test(password)) return AUTH_MESSAGES.passwordRule;
  return null;
}
