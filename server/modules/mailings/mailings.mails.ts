/**
 * The jobs' mails, each from the one layout (lib/mail-layout.ts) with its one-click unsubscribe, and the pages of the
 * unsubscribe link.
 */
import type { MailMessage } from '../../integrations/mail';
import { monthName } from '../../lib/calendar';
import { escapeHtml } from '../../lib/html';
import { composeMail, greetingFor, type MailBlock, type MailUnsubscribe } from '../../lib/mail-layout';
import { maskEmail } from '../../lib/mail-text';
import { usdText } from '../../lib/money';
import type { PayoutSendDoc } from '../wallet';
import { MAIL_KINDS } from './mailings.links';
import type { MailKind } from './mailings.model';

interface Recipient {
  email: string;
  firstName?: string | null;
}

const unsubscribeFor = (kind: MailKind, url: string): MailUnsubscribe => ({ why: MAIL_KINDS[kind].why, url });

/**
 * A monthly payout or an approved cash-out the provider took: what left the balance, the provider's fee, what was
 * sent, and the PayPal account it went to (masked, as every mail writes an address that money goes to).
 */
export function payoutNoticeMail(
  to: Recipient,
  send: Pick<PayoutSendDoc, '_id' | 'kind' | 'amountMicros' | 'feeMicros' | 'sentMicros' | 'email'>,
  publicUrl: string,
  unsubscribeUrl: string,
): MailMessage {
  const where = `your PayPal account ${maskEmail(send.email)}`;
  const month = send.kind === 'payout' ? monthName(send._id.slice(-7)) : null;
  return composeMail({
    to: to.email,
    subject: month ? 'Your Knack payout was sent' : 'Your Knack cash-out was sent',
    greeting: greetingFor(to.firstName),
    blocks: [
      month
        ? `Your payout of ${usdText(send.amountMicros)} for ${month} was sent: ${usdText(send.sentMicros)} went to ${where}.`
        : `Your cash-out of ${usdText(send.amountMicros)} was approved: ${usdText(send.sentMicros)} was sent to ${where}.`,
      ...(send.feeMicros ? [`The payout provider kept its fee of ${usdText(send.feeMicros)}.`] : []),
      { note: 'Your wallet and activity history show it too.' },
      { action: { label: 'Open my wallet', url: `${publicUrl}/wallet` } },
    ],
    unsubscribe: unsubscribeFor('payout-notice', unsubscribeUrl),
  });
}

/** One line of the statement: a piece and what its knacks brought the member in the month. */
export interface StatementRow {
  title: string;
  knacks: number;
  grossMicros: number;
  shareMicros: number;
}

const knacksText = (count: number) => `${count} knack${count === 1 ? '' : 's'}`;

/** What the member's pieces, and the pieces they support, earned in the month, piece by piece. */
export function statementMail(to: Recipient, month: string, rows: StatementRow[], publicUrl: string, unsubscribeUrl: string): MailMessage {
  const name = monthName(month);
  const total = rows.reduce((sum, row) => sum + row.shareMicros, 0);
  const knacks = rows.reduce((sum, row) => sum + row.knacks, 0);
  return composeMail({
    to: to.email,
    subject: `Your Knack earnings for ${name}`,
    greeting: greetingFor(to.firstName),
    blocks: [
      `In ${name} your pieces and the pieces you support earned ${usdText(total)} from ${knacksText(knacks)}.`,
      {
        list: rows.map((row) => `"${row.title}": ${knacksText(row.knacks)}, ${usdText(row.grossMicros)} in all, your share ${usdText(row.shareMicros)}`),
      },
      {
        note: 'A piece you own earns 90% of each knack when another member paid its listing fee, and all of it when you did; a piece you support earns you 10%.',
      },
      'Balances of $10 or more are paid on the 1st of each month, or when you cash out from your wallet.',
      { action: { label: 'Open my wallet', url: `${publicUrl}/wallet` } },
    ],
    unsubscribe: unsubscribeFor('statement', unsubscribeUrl),
  });
}

/** An artist the member follows and their new pieces of the week (`more`: how many were left out). */
export interface DigestSection {
  artist: string;
  profileUrl: string;
  pieces: { title: string; type: string; url: string }[];
  more: number;
}

const TYPE_NAMES: Record<string, string> = { music: 'Music', art: 'Art', photos: 'Photos' };

/** The week's new pieces from the artists the member follows. */
export function digestMail(to: Recipient, sections: DigestSection[], publicUrl: string, unsubscribeUrl: string): MailMessage {
  const blocks: MailBlock[] = ['Here is what the artists you follow published this past week.'];
  for (const section of sections) {
    blocks.push({ before: 'New from ', name: section.artist, after: ' this week:' });
    blocks.push({
      links: [
        ...section.pieces.map((piece) => ({ label: `"${piece.title}" (${TYPE_NAMES[piece.type] ?? piece.type})`, url: piece.url })),
        ...(section.more ? [{ label: `And ${section.more} more on their page`, url: section.profileUrl }] : []),
      ],
    });
  }
  blocks.push({ action: { label: 'Explore Knack', url: `${publicUrl}/explore` } });
  return composeMail({
    to: to.email,
    subject: 'New on Knack from artists you follow',
    greeting: greetingFor(to.firstName),
    blocks,
    unsubscribe: unsubscribeFor('digest', unsubscribeUrl),
  });
}

const page = (title: string, body: string) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex"><title>${escapeHtml(title)} · Knack</title>
<style>body{font:16px/1.55 system-ui,sans-serif;margin:0;background:#f7f6fb;color:#161326}
main{max-width:520px;margin:48px auto;padding:24px;background:#fff;border:1px solid #e9e7f2;border-radius:12px}
h1{font-size:22px;margin:0 0 12px}.meta{color:#5d5a6e}a{color:#5b3cf5}
button{font:inherit;font-weight:600;background:#5b3cf5;color:#fff;border:0;border-radius:8px;padding:10px 18px;cursor:pointer}</style></head>
<body><main>${body}</main></body></html>`;

/** The link's page: it names the mail and the address, and asks; its button posts the one click to the same address. */
export function unsubscribeQuestionPage(kind: MailKind, email: string): string {
  const { question } = MAIL_KINDS[kind];
  return page(
    'Unsubscribe',
    `<h1>${escapeHtml(question)}</h1>
<p class="meta">For ${escapeHtml(maskEmail(email))}. You can turn it on again in your settings at any time.</p>
<form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function unsubscribedPage(kind: MailKind, publicUrl: string): string {
  const settings = `${publicUrl}/user-setting`;
  return page(
    'Unsubscribed',
    `<h1>You are unsubscribed from ${escapeHtml(MAIL_KINDS[kind].name)}.</h1>
<p>You can turn it on again in your settings: <a href="${escapeHtml(settings)}">${escapeHtml(settings)}</a></p>`,
  );
}

export const UNSUBSCRIBE_REFUSED = 'This unsubscribe link is not valid.';

export const unsubscribeRefusedPage = () =>
  page('Unsubscribe', `<h1>${UNSUBSCRIBE_REFUSED}</h1><p class="meta">Turn Knack's mails on or off in your settings instead.</p>`);
