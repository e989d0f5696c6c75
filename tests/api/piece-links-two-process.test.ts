/**
 * Piece links (contents/contents.links.ts) across two app processes: a share link `/{username}-{slug}` is read by
 * key (the member by their username's key, the piece by `{ownerId}/{slug}`), and a slug is claimed by insert when a
 * piece is published. So pieces with one title published at once through two processes each get a link of their
 * own, every link leads to its piece, and the keys equal their rebuild from the pieces (the `piece-links` kept
 * state). The file first marks the keys complete, so no read falls back to a scan: a change that did not keep its
 * key shows as a wrong answer here.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { ContentModel, ensurePieceLinks, pieceLinksState } from '../../server/modules/contents';
import { ContentLinkModel } from '../../server/modules/contents/testing';
import { ensureMemberKeys, memberKeysState } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { coverPng } from '../helpers/e2e-pieces';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let second: SecondApp;
type Member = Awaited<ReturnType<typeof createActiveMember>>;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  second = await startSecondApp();
  await seedReferenceData();
  expect(await ensureMemberKeys()).toBe(true);
  expect(await ensurePieceLinks()).toBe(true);
}, 90_000);
afterAll(async () => {
  await second?.stop();
  await smtp.stop();
});

/** Every other request goes to the other process: only what the database holds can keep them apart. */
const either = (i: number) => (i % 2 ? second.url : app);
const bearer = (member: Member) => ({ Authorization: `Bearer ${member.token}` });

/** Uploads a cover through `target` (the process whose storage keeps the file), for a save through the same one. */
async function uploadCover(target: ReturnType<typeof either>, member: Member, hue: number): Promise<string> {
  const res = await request(target)
    .post('/api/v2/content/upload-photo')
    .set(bearer(member))
    .attach('file', await coverPng(hue, 64), 'cover.png')
    .expect(201);
  return res.body.path as string;
}

const save = (target: ReturnType<typeof either>, member: Member, title: string, photoPath: string) =>
  request(target)
    .post('/api/v2/content/save')
    .set(bearer(member))
    .send({ title, description: 'A test', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath });

async function expectLinksExact(): Promise<void> {
  const report = await pieceLinksState.check();
  expect(report.differences).toEqual([]);
  expect(report.checked).toBeGreaterThan(0);
}

describe('one title published at once through two app processes', () => {
  it('when a member saves 4 pieces called “Harbour Lights” at once, then each gets its own link, each link leads to its piece from either process, and the keys are exact', async () => {
    const ana = await createActiveMember(app, smtp);
    const covers = await Promise.all([0, 1, 2, 3].map((i) => uploadCover(either(i), ana, i * 40)));
    const answers = await Promise.all(covers.map((cover, i) => save(either(i), ana, 'Harbour Lights', cover)));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201]);
    const pieces = answers.map((res) => res.body.content as { id: string; slug: string; link: string });
    expect(pieces.map((piece) => piece.link).sort()).toEqual(
      ['harbour-lights', 'harbour-lights-2', 'harbour-lights-3', 'harbour-lights-4'].map((slug) => `/${ana.form.username}-${slug}`),
    );
    for (const [i, piece] of pieces.entries()) {
      const slug = piece.link.slice(`/${ana.form.username}-`.length);
      const found = await request(either(i + 1))
        .get(`/api/v2/content/get-by-link/${ana.form.username}/${slug}`)
        .expect(200);
      expect(found.body.content.id).toBe(piece.id);
    }
    await expectLinksExact();
  }, 90_000);
});

describe('links as the pieces and their owners change', () => {
  it('when the owner renames, then the link with the new name and the one with the old name both lead to the piece, and no key changed', async () => {
    const bea = await createActiveMember(app, smtp);
    const saved = await save(app, bea, 'Quiet Street', await uploadCover(app, bea, 200)).expect(201);
    const piece = saved.body.content as { id: string };
    const renamed = `bea_${Date.now()}`;
    await request(second.url).post(`/api/v2/user-setting/update-username/${bea.user.id}`).set(bearer(bea)).send({ username: renamed }).expect(200);
    const byNew = await request(app).get(`/api/v2/content/get-by-link/${renamed}/quiet-street`).expect(200);
    expect(byNew.body.content).toMatchObject({ id: piece.id, ownerUsername: renamed, link: `/${renamed}-quiet-street` });
    const byOld = await request(second.url).get(`/api/v2/content/get-by-link/${bea.form.username}/quiet-street`).expect(200);
    expect(byOld.body.content).toMatchObject({ id: piece.id, link: `/${renamed}-quiet-street` });
    await request(app).get(`/api/v2/content/get-by-link/${renamed}/no-such-piece`).expect(404);
    await expectLinksExact();
    expect((await memberKeysState.check()).differences).toEqual([]);
  }, 60_000);

  it('when a piece is deleted, then its link answers 404, its key is gone, and a new piece of the same title takes the link', async () => {
    const cal = await createActiveMember(app, smtp);
    const first = (await save(app, cal, 'Old Mill', await uploadCover(app, cal, 100)).expect(201)).body.content as { id: string };
    await request(second.url).post('/api/v2/content/delete').set(bearer(cal)).send({ contentId: first.id }).expect(200);
    await request(app).get(`/api/v2/content/get-by-link/${cal.form.username}/old-mill`).expect(404);
    await expectLinksExact();
    const again = (await save(second.url, cal, 'Old Mill', await uploadCover(second.url, cal, 120)).expect(201)).body.content as { id: string; link: string };
    expect(again.link).toBe(`/${cal.form.username}-old-mill`);
    expect((await request(app).get(`/api/v2/content/get-by-link/${cal.form.username}/old-mill`).expect(200)).body.content.id).toBe(again.id);
    await expectLinksExact();
  }, 60_000);

  it('when a database has pieces but no link keys (written before keys existed), then the check lists them, and the start-up rebuild makes the links work by key', async () => {
    const dan = await createActiveMember(app, smtp);
    const piece = (await save(app, dan, 'Night Ferry', await uploadCover(app, dan, 300)).expect(201)).body.content as { id: string };
    await ContentLinkModel.deleteMany({});
    const report = await pieceLinksState.check();
    expect(report.differences).toContain(`${dan.user.id}/night-ferry: no key, held by ${piece.id}`);
    expect(report.differences).toContain('the keys are not marked complete: the rebuild has not run on this database');
    expect(await ensurePieceLinks()).toBe(true);
    await expectLinksExact();
    expect((await request(second.url).get(`/api/v2/content/get-by-link/${dan.form.username}/night-ferry`).expect(200)).body.content.id).toBe(piece.id);
  }, 60_000);

  it('when keys are complete and a piece has lost its key, then its link is not found (no scan), and the check names it until the rebuild', async () => {
    const eve = await createActiveMember(app, smtp);
    const piece = (await save(app, eve, 'Salt Marsh', await uploadCover(app, eve, 30)).expect(201)).body.content as { id: string };
    await ContentLinkModel.deleteOne({ _id: `${eve.user.id}/salt-marsh` });
    await request(app).get(`/api/v2/content/get-by-link/${eve.form.username}/salt-marsh`).expect(404);
    expect((await pieceLinksState.check()).differences).toEqual([`${eve.user.id}/salt-marsh: no key, held by ${piece.id}`]);
    await pieceLinksState.rebuild();
    await request(app).get(`/api/v2/content/get-by-link/${eve.form.username}/salt-marsh`).expect(200);
    expect(await ContentModel.countDocuments({ ownerUsername: eve.form.username })).toBe(1);
  }, 60_000);
});
