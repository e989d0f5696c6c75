/** The knack verification mail: the 4-digit code a member types to go on knacking. */
import type { MailMessage } from '../../integrations/mail';

export function knackCodeMail(to: string, firstName: string, code: string): MailMessage {
  const lines = [
    `Hi ${firstName || 'there'},`,
    '',
    'You have knacked a lot of pieces today. To make sure plays and views on Knack come from people, enter this code:',
    '',
    code,
    '',
    'The code works for 15 minutes. If you did not ask for it, someone may be using your account: change your password.',
    '',
    '— Knack',
  ];
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>Hi ${firstName ? firstName.replace(/[&<>"']/g, '') : 'there'},</p>
<p>You have knacked a lot of pieces today. To make sure plays and views on Knack come from people, enter this code:</p>
<p style="font-size:28px;font-weight:700;letter-spacing:6px">${code}</p>
<p style="color:#5d5a6e;font-size:13px">The code works for 15 minutes. If you did not ask for it, someone may be using your account: change your password.</p>
<p>— Knack</p></div>`;
  return { to, subject: `Your Knack code: ${code}`, text: lines.join('\n'), html };
}
