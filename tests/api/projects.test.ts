/**
 * Projects on the real database: a member groups their own pieces under a name (never another member's piece),
 * adds, renames and removes; removing keeps the pieces playable; content/update-projectid takes only a project of
 * the piece's owner; a project shows each piece as its own visibility allows; the ranking orders public projects
 * by the reactions of their pieces; "Download my data" and "Delete my account" take the member's projects (the
 * download reads them and their pieces by `_id` through the lists, never by a filter).
 */
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { ContentModel, transferOwner, type ContentDoc } from '../../server/modules/contents';
import { addOutsideReactions } from '../../server/modules/knacks';
import { ProjectModel, removeProjectsOf } from '../../server/modules/projects';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { publishPiece, type Member, type PublishedPiece } from '../helpers/e2e-pieces';
import { spyOnScans } from '../helpers/read-meter';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const NAME_EMPTY = 'Project name should not be empty';
const NOT_SELECTED = 'Project should be selected.';
const ADDED = 'Project is added successfully.';
const CONTENT_ADDED = 'The content is added to project successfully.';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let ana: Member;
let bea: Member;
let admin: Member;
let anaSong: PublishedPiece;
let anaPhoto: PublishedPiece;
let anaArt: PublishedPiece;
let beaSong: PublishedPiece;

const bearer = (member: Member) => ({ Authorization: `Bearer ${member.token}` });
const post = (member: Member, url: string, body: object) => request(app).post(`/api/v2${url}`).set(bearer(member)).send(body);
const get = (member: Member | null, url: string) => (member ? request(app).get(`/api/v2${url}`).set(bearer(member)) : request(app).get(`/api/v2${url}`));
const save = (member: Member, projectName: string, pieces: PublishedPiece[], userId = member.user.id) =>
  post(member, '/project/save', { userId, projectName, contentIds: JSON.stringify(pieces.map((piece) => piece.id)) });
const projectIdOf = async (piece: PublishedPiece) => (await ContentModel.findById(piece.id).lean<ContentDoc>())!.projectId?.toString() ?? null;
const setting = (change: Record<string, boolean>) => ({
  public: false,
  private: false,
  followers: false,
  hidePlayCount: false,
  hideViewCount: false,
  ...change,
});

beforeAll(async () => {
  await seedReferenceData();
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'Knack <no-reply@knack.test>') });
  ana = await createActiveMember(app, smtp, { firstName: 'Ana', lastName: 'Lima' });
  bea = await createActiveMember(app, smtp, { firstName: 'Bea', lastName: 'Moon' });
  admin = await createActiveMember(app, smtp, { email: 'admin@knack.example' });
  anaSong = await publishPiece(app, ana, { title: 'Harbor Song', tag: 'Music', subTag: 'Rock', hue: 200 });
  anaPhoto = await publishPiece(app, ana, { title: 'Harbor Dunes', tag: 'Photos', subTag: 'Travel', hue: 40 });
  anaArt = await publishPiece(app, ana, { title: 'Harbor Sketch', tag: 'Art', subTag: 'Pixel Art', hue: 120 });
  beaSong = await publishPiece(app, bea, { title: 'Moon Song', tag: 'Music', subTag: 'Rock', hue: 300 });
}, 120_000);

afterAll(async () => smtp.stop());

afterEach(async () => {
  await ProjectModel.deleteMany({});
  await ContentModel.updateMany({}, { $set: { projectId: null } });
});

