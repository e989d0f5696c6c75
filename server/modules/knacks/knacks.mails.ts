/** The knack verification mail: the 4-digit code a member types to go on knacking. */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';

export function knackCodeMail(to: string, firstName: string, code: string): MailMessage {
  return composeMail({
    to,
    subject: `Your Knack code: ${code}`,
    greeting: greetingFor(firstName),
    blocks: [
      'You have knacked a lot of pieces today. To make sure plays and views on Knack come from people, enter this code:',
      { code },
      { note: 'The code works for 15 minutes. If you did not ask for it, someone may be using your account: change your password.' },
    ],
  });
}
