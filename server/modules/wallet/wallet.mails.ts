/** The notice mailed to a member's account address when the email their payouts go to is changed. */
import type { MailMessage } from '../../integrations/mail';
import { escapeHtml } from '../../lib/html';
import { mailTime, maskEmail } from '../../lib/mail-text';

export function payoutEmailChangedMail(to: string, firstName: string, newPaypal: string, at: Date, resetLink: string): MailMessage {
  const greeting = `Hi ${firstName || 'there'},`;
  const lines = [
    `The PayPal email your Knack payouts and cash-outs are sent to was changed to ${maskEmail(newPaypal)} on ${mailTime(at)}.`,
    'If you made this change, there is nothing more to do.',
  ];
  const warning = 'If you did not make this change, reset your password now: it signs you out everywhere. Then set your PayPal email again in your wallet.';
  const action = { label: 'Reset my password', url: resetLink };
  const text = [greeting, '', ...lines, '', warning, `${action.label}: ${action.url}`, '', '— Knack'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><strong>${escapeHtml(warning)}</strong></p>
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#5b3cf5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="color:#5d5a6e;font-size:13px">Or open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>
<p>— Knack</p></div>`;
  return { to, subject: 'Your Knack payout email was changed', text, html };
}
