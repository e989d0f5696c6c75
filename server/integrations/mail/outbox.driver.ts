/**
 * The embedded default: every mail is written under DATA_DIR/mail as a JSON file (subject, to, text,
 * html) plus the raw .eml, and listed on the dev-only page /dev/mail so a local user can click the links.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage } from './mail.types';

export interface StoredMail extends MailMessage {
  id: string;
  from: string;
  sentAt: string;
}

const ID = /^[0-9]{13}-[0-9a-f]{8}$/;

export function outboxMailer(dir: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    outboxDir: dir,
    async send(message: MailMessage) {
      await mkdir(dir, { recursive: true });
      const id = `${Date.now()}-${randomBytes(4).toString('hex')}`;
      const info = await transport.sendMail({ from, ...message });
      const stored: StoredMail = { id, from, sentAt: new Date().toISOString(), ...message };
      await writeFile(path.join(dir, `${id}.eml`), info.message as Buffer);
      await writeFile(path.join(dir, `${id}.json`), JSON.stringify(stored, null, 2));
    },
  };
}

/** Newest first. */
export async function listOutbox(dir: string, limit = 200): Promise<StoredMail[]> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const ids = files
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5))
    .filter((id) => ID.test(id))
    .sort()
    .reverse()
    .slice(0, limit);
  return Promise.all(ids.map(async (id) => JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as StoredMail));
}

export async function readOutboxMail(dir: string, id: string): Promise<StoredMail | undefined> {
  if (!ID.test(id)) return undefined;
  try {
    return JSON.parse(await readFile(path.join(dir, `${id}.json`), 'utf8')) as StoredMail;
  } catch {
    return undefined;
  }
}
