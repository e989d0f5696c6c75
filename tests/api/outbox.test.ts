import request from 'supertest';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outboxMailer } from '../../server/integrations/mail';
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
});
