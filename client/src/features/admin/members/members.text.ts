import { AUTH_MESSAGES as MESSAGES } from '../../auth';

/** The admin area's members part: its words, with the form messages the server answers too (the auth feature's, from x-validation). */
export const MEMBERS_TEXT = {
  required: {
    firstName: MESSAGES.firstName,
    lastName: MESSAGES.lastName,
    username: MESSAGES.username,
    email: MESSAGES.emailField,
    password: MESSAGES.password,
  },
  testEmailOutbox: 'A throwaway address: its mail lands in the outbox.',
  testEmailSmtp: 'This address receives mail only with the embedded outbox. This server sends mail by SMTP, so nothing will receive it.',
  openOutbox: 'Open its mail in the outbox',
  giveUpLabel: (balance: string) => `Give up the ${balance} not paid out yet (it is not paid to anyone)`,
} as const;
