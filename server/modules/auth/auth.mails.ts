/** The account emails: activation and password reset. */
import type { MailMessage } from '../../integrations/mail';
import { escapeHtml } from '../../lib/html';

function layout(greeting: string, lines: string[], action: { label: string; url: string }, footer: string): Pick<MailMessage, 'text' | 'html'> {
  const text = [greeting, '', ...lines, '', `${action.label}: ${action.url}`, '', footer, '', '— Knack'].join('\n');
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>${escapeHtml(greeting)}</p>
${lines.map((l) => `<p>${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(action.url)}" style="display:inline-block;background:#5b3cf5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p>
<p style="color:#5d5a6e;font-size:13px">Or open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>
<p style="color:#5d5a6e;font-size:13px">${escapeHtml(footer)}</p>
<p>— Knack</p></div>`;
  return { text, html };
}

export function activationMail(to: string, firstName: string, link: string): MailMessage {
  return {
    to,
    subject: 'Activate your Knack account',
    ...layout(
      `Hi ${firstName || 'there'},`,
      ['Welcome to Knack, where creators are paid for every play and view.', 'Activate your account to start uploading, playing and earning.'],
      { label: 'Activate my account', url: link },
      'The link works for 7 days. If you did not sign up for Knack, ignore this email.',
    ),
  };
}

export function resetPasswordMail(to: string, firstName: string, link: string): MailMessage {
  return {
    to,
    subject: 'Reset your Knack password',
    ...layout(
      `Hi ${firstName || 'there'},`,
      ['Someone (hopefully you) asked to reset the password of your Knack account.'],
      { label: 'Choose a new password', url: link },
      'The link works once, for 1 hour. If you did not ask for it, ignore this email: your password stays as it is.',
    ),
  };
}
