/**
 * The wallet's mails: a changed payout email, and a cash-out request declined (with why) or restored. The notice that
 * money was sent is the mailings module's payout notice, the same for cash-outs and monthly payouts.
 */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';
import { mailTime, maskEmail } from '../../lib/mail-text';

/** `$12.34`: an amount of whole cents, as the wallet shows it. */
const dollars = (micros: number) => `$${(micros / 1_000_000).toFixed(2)}`;

export function payoutEmailChangedMail(to: string, firstName: string, newPaypal: string, at: Date, resetLink: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Knack payout email was changed',
    greeting: greetingFor(firstName),
    blocks: [
      `The PayPal email your Knack payouts and cash-outs are sent to was changed to ${maskEmail(newPaypal)} on ${mailTime(at)}.`,
      'If you made this change, there is nothing more to do.',
      { strong: 'If you did not make this change, reset your password now: it signs you out everywhere. Then set your PayPal email again in your wallet.' },
      { action: { label: 'Reset my password', url: resetLink } },
    ],
  });
}

/** An admin declined the member's cash-out request: why, and that the balance is theirs again. */
export function cashOutDeclinedMail(to: string, firstName: string, amountMicros: number, reason: string, publicUrl: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Knack cash-out was declined',
    greeting: greetingFor(firstName),
    blocks: [
      `Your cash-out request of ${dollars(amountMicros)} was declined. The reason:`,
      { strong: reason },
      'Nothing was taken from your balance: it is paid with the monthly payout on the 1st, or you can ask to cash out again from your wallet.',
      { action: { label: 'Open my wallet', url: `${publicUrl}/wallet` } },
    ],
  });
}

/** An admin put a declined or cancelled request back to waiting (a decision undone). */
export function cashOutRestoredMail(to: string, firstName: string, amountMicros: number, publicUrl: string): MailMessage {
  return composeMail({
    to,
    subject: 'Your Knack cash-out request is waiting again',
    greeting: greetingFor(firstName),
    blocks: [
      `Your cash-out request of ${dollars(amountMicros)} is waiting for approval again: the earlier decision on it was undone.`,
      'It is paid to your PayPal account once approved, or with the monthly payout on the 1st, whichever comes first. You can cancel it from your wallet while it waits.',
      { action: { label: 'Open my wallet', url: `${publicUrl}/wallet` } },
    ],
  });
}
