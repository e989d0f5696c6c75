/** Factories for accounts: sign up through the API, read the activation mail, activate. */
import { randomBytes } from 'node:crypto';
import type { Express } from 'express';
import request, { type Response } from 'supertest';
import { listOutbox } from '../../server/integrations/mail/outbox.driver';
import { tokenFromMail, type startSmtpServer } from './smtp';
import { waitUntil } from './wait';

export const GOOD_PASSWORD = 'Str0ng!pass';

export function newSignup(overrides: Record<string, string> = {}) {
  const id = randomBytes(4).toString('hex');
  return {
    firstName: 'Ana',
    lastName: 'Lima',
    username: `ana_${id}`,
    email: `ana.${id}@example.com`,
    password: GOOD_PASSWORD,
    passwordConfirm: GOOD_PASSWORD,
    ...overrides,
  };
}

/** The refresh cookie's value from a response, if it set one. */
export function refreshCookieOf(res: Response): string | undefined {
  const cookies = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const found = cookies.find((c) => c.startsWith('knack_refresh='));
  const value = found?.split(';')[0]?.slice('knack_refresh='.length);
  return value || undefined;
}

export type Smtp = Awaited<ReturnType<typeof startSmtpServer>>;

/** Where a test reads the app's mail: the SMTP stand-in, or the outbox folder (`outboxMailbox`). */
export type Mailbox = { nextMailTo(to: string): Promise<{ text: string }> };

/** The app's outbox folder (the mailer with no SMTP server) read as a mailbox: the newest mail to the address. */
export function outboxMailbox(dir: string): Mailbox {
  return {
    async nextMailTo(to) {
      let mail: { text: string } | undefined;
      await waitUntil(async () => Boolean((mail = (await listOutbox(dir)).find((m) => m.to === to))), { what: `a mail to ${to}` });
      return mail!;
    },
  };
}

/** Signs up, opens the activation mail and activates: answers a signed-in member. `app` is the app or its URL. */
export async function createActiveMember(app: Express | string, mailbox: Mailbox, overrides: Record<string, string> = {}) {
  const form = newSignup(overrides);
  await request(app).post('/api/v2/auth/signup').send(form).expect(201);
  const mail = await mailbox.nextMailTo(form.email);
  const res = await request(app)
    .post('/api/v2/auth/confirm')
    .send({ token: tokenFromMail(mail, '/confirm') })
    .expect(200);
  return { form, user: res.body.user as { id: string; email: string; role: string }, token: res.body.token as string, cookie: refreshCookieOf(res)! };
}