describe('project/save', () => {
  it('when a member names some of their pieces, then 201 with the message, and the pieces are in the project', async () => {
    const res = await save(ana, '  Harbor  ', [anaSong, anaPhoto]).expect(201);
    expect(res.body.message).toBe(ADDED);
    expect(res.body.project).toMatchObject({ projectName: 'Harbor', userId: ana.user.id, pieceCount: 2, contentIds: [anaSong.id, anaPhoto.id] });
    expect(await projectIdOf(anaSong)).toBe(res.body.project.id);
    expect(await projectIdOf(anaPhoto)).toBe(res.body.project.id);
    expect(await projectIdOf(anaArt)).toBeNull();
  });

  it('when the name is empty or blank, then 400 with the spec message and nothing is kept', async () => {
    for (const name of ['', '   ']) {
      const res = await save(ana, name, [anaSong]).expect(400);
      expect(res.body.message).toBe(NAME_EMPTY);
    }
    expect(await ProjectModel.countDocuments({})).toBe(0);
  });

  it('when a piece is another member’s, then 404 and no project is made, nor the piece moved', async () => {
    const res = await save(ana, 'Stolen', [anaSong, beaSong]).expect(404);
    expect(res.body.message).toBe('Content not found');
    expect(await ProjectModel.countDocuments({})).toBe(0);
    expect(await projectIdOf(beaSong)).toBeNull();
    expect(await projectIdOf(anaSong)).toBeNull();
  });

  it('when contentIds is not a JSON list of ids, then 400; when userId is another member, then 404', async () => {
    for (const contentIds of ['not json', '{"a":1}', '["nope"]']) {
      const res = await post(ana, '/project/save', { userId: ana.user.id, projectName: 'X', contentIds }).expect(400);
      expect(res.body.message).toBe('contentIds must be a JSON list of piece ids.');
    }
    await save(ana, 'For Bea', [], bea.user.id).expect(404);
    await request(app).post('/api/v2/project/save').send({ userId: ana.user.id, projectName: 'X', contentIds: '[]' }).expect(401);
  });

  it('when a piece is already in another project, then it moves to the new one', async () => {
    const first = (await save(ana, 'First', [anaSong]).expect(201)).body.project.id;
    const second = (await save(ana, 'Second', [anaSong]).expect(201)).body.project.id;
    expect(await projectIdOf(anaSong)).toBe(second);
    expect((await get(ana, `/project/content/${first}`).expect(200)).body.contents).toEqual([]);
  });
});

describe('project/add-to-project', () => {
  it('when the owner adds a piece, then 200 with the message and the piece is in it', async () => {
    const project = (await save(ana, 'Harbor', [anaSong]).expect(201)).body.project.id;
    const res = await post(ana, '/project/add-to-project', { projectId: project, contentId: anaArt.id }).expect(200);
    expect(res.body.message).toBe(CONTENT_ADDED);
    expect(res.body.project.contentIds).toEqual([anaSong.id, anaArt.id]);
  });

  it('when no project is chosen, then 400 "Project should be selected."', async () => {
    const res = await post(ana, '/project/add-to-project', { projectId: '', contentId: anaArt.id }).expect(400);
    expect(res.body.message).toBe(NOT_SELECTED);
  });

  it('when the piece or the project is another member’s, or the project is missing, then 404 and nothing moves', async () => {
    const anas = (await save(ana, 'Harbor', []).expect(201)).body.project.id;
    const beas = (await save(bea, 'Moon', []).expect(201)).body.project.id;
    await post(ana, '/project/add-to-project', { projectId: anas, contentId: beaSong.id }).expect(404);
    await post(ana, '/project/add-to-project', { projectId: beas, contentId: anaSong.id }).expect(404);
    await post(bea, '/project/add-to-project', { projectId: anas, contentId: beaSong.id }).expect(404);
    await post(ana, '/project/add-to-project', { projectId: '0123456789abcdef01234567', contentId: anaSong.id }).expect(404);
    expect(await projectIdOf(beaSong)).toBeNull();
    expect(await projectIdOf(anaSong)).toBeNull();
  });
});

describe('project/update and project/delete', () => {
  it('when the owner renames, then the new name; an empty name answers the spec message', async () => {
    const project = (await save(ana, 'Harbor', [anaSong]).expect(201)).body.project.id;
    const res = await post(ana, '/project/update', { projectId: project, projectName: ' Harbor Nights ' }).expect(200);
    expect(res.body.project.projectName).toBe('Harbor Nights');
    expect((await post(ana, '/project/update', { projectId: project, projectName: ' ' }).expect(400)).body.message).toBe(NAME_EMPTY);
  });

  it('when another member renames or removes it, then 404 and it stays as it was', async () => {
    const project = (await save(ana, 'Harbor', [anaSong]).expect(201)).body.project.id;
    expect((await post(bea, '/project/update', { projectId: project, projectName: 'Mine' }).expect(404)).body.message).toBe('Project not found');
    await post(bea, '/project/delete', { projectId: project }).expect(404);
    expect((await ProjectModel.findById(project).lean())?.projectName).toBe('Harbor');
    expect(await projectIdOf(anaSong)).toBe(project);
  });

  it('when the owner removes it, then its pieces stay published and playable, out of any project', async () => {
    const project = (await save(ana, 'Harbor', [anaSong, anaPhoto]).expect(201)).body.project.id;
    const res = await post(ana, '/project/delete', { projectId: project }).expect(200);
    expect(res.body.message).toBe('The project is removed successfully.');
    expect(await ProjectModel.findById(project)).toBeNull();
    for (const piece of [anaSong, anaPhoto]) {
      expect(await projectIdOf(piece)).toBeNull();
      const detail = await get(bea, `/content/get-by-id/${piece.id}`).expect(200);
      expect(detail.body.content.projectId).toBeNull();
      await request(app).get(detail.body.content.filePath).expect(200);
    }
    await get(bea, `/project/content/${project}`).expect(404);
  });

  it('when an admin removes a member’s project, then it goes', async () => {
    const project = (await save(ana, 'Harbor', [anaSong]).expect(201)).body.project.id;
    await post(admin, '/project/delete', { projectId: project }).expect(200);
    expect(await projectIdOf(anaSong)).toBeNull();
  });
});

