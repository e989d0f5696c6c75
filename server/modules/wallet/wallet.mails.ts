/** The notice mailed to a member's account address when the email their payouts go to is changed. */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';
import { mailTime, maskEmail } from '../../lib/mail-text';

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
