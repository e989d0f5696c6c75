/** The mail that tells a member a new message waits in their inbox. */
import type { MailMessage } from '../../integrations/mail';
import { composeMail, greetingFor } from '../../lib/mail-layout';

export function newMessageMail(to: string, senderName: string, subject: string, link: string): MailMessage {
  return composeMail({
    to,
    subject: `${senderName} sent you a message on Knack`,
    greeting: greetingFor(),
    blocks: [
      `${senderName} sent you a message on Knack: “${subject}”.`,
      { action: { label: 'Read the message', url: link } },
      { note: 'You can turn these emails off in your settings.' },
    ],
  });
}
