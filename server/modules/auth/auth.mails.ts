/** The account emails: activation, password reset, and the two mails of an email change. */
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

/** To the new address of an email change: the link that makes the change. */
export function emailChangeMail(to: string, firstName: string, username: string, link: string): MailMessage {
  return {
    to,
    subject: 'Confirm your new Knack email',
    ...layout(
      `Hi ${firstName || 'there'},`,
      [`You asked to use this address as the email of your Knack account (@${username}).`, 'Your email changes when you open this link.'],
      { label: 'Confirm my new email', url: link },
      'The link works once, for 24 hours. If you did not ask for it, ignore this email: nothing changes.',
    ),
  };
}

/** To the current address of an email change: what is happening, and a link that cancels it. */
export function emailChangeNoticeMail(to: string, firstName: string, newEmail: string, cancelLink: string): MailMessage {
  return {
    to,
    subject: 'Your Knack email is being changed',
    ...layout(
      `Hi ${firstName || 'there'},`,
      [
        `Your Knack email is being changed to ${newEmail}.`,
        `It changes only when the link we sent to ${newEmail} is opened, within 24 hours. Until then you sign in with this address, as before.`,
        'If this was not you, cancel the change with the button below, then change your password: someone else may be signed in to your account.',
      ],
      { label: 'Cancel this change', url: cancelLink },
      'If it was you, there is nothing to do.',
    ),
  };
}
