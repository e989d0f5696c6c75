/**
 * Every mail Knack sends, laid out one way: a greeting, the body's blocks in order, and the sign-off, as plain text
 * and as HTML. Whatever a block holds is text (member input included): the HTML escapes it, never strips it.
 */
import { escapeHtml } from './html';

/** A link the member acts on: a button in the HTML, with the link written out for mail apps that hide buttons. */
export interface MailAction {
  label: string;
  url: string;
}

/** One block of a mail's body. */
export type MailBlock =
  /** A paragraph. */
  | string
  /** A paragraph naming something a member named (a piece's title): the name is bold in the HTML, quoted in the text. */
  | { before: string; name: string; after: string }
  /** A paragraph the reader must not miss. */
  | { strong: string }
  /** Points in a list. */
  | { list: string[] }
  /** Links in a list: each label a link in the HTML, followed by its address in the text. */
  | { links: MailAction[] }
  /** A code the member types, large enough to read at a glance. */
  | { code: string }
  /** Small print. */
  | { note: string }
  | { action: MailAction };

/**
 * A mail a member can stop with one click: why they get it (`You get this mail because …`), and the signed link that
 * stops it, both at the foot of the mail and in its headers for the mail app's own Unsubscribe button.
 */
export interface MailUnsubscribe {
  /** Why the member gets it, a sentence: 'You get this digest because the weekly digest is on in your settings.' */
  why: string;
  /** The https link that stops this kind of mail for this member: opened, it asks; POSTed (RFC 8058), it stops. */
  url: string;
}

export interface ComposedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  list?: { unsubscribe: string };
  headers?: Record<string, string>;
}

const SIGN_OFF = '— Knack';
const NOTE_STYLE = 'color:#5d5a6e;font-size:13px';
const BUTTON_STYLE = 'display:inline-block;background:#5b3cf5;color:#fff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600';

/** The greeting of a mail to a member: by first name when we know it. */
export const greetingFor = (firstName?: string | null) => `Hi ${firstName || 'there'},`;

function blockText(block: MailBlock): string {
  if (typeof block === 'string') return block;
  if ('name' in block) return `${block.before}"${block.name}"${block.after}`;
  if ('strong' in block) return block.strong;
  if ('list' in block) return block.list.map((item) => `- ${item}`).join('\n');
  if ('links' in block) return block.links.map((link) => `- ${link.label}: ${link.url}`).join('\n');
  if ('code' in block) return block.code;
  if ('note' in block) return block.note;
  return `${block.action.label}: ${block.action.url}`;
}

function blockHtml(block: MailBlock): string {
  if (typeof block === 'string') return `<p>${escapeHtml(block)}</p>`;
  if ('name' in block) return `<p>${escapeHtml(block.before)}<strong>${escapeHtml(block.name)}</strong>${escapeHtml(block.after)}</p>`;
  if ('strong' in block) return `<p><strong>${escapeHtml(block.strong)}</strong></p>`;
  if ('list' in block) return `<ul>${block.list.map((item) => `<li>${escapeHtml(item)}</li>`).join('')}</ul>`;
  if ('links' in block) return `<ul>${block.links.map((link) => `<li><a href="${escapeHtml(link.url)}">${escapeHtml(link.label)}</a></li>`).join('')}</ul>`;
  if ('code' in block) return `<p style="font-size:28px;font-weight:700;letter-spacing:6px">${escapeHtml(block.code)}</p>`;
  if ('note' in block) return `<p style="${NOTE_STYLE}">${escapeHtml(block.note)}</p>`;
  const url = escapeHtml(block.action.url);
  return `<p><a href="${url}" style="${BUTTON_STYLE}">${escapeHtml(block.action.label)}</a></p>
<p style="${NOTE_STYLE}">Or open this link: <a href="${url}">${url}</a></p>`;
}

/**
 * A whole mail. The subject often holds member input (a name, a title): a line break there would start a new
 * header, so it is kept on one line.
 */
export function composeMail({
  to,
  subject,
  greeting,
  blocks,
  unsubscribe,
}: {
  to: string;
  subject: string;
  greeting: string;
  blocks: MailBlock[];
  unsubscribe?: MailUnsubscribe;
}): ComposedMail {
  const foot = unsubscribe ? [`${unsubscribe.why} Unsubscribe: ${unsubscribe.url}`] : [];
  const text = [greeting, ...blocks.map(blockText), SIGN_OFF, ...foot].join('\n\n');
  const footHtml = unsubscribe ? `\n<p style="${NOTE_STYLE}">${escapeHtml(unsubscribe.why)} <a href="${escapeHtml(unsubscribe.url)}">Unsubscribe</a></p>` : '';
  const html = `<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.55;color:#161326">
<p>${escapeHtml(greeting)}</p>
${blocks.map(blockHtml).join('\n')}
<p>${SIGN_OFF}</p>${footHtml}</div>`;
  const mail: ComposedMail = { to, subject: subject.replace(/[\r\n]+/g, ' '), text, html };
  if (!unsubscribe) return mail;
  // RFC 8058: the mail app POSTs `List-Unsubscribe=One-Click` to the https link, with no page in between.
  return { ...mail, list: { unsubscribe: unsubscribe.url }, headers: { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } };
}
