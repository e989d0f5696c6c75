/** The mail that tells an owner their piece is off the public lists while admins review members' flags. */
import type { MailMessage } from '../../integrations/mail';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function pieceHeldMail(to: string, firstName: string, title: string, reasons: string[]): MailMessage {
  const lines = [
    `Hi ${firstName || 'there'},`,
    '',
    `Several members flagged your piece "${title}". While our team reviews it, it is not shown in Explore, search or the charts; its link still works.`,
    '',
    'The reasons given:',
    ...reasons.map((reason) => `- ${reason}`),
    '',
    'You do not need to do anything. We will put it back, or tell you why not, once the review is done.',
    '',
    '— Knack',
  ];
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>Hi ${escapeHtml(firstName || 'there')},</p>
<p>Several members flagged your piece <strong>${escapeHtml(title)}</strong>. While our team reviews it, it is not shown in Explore, search or the charts; its link still works.</p>
<p>The reasons given:</p><ul>${reasons.map((reason) => `<li>${escapeHtml(reason)}</li>`).join('')}</ul>
<p>You do not need to do anything. We will put it back, or tell you why not, once the review is done.</p>
<p>— Knack</p></div>`;
  return { to, subject: `Your piece "${title}" is being reviewed`, text: lines.join('\n'), html };
}
