/**
 * The form rules of spec §5 with their exact messages; the server checks each again and answers the same
 * message. Usernames and emails are normalized as the server does (trimmed, lower-cased; spaces in a
 * username become underscores).
 */
export const AUTH_MESSAGES = {
  loginEmail: 'Please input email',
  loginPassword: 'Please input password',
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
  checkEmail: 'Check Your Email',
  emailSent: 'Email Sent',
  activated: 'Successfully created an account.',
  googleError: 'Google Auth Error:',
  facebookError: 'Facebook Auth Error:',
} as const;

export const USERNAME_MIN = 6;
export const USERNAME_MAX = 30;
export const PASSWORD_MAX_BYTES = 72;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*]).{8,}$/;
const USERNAME_CHARS = /^[a-z0-9_.]+$/;

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

/** How a username is shown: underscores as spaces (spec §2). */
export function displayUsername(username: string): string {
  return username.replace(/_/g, ' ');
}

/** Up to two letters for an avatar without a picture. */
export function initials(user: { firstName?: string; lastName?: string; username?: string }): string {
  const fromNames = `${user.firstName?.trim()[0] ?? ''}${user.lastName?.trim()[0] ?? ''}`;
  const letters = fromNames || (user.username ?? '').replace(/[^a-z0-9]/gi, '').slice(0, 2);
  return letters.toUpperCase() || '?';
}
