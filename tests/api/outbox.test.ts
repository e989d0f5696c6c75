import request from 'supertest';
import { mkdtempSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { isLoopback, outboxMailer } from '../../server/integrations/mail';
import { createTestApp } from '../helpers/app';
import { newSignup } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

describe('the mail outbox (no SMTP configured)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-outbox-test-'));
  const app = createTestApp({ mailer: outboxMailer(dir, 'Knack <no-reply@knack.test>') });

  it('when a member signs up, then the activation mail is listed at /dev/mail and its link can be clicked', async () => {
    const form = newSignup();
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);

    const list = await request(app).get('/dev/mail').expect(200).expect('Content-Type', /html/);
    expect(list.text).toContain(form.email);
    const id = /href="\/dev\/mail\/([\w-]+)"/.exec(list.text)?.[1];
    expect(id).toBeDefined();

    const mail = await request(app).get(`/dev/mail/${id}`).expect(200);
    expect(mail.text).toContain('Activate your Knack account');
    const link = /href="(http:\/\/knack\.test\/confirm\?token=[\w-]+)"/.exec(mail.text)?.[1];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token');
    await request(app).post('/api/v2/auth/confirm').send({ token }).expect(200);
  });

  it('when a mail id is unknown or malformed, then 404', async () => {
    await request(app).get('/dev/mail/1234567890123-deadbeef').expect(404);
    await request(app).get('/dev/mail/..%2F..%2Fetc%2Fpasswd').expect(404);
  });

  it('when the app runs in production, then the outbox page does not exist', async () => {
    const production = createTestApp({ config: { env: 'production' }, mailer: outboxMailer(dir, 'x@knack.test') });
    const res = await request(production).get('/dev/mail');
    expect(res.text).not.toContain('Outbox');
  });

  /** This machine's first address that is not loopback: how another machine on the network reaches it. */
  const networkAddress = () =>
    Object.values(os.networkInterfaces())
      .flat()
      .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;

  /** Serves `app` on every interface and reads /dev/mail through the network address, as a LAN client would. */
  async function readOutboxFromNetwork(outboxApp: ReturnType<typeof createTestApp>) {
    const address = networkAddress();
    expect(address).toBeDefined();
    const server = outboxApp.listen(0, '0.0.0.0');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://${address}:${port}/dev/mail`, { headers: { 'X-Forwarded-For': '127.0.0.1' } });
      return { status: res.status, text: await res.text() };
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  }

  it('when a client on another machine asks for the outbox, then 403 and no mail is listed, whatever X-Forwarded-For says', async () => {
    const form = newSignup();
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);
    const remote = await readOutboxFromNetwork(app);
    expect(remote.status).toBe(403);
    expect(remote.text).toContain('The outbox is open only on the machine Knack runs on.');
    expect(remote.text).not.toContain(form.email);
  });

  it('when DEV_MAIL opens the outbox, then a client on another machine can read it', async () => {
    const open = createTestApp({ config: { devMail: true }, mailer: outboxMailer(dir, 'Knack <no-reply@knack.test>') });
    const remote = await readOutboxFromNetwork(open);
    expect(remote.status).toBe(200);
    expect(remote.text).toContain('<h1>Outbox</h1>');
  });

  it('loopback addresses are 127.0.0.0/8 and ::1, also mapped into IPv6; nothing else is', () => {
    expect(['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1'].map(isLoopback)).toEqual([true, true, true, true]);
    expect(['192.0.2.2', '10.0.0.1', '::ffff:192.0.2.2', 'fd00::2', '', undefined, '127.0.0.1.evil', '1127.0.0.1'].map(isLoopback)).toEqual(
      Array(8).fill(false),
    );
  });
});
