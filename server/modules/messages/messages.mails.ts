/** The mail that tells a member a new message waits in their inbox. */
import type { MailMessage } from '../../integrations/mail';
import { escapeHtml } from '../../lib/html';

export function newMessageMail(to: string, senderName: string, subject: string, link: string): MailMessage {
  const line = `${senderName} sent you a message on Knack: “${subject}”.`;
  const text = ['Hi there,', '', line, '', `Read it: ${link}`, '', 'You can turn these emails off in your settings.', '', '— Knack'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>Hi there,</p>
<p>${escapeHtml(line)}</p>
<p><a href="${escapeHtml(link)}" style="display:inline-block;background:#5b3cf5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">Read the message</a></p>
<p style="color:#5d5a6e;font-size:13px">Or open this link: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="color:#5d5a6e;font-size:13px">You can turn these emails off in your settings.</p>
<p>— Knack</p></div>`;
  // Names and subjects are member input: no line breaks in a header.
  return { to, subject: `${senderName} sent you a message on Knack`.replace(/[\r\n]+/g, ' '), text, html };
}
