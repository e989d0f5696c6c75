/** The account emails: activation, password reset, and the two mails of an email change. */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor, type MailAction } from '../../lib/mail-layout';
import { mailTime, maskEmail } from '../../lib/mail-text';

/** An account mail: what happened, the one link to act on, and what the link does or when it ends. */
function accountMail(to: string, subject: string, firstName: string, lines: string[], action: MailAction, footer: string): MailMessage {
  return composeMail({ to, subject, greeting: greetingFor(firstName), blocks: [...lines, { action }, { note: footer }] });
}

export function activationMail(to: string, firstName: string, link: string): MailMessage {
  return accountMail(
    to,
    'Activate your Knack account',
    firstName,
    ['Welcome to Knack, where creators are paid for every play and view.', 'Activate your account to start uploading, playing and earning.'],
    { label: 'Activate my account', url: link },
    'The link works for 7 days. If you did not sign up for Knack, ignore this email.',
  );
}

export function resetPasswordMail(to: string, firstName: string, link: string): MailMessage {
  return accountMail(
    to,
    'Reset your Knack password',
    firstName,
    ['Someone (hopefully you) asked to reset the password of your Knack account.'],
    { label: 'Choose a new password', url: link },
    'The link works once, for 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
  );
}

/**
 * To the address a visitor gave with a Top 50 upload: the link that registers the account the upload is waiting
 * in. Until then the song is kept out of sight.
 */
export function registrationMail(to: string, artist: string, link: string): MailMessage {
  return composeMail({
    to,
    subject: `Confirm your song for ${artist}'s Top 50 on Knack`,
    greeting: greetingFor(),
    blocks: [
      `A song was sent to ${artist}'s Top 50 chart on Knack with this email address.`,
      'Choose a username and a password to confirm it: your song joins the chart, and you can sign in to follow its plays.',
      { action: { label: 'Register and publish my song', url: link } },
      { note: 'The link works once, for 30 days. If you did not send a song to Knack, ignore this email: nothing is published.' },
    ],
  });
}

/** To the new address of an email change: the link that makes the change. */
export function emailChangeMail(to: string, firstName: string, username: string, link: string): MailMessage {
  return accountMail(
    to,
    'Confirm your new Knack email',
    firstName,
    [`You asked to use this address as the email of your Knack account (@${username}).`, 'Your email changes when you open this link.'],
    { label: 'Confirm my new email', url: link },
    'The link works once, for 24 hours. If you did not ask for it, ignore this email: nothing changes.',
  );
}

/** To the current address of an email change: what is happening, and a link that cancels it. */
export function emailChangeNoticeMail(to: string, firstName: string, newEmail: string, cancelLink: string): MailMessage {
  return accountMail(
    to,
    'Your Knack email is being changed',
    firstName,
    [
      `Your Knack email is being changed to ${newEmail}.`,
      `It changes only when the link we sent to ${newEmail} is opened, within 24 hours. Until then you sign in with this address, as before.`,
      'If this was not you, cancel the change with the button below: whoever asked for it knew your password. The button works for 7 days, even once the change is made. It makes this address your email again, signs everyone out of your account, and we send you a link here to choose a new password.',
    ],
    { label: 'Cancel this change', url: cancelLink },
    'If it was you, there is nothing to do.',
  );
}

/** A payout address held when an account was taken back, and when it had been set. */
export interface HeldPayout {
  paypal: string;
  changedAt: Date;
}

/**
 * To the address an email change was cancelled or undone from: what happened, and the link to choose a new
 * password (the old one was cleared).
 */
export function accountTakenBackMail(
  to: string,
  firstName: string,
  { undone, resetLink, heldPayout }: { undone: boolean; resetLink: string; heldPayout: HeldPayout | null },
): MailMessage {
  return accountMail(
    to,
    undone ? 'Your Knack email change was undone' : 'Your Knack email change was cancelled',
    firstName,
    [
      undone
        ? `You undid the change of your Knack email: it is ${to} again, and only this address can reset your password.`
        : `You cancelled the change of your Knack email: it stays ${to}.`,
      'Whoever asked for the change knew your password, so we signed everyone out of your account, cleared your password and ended every other link we had emailed. Choose a new password with the button below. If you sign in with Google or Facebook, sign in with it again: that links it to your account anew.',
      ...(heldPayout
        ? [
            `The PayPal email your payouts and cash-outs go to was changed to ${maskEmail(heldPayout.paypal)} on ${mailTime(heldPayout.changedAt)}. Nothing is paid to it until you confirm it in your wallet with your new password; if it is not yours, enter your own there instead.`,
          ]
        : []),
    ],
    { label: 'Choose a new password', url: resetLink },
    'The link works once, for 24 hours. After that, use “Forgot password” on the log-in form.',
  );
}