describe('content/update-projectid', () => {
  it('when the owner names their own project, then the piece joins it; empty takes it out', async () => {
    const project = (await save(ana, 'Harbor', []).expect(201)).body.project.id;
    const joined = await post(ana, '/content/update-projectid', { contentId: anaArt.id, projectId: project }).expect(200);
    expect(joined.body.content.projectId).toBe(project);
    const left = await post(ana, '/content/update-projectid', { contentId: anaArt.id, projectId: '' }).expect(200);
    expect(left.body.content.projectId).toBeNull();
    expect(await projectIdOf(anaArt)).toBeNull();
  });

  it('when the project is another member’s or missing, then 404 and the piece stays where it was', async () => {
    const beas = (await save(bea, 'Moon', []).expect(201)).body.project.id;
    for (const projectId of [beas, '0123456789abcdef01234567']) {
      const res = await post(ana, '/content/update-projectid', { contentId: anaArt.id, projectId }).expect(404);
      expect(res.body.message).toBe('Project not found');
    }
    await post(bea, '/content/update-projectid', { contentId: anaArt.id, projectId: beas }).expect(404);
    expect(await projectIdOf(anaArt)).toBeNull();
  });
});

describe('the lists', () => {
  it('when others read a project, then pieces that are private or taken down are left out, and hidden counts stay hidden', async () => {
    const project = (await save(ana, 'Harbor', [anaSong, anaPhoto, anaArt]).expect(201)).body.project.id;
    await post(admin, '/content/update-setting', { contentId: anaPhoto.id, setting: setting({ private: true }) }).expect(200);
    await post(admin, '/content/update-setting', { contentId: anaSong.id, setting: setting({ public: true, hidePlayCount: true }) }).expect(200);
    await ContentModel.updateOne({ _id: anaArt.id }, { $set: { takenDown: true } });
    try {
      for (const reader of [bea, null]) {
        const res = await get(reader, `/project/content/${project}`).expect(200);
        expect(res.body.contents.map((piece: { id: string }) => piece.id)).toEqual([anaSong.id]);
        expect(res.body.contents[0].reactedCount).toBeNull();
        expect(res.body.project).toMatchObject({ pieceCount: 1, contentIds: [anaSong.id] });
        const list = await get(reader, `/project/${ana.user.id}`).expect(200);
        expect(list.body.projects).toEqual([expect.objectContaining({ id: project, pieceCount: 1, contentIds: [anaSong.id] })]);
      }
      const own = await get(ana, `/project/content/${project}`).expect(200);
      expect(own.body.contents.map((piece: { id: string }) => piece.id)).toEqual([anaSong.id, anaPhoto.id, anaArt.id]);
    } finally {
      await ContentModel.updateOne({ _id: anaArt.id }, { $set: { takenDown: false } });
      for (const piece of [anaSong, anaPhoto])
        await post(admin, '/content/update-setting', { contentId: piece.id, setting: setting({ public: true }) }).expect(200);
    }
  });

  it('when a member has projects, then project/{userId} lists them newest first; a missing member answers 404', async () => {
    await save(ana, 'Older', [anaSong]).expect(201);
    await save(ana, 'Newer', [anaPhoto]).expect(201);
    const res = await get(null, `/project/${ana.user.id}`).expect(200);
    expect(res.body.projects.map((project: { projectName: string }) => project.projectName)).toEqual(['Newer', 'Older']);
    expect(res.body.projects[0]).toMatchObject({ ownerUsername: ana.form.username, pieceCount: 1, coverPath: expect.any(String) });
    await get(null, '/project/0123456789abcdef01234567').expect(404);
    await get(null, '/project/content/0123456789abcdef01234567').expect(404);
  });

  it('when projects are ranked, then by the reactions of their public pieces, and a project of private pieces only is left out', async () => {
    const quiet = (await save(ana, 'Quiet', [anaPhoto]).expect(201)).body.project.id;
    const loud = (await save(bea, 'Loud', [beaSong]).expect(201)).body.project.id;
    const hidden = (await save(ana, 'Hidden', [anaArt]).expect(201)).body.project.id;
    await addOutsideReactions((await ContentModel.findById(beaSong.id).lean<ContentDoc>())!, 4);
    await addOutsideReactions((await ContentModel.findById(anaPhoto.id).lean<ContentDoc>())!, 1);
    await post(admin, '/content/update-setting', { contentId: anaArt.id, setting: setting({ private: true }) }).expect(200);
    try {
      const res = await get(null, '/project/project-for-ranking').expect(200);
      const ranked = res.body.projects.map((project: { id: string; reactedCount: number }) => [project.id, project.reactedCount]);
      const beaReactions = (await ContentModel.findById(beaSong.id).lean<ContentDoc>())!.reactedCount;
      const anaReactions = (await ContentModel.findById(anaPhoto.id).lean<ContentDoc>())!.reactedCount;
      expect(beaReactions).toBeGreaterThan(anaReactions);
      expect(ranked).toEqual([
        [loud, beaReactions],
        [quiet, anaReactions],
      ]);
      expect(ranked.map(([id]: [string]) => id)).not.toContain(hidden);
    } finally {
      await post(admin, '/content/update-setting', { contentId: anaArt.id, setting: setting({ public: true }) }).expect(200);
    }
  });
});

