/** How the mails write what they tell: an address they must not give away, and a time. */

/**
 * "andrea@example.com" -> "an***@example.com": enough for the member to recognise their own address, while
 * a mailbox read by someone else does not learn where the money now goes.
 */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  const local = email.slice(0, at);
  return `${local.slice(0, local.length > 2 ? 2 : 1)}***${email.slice(at)}`;
}

/** A time as the mail shows it: to the minute, in UTC, the same for every reader. */
export const mailTime = (at: Date) => `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
