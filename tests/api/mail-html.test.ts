/**
 * What a member typed reaches the HTML of a real mail (sent over SMTP) escaped: shown as typed, never run, and
 * never cut down to fewer characters.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { createTestApp } from '../helpers/app';
import { createActiveMember, newSignup } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp';

useTestDatabase();

const NAME = `Dan<script>&"'`;
const ESCAPED_GREETING = '<p>Hi Dan&#60;script&#62;&#38;&#34;&#39;,</p>';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;

/** The HTML part of a received mail (after its text part). */
const htmlOf = (mail: ReceivedMail) => mail.text.slice(mail.text.indexOf('Content-Type: text/html'));

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test') });
});

afterAll(async () => smtp.stop());

describe('a first name with HTML characters in the mails', () => {
  it('when such a member signs up, then the activation mail greets them with the name escaped in its HTML and as typed in its text', async () => {
    const form = newSignup({ firstName: NAME });
    await request(app).post('/api/v2/auth/signup').send(form).expect(201);
    const mail = await smtp.nextMailTo(form.email);
    expect(htmlOf(mail)).toContain(ESCAPED_GREETING);
    expect(htmlOf(mail)).not.toContain('<script>');
    expect(mail.text).toContain(`Hi ${NAME},`);
  });

  it('when such a member asks for the knack code, then the mail greets them with the name escaped, not stripped', async () => {
    const dan = await createActiveMember(app, smtp, { firstName: NAME });
    await request(app)
      .post('/api/v2/knack/over-knack')
      .set({ Authorization: `Bearer ${dan.token}` })
      .send({ userId: dan.user.id })
      .expect(200);
    const mail = await smtp.nextMailTo(dan.form.email);
    expect(htmlOf(mail)).toContain(ESCAPED_GREETING);
    expect(htmlOf(mail)).not.toContain('<p>Hi Danscript,</p>');
    expect(htmlOf(mail)).not.toContain('<script>');
  });
});
