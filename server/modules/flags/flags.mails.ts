/** The mail that tells an owner their piece is off the public lists while admins review members' flags. */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';

export function pieceHeldMail(to: string, firstName: string, title: string, reasons: string[]): MailMessage {
  return composeMail({
    to,
    subject: `Your piece "${title}" is being reviewed`,
    greeting: greetingFor(firstName),
    blocks: [
      {
        before: 'Several members flagged your piece ',
        name: title,
        after: '. While our team reviews it, it is not shown in Explore, search or the charts; its link still works.',
      },
      'The reasons given:',
      { list: reasons },
      'You do not need to do anything. We will put it back, or tell you why not, once the review is done.',
    ],
  });
}
