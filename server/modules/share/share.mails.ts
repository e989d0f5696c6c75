/** The invitation a member sends to a friend about a piece (user/invite-user). */
import type { MailMessage } from '../../integrations/mail';
import { escapeHtml } from '../../lib/html';

export function inviteMail(to: string, inviterName: string, title: string, link: string): MailMessage {
  const lines = [`${inviterName} invited you to “${title}” on Knack, where creators are paid for every play and view.`];
  const text = ['Hi there,', '', ...lines, '', `Open it: ${link}`, '', 'If you do not know the sender, ignore this email.', '', '— Knack'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>Hi there,</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#5b3cf5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">Open ${escapeHtml(title)}</a></p>
<p style="color:#5d5a6e;font-size:13px">Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="color:#5d5a6e;font-size:13px">If you do not know the sender, ignore this email.</p>
<p>— Knack</p></div>`;
  // Names and titles are member input: no line breaks in a header.
  const subject = `${inviterName} invited you to “${title}” on Knack`.replace(/[\r\n]+/g, ' ');
  return { to, subject, text, html };
}
