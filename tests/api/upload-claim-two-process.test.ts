/**
 * One upload, one piece, across processes: a member publishes two pieces with the same cover at once, one
 * through this test's app and one through a second app process on the same database. Exactly one piece is
 * published; the other request is told the upload is used, and nothing else is left behind.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import { ContentModel } from '../../server/modules/contents';
import { UploadModel } from '../../server/modules/media';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { png } from '../helpers/media';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-claim-test-'));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let second: SecondApp;
let ana: Awaited<ReturnType<typeof createActiveMember>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage: localStorage(root) });
  await seedReferenceData();
  ana = await createActiveMember(app, smtp);
  second = await startSecondApp();
}, 120_000);
afterAll(async () => {
  await second?.stop();
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
});

const bearer = () => ({ Authorization: `Bearer ${ana.token}` });
const publish = (through: Parameters<typeof request>[0], title: string, photoPath: string) =>
  request(through)
    .post('/api/v2/content/save')
    .set(bearer())
    .send({ title, description: 'One cover, two pieces', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath });

describe('an upload claimed by two pieces at once, through two processes', () => {
  it('when both are published at the same moment, then one piece exists and the other request is told the upload is used', async () => {
    // Several uploads, each raced by both processes: one race can be won by timing alone, all of them cannot.
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const photo = (
        await request(app)
          .post('/api/v2/content/upload-photo')
          .set(bearer())
          .attach('file', await png(), 'cover.png')
          .expect(201)
      ).body;
      const [here, there] = await Promise.all([publish(app, `Here ${round}`, photo.path), publish(second.url, `There ${round}`, photo.path)]);

      const answers = [here, there];
      expect(answers.map((a) => a.status).sort()).toEqual([201, 400]);
      const loser = answers.find((a) => a.status === 400)!;
      expect(loser.body).toMatchObject({
        message: 'That upload was not found. Please upload the file again.',
        errors: [{ path: 'photoPath', message: 'That upload was not found. Please upload the file again.' }],
      });
      const winner = answers.find((a) => a.status === 201)!;

      const pieces = (await ContentModel.find({ ownerId: ana.user.id }, { title: 1 }).lean()).filter((p) => p.title.endsWith(` ${round}`));
      expect(pieces.map((p) => String(p._id))).toEqual([winner.body.content.id]);
      expect((await UploadModel.findOne({ key: photo.path }).lean())!.usedBy).toBe(`content:${winner.body.content.id}`);
    }
  }, 120_000);
});
