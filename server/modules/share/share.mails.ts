/** The invitation a member sends to a friend about a piece (user/invite-user). */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';

export function inviteMail(to: string, inviterName: string, title: string, link: string): MailMessage {
  return composeMail({
    to,
    subject: `${inviterName} invited you to “${title}” on Knack`,
    greeting: greetingFor(),
    blocks: [
      `${inviterName} invited you to “${title}” on Knack, where creators are paid for every play and view.`,
      { action: { label: `Open ${title}`, url: link } },
      { note: 'If you do not know the sender, ignore this email.' },
    ],
  });
}
