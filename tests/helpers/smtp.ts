/** A real SMTP server on loopback (the smtp-server package) that keeps what it receives. */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
  /** The decoded text of the message (quoted-printable undone), for finding links. */
  text: string;
  /** The Subject header, unfolded and with its encoded words (RFC 2047) decoded. */
  subject: string;
}

/** The Subject header of a raw message: its folded lines joined, and `=?utf-8?Q?…?=` / `=?utf-8?B?…?=` words decoded. */
function subjectOf(raw: string): string {
  const header = /^Subject:(.*(?:\r?\n[ \t].*)*)/im.exec(raw.split(/\r?\n\r?\n/)[0] ?? '')?.[1] ?? '';
  return header
    .replace(/\r?\n[ \t]/g, ' ')
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([QB])\?([^?]*)\?=/gi, (_, encoding: string, word: string) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(word, 'base64').toString('utf8')
        : Buffer.from(
            word.replace(/_/g, ' ').replace(/=([0-9A-F]{2})/gi, (__, hex: string) => String.fromCharCode(parseInt(hex, 16))),
            'latin1',
          ).toString('utf8'),
    )
    .trim();
}

function decodeQuotedPrintable(raw: string): string {
  return raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const waiting: { to: string; resolve: (mail: ReceivedMail) => void }[] = [];
  const newServer = () =>
    new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, session, callback) {
        let raw = '';
        stream.setEncoding('utf8');
        stream.on('data', (chunk: string) => (raw += chunk));
        stream.on('end', () => {
          const mail = { to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()), raw, text: decodeQuotedPrintable(raw), subject: subjectOf(raw) };
          received.push(mail);
          for (const w of waiting.filter((x) => mail.to.includes(x.to))) {
            waiting.splice(waiting.indexOf(w), 1);
            w.resolve(mail);
          }
          callback();
        });
      },
    });
  let server = newServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** The next mail to `to` (or one already received and not yet taken). */
    nextMailTo(to: string, timeoutMs = 10_000): Promise<ReceivedMail> {
      const address = to.toLowerCase();
      const already = received.find((m) => m.to.includes(address));
      if (already) {
        received.splice(received.indexOf(already), 1);
        return Promise.resolve(already);
      }
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no mail to ${to} within ${timeoutMs} ms`)), timeoutMs);
        waiting.push({
          to: address,
          resolve: (mail) => {
            clearTimeout(timer);
            received.splice(received.indexOf(mail), 1);
            resolve(mail);
          },
        });
      });
    },
    stop: close,
    /** An outage: the server stops listening, so a connection to its address is refused. */
    goDown: close,
    /** The end of an outage: a server listens again at the same address, keeping what was received before. */
    async comeBack(): Promise<void> {
      server = newServer();
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
  };
}

/** The token of the first link in the mail that goes to `path` (e.g. /confirm or /auth/reset-password). */
export function tokenFromMail(mail: Pick<ReceivedMail, 'text'>, path: string): string {
  const match = new RegExp(`${path.replace(/[/]/g, '\\/')}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text);
  if (!match?.[1]) throw new Error(`no ${path} link in the mail:\n${mail.text}`);
  return match[1];
}