describe('"Download my data" and "Delete my account"', () => {
  it('when Ana downloads her data, then her projects are in it with their pieces; when her account goes, so do her projects', async () => {
    const project = (await save(ana, 'Harbor', [anaSong, anaPhoto]).expect(201)).body.project.id;
    await save(bea, 'Moon', [beaSong]).expect(201);
    const data = await get(ana, `/user-setting/download-data/${ana.user.id}`).expect(200);
    expect(data.body.projects).toEqual([{ id: project, projectName: 'Harbor', contentIds: [anaSong.id, anaPhoto.id], createdAt: expect.any(String) }]);

    expect(await removeProjectsOf(ana.user.id)).toBe(1);
    expect(await ProjectModel.findById(project)).toBeNull();
    expect(await projectIdOf(anaSong)).toBeNull();
    expect(await ProjectModel.countDocuments({ userId: bea.user.id })).toBe(1);
    expect(await removeProjectsOf(ana.user.id)).toBe(0);
  });

  it('when Ana downloads her projects, then they and their pieces are read by _id through her lists: a removed project and a piece sold are left out, in the same order as before', async () => {
    const first = (await save(ana, 'First', [anaSong, anaPhoto]).expect(201)).body.project.id;
    const second = (await save(ana, 'Second', [anaArt]).expect(201)).body.project.id;
    const gone = (await save(ana, 'Gone', []).expect(201)).body.project.id;
    await post(ana, '/project/delete', { projectId: gone }).expect(200);
    // Moved from First into Second, after the piece already there (which is newer).
    await post(ana, '/project/add-to-project', { projectId: second, contentId: anaPhoto.id }).expect(200);
    // A piece in First sold to Bea: it stays in the project's list but is no longer Ana's.
    const sold = await publishPiece(app, ana, { title: 'Harbor Lights', tag: 'Photos', subTag: 'Travel', hue: 80 });
    await post(ana, '/project/add-to-project', { projectId: first, contentId: sold.id }).expect(200);
    await transferOwner(new Types.ObjectId(sold.id), { id: new Types.ObjectId(bea.user.id), username: bea.form.username, fullName: 'Bea Moon' });
    await save(bea, 'Moon', [beaSong]).expect(201);
    // Second dated before First (as its time says, not as it was listed): the export goes by the time.
    await ProjectModel.updateOne({ _id: second }, { $set: { createdAt: new Date(Date.now() - 60_000) } });

    const spy = spyOnScans('projects', 'project_lists', 'project_pieces', 'contents');
    let data: { projects: { id: string; projectName: string; contentIds: string[] }[] };
    try {
      data = (await get(ana, `/user-setting/download-data/${ana.user.id}`).expect(200)).body;
      expect(spy.scans()).toEqual([]);
      expect(spy.reads()).toBeGreaterThan(0);
    } finally {
      spy.restore();
    }
    // Each project's pieces oldest first (by id), as before, whatever order they joined it in.
    expect(data.projects.map(({ projectName, contentIds }) => [projectName, contentIds])).toEqual([
      ['Second', [anaPhoto.id, anaArt.id]],
      ['First', [anaSong.id]],
    ]);
    expect(data.projects[1]!.id).toBe(first);
  });
});
