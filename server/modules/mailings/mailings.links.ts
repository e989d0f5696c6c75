/**
 * The one-click unsubscribe of each kind of mail the jobs send: which member setting it turns off, what the page
 * and the mail say about it, and the signed link (lib/signed-token.ts) that names one member and one kind of mail.
 */
import { readSignedToken, signedToken } from '../../lib/signed-token';
import type { MailChoice } from '../users';
import type { MailKind } from './mailings.model';

interface KindText {
  /** The member setting the link turns off. */
  choice: MailChoice;
  /** What it is, after "unsubscribed from". */
  name: string;
  /** The page's question before anything changes. */
  question: string;
  /** Why the member gets it, at the foot of each mail. */
  why: string;
}

export const MAIL_KINDS: Record<MailKind, KindText> = {
  'payout-notice': {
    choice: 'payoutNotices',
    name: 'payout notices',
    question: 'Stop the mails telling you that a payout or cash-out was sent?',
    why: 'You get this mail because payout notices are on in your settings.',
  },
  statement: {
    choice: 'statements',
    name: 'the monthly statement',
    question: 'Stop the monthly statement of what your pieces earned?',
    why: 'You get this statement because the monthly statement is on in your settings.',
  },
  digest: {
    choice: 'digest',
    name: 'the weekly digest',
    question: 'Stop the weekly digest of new pieces from artists you follow?',
    why: 'You get this digest because news mail and the weekly digest are on in your settings.',
  },
};

const PURPOSE = 'mail-unsubscribe';
const isKind = (value: string): value is MailKind => Object.hasOwn(MAIL_KINDS, value);

export const unsubscribeToken = (key: string, kind: MailKind, userId: string) => signedToken(key, PURPOSE, [kind, userId]);

/** The https link of the mail's List-Unsubscribe header and foot: a page when opened, one click when POSTed. */
export const unsubscribeUrl = (key: string, publicUrl: string, kind: MailKind, userId: string) =>
  `${publicUrl}/mail/unsubscribe?token=${encodeURIComponent(unsubscribeToken(key, kind, userId))}`;

/** The kind and member a token names, or null when the server did not sign it. */
export function readUnsubscribeToken(key: string, token: string): { kind: MailKind; userId: string } | null {
  const values = readSignedToken(key, PURPOSE, token, 2);
  if (!values || !isKind(values[0]!)) return null;
  return { kind: values[0], userId: values[1]! };
}
