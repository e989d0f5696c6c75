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

/** The mail that tells an owner an admin took their piece down after reviewing members' flags. */
export function pieceTakenDownMail(to: string, firstName: string, title: string, reasons: string[], note: string): MailMessage {
  return composeMail({
    to,
    subject: `Your piece "${title}" was taken down`,
    greeting: greetingFor(firstName),
    blocks: [
      { before: 'Our team reviewed the flags on your piece ', name: title, after: ' and took it down: only you and our team can see it now.' },
      'The reasons members gave:',
      { list: reasons },
      ...(note ? [`Our team's note: ${note}`] : []),
      'If you think this is a mistake, answer this mail or write to Admin from your inbox.',
    ],
  });
}

/** The mail that tells an owner their piece, held while admins reviewed members' flags, is back in the lists. */
export function pieceReleasedMail(to: string, firstName: string, title: string): MailMessage {
  return composeMail({
    to,
    subject: `Your piece "${title}" is back`,
    greeting: greetingFor(firstName),
    blocks: [{ before: 'Our team reviewed the flags on your piece ', name: title, after: ' and put it back in Explore, search and the charts.' }],
  });
}
