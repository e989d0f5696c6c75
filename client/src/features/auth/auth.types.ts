import type { components } from '../../../../generated/openapi';

type Schemas = components['schemas'];

export type User = Schemas['User'];
export type UserExt = Schemas['UserExt'];
export type Subscription = Schemas['Subscription'];
export type Plan = Schemas['Plan'];
export type AuthResponse = Schemas['AuthResponse'];

/** A signed-in session as the client keeps it. */
export interface Session {
  user: User;
  token: string;
  reactedContents: string[];
}

export type { StoredAccount } from '../../lib/storedAccount';

export interface FieldError {
  path: string;
  message: string;
}

export type FormName = 'login' | 'signup' | 'forgot' | 'reset' | 'confirm' | 'register';

/** The `{name} register` form: the mailed link's account and token, and the chosen username and password. */
export interface RegistrationValues {
  userId: string;
  token: string;
  username: string;
  password: string;
  passwordConfirm: string;
}

/** The two links of an email change: the one mailed to the new address, and the cancel link of the notice to the old one. */
export type EmailChangeLink = 'email' | 'cancel-email';

/** idle → sending → sent (done, or a check-your-email answer) | failed. */
export type FormStatus = 'idle' | 'sending' | 'sent' | 'failed';

export interface FormState {
  status: FormStatus;
  /** The server's message (an error, or 'Check Your Email' / 'Email Sent'). */
  message: string | null;
  /** The fields the server named. */
  errors: FieldError[];
  /** The email the answer is about (shown in the check-your-email panel). */
  email?: string;
}

export interface SignupValues {
  firstName: string;
  lastName: string;
  username: string;
  password: string;
  passwordConfirm: string;
}
