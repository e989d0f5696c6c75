/** What the message screens say that the server does not answer. */
export const MESSAGE_TEXT = {
  required: 'Enter all required input fields',
  adminRecipient: 'Admin',
} as const;
