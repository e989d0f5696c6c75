/**
 * The lists that projects, collections and file versions are read through (by `_id` only): each member's list of
 * projects, each project's list of pieces, each member's chain of the pieces they paid for, each piece's chain of its
 * file versions. Changed from two app processes at once (projects made, pieces moved between them, projects
 * removed; listing fees paid; files replaced and restored), each kept state's check then finds nothing, and what the
 * API answers equals a recount from the facts (the projects, the pieces' `projectId` and `payerId`, the version
 * records). A fact written without its list entry (what a process that stopped between the two leaves) is reported
 * by the check and mended by the rebuild.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Types } from 'mongoose';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { smtpMailer } from '../../server/integrations/mail';
import { localStorage } from '../../server/integrations/storage';
import {
  ContentModel,
  contentVersionsState,
  MAX_PIECES_PER_PROJECT,
  projectPiecesState,
  setPiecesProject,
  supportedPiecesState,
  type ContentDoc,
} from '../../server/modules/contents';
import { ContentVersionModel } from '../../server/modules/contents/testing';
import { MAX_PROJECTS_PER_MEMBER, ProjectModel, projectListsState, type ProjectDoc } from '../../server/modules/projects';
import { grantCredits } from '../../server/modules/users';
import { createTestApp } from '../helpers/app';
import { createActiveMember } from '../helpers/auth';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { coverPng, publishPiece } from '../helpers/e2e-pieces';
import { createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { startSecondApp, type SecondApp } from '../helpers/second-process';
import { startSmtpServer } from '../helpers/smtp';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-lists-test-'));
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let app: ReturnType<typeof createTestApp>;
let second: SecondApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
  app = createTestApp({ mailer: smtpMailer(smtp.url, 'x@knack.test'), storage: localStorage(root) });
}, 60_000);
// A second process per test: one that outlived the emptied database would still remember the ends of lists the
// database no longer has (a running app never sees its database emptied under it).
beforeEach(async () => {
  await clearDatabase();
  await seedReferenceData();
  second = await startSecondApp({ storageRoot: root });
}, 120_000);
afterEach(async () => second?.stop());
afterAll(async () => {
  await smtp.stop();
  rmSync(root, { recursive: true, force: true });
});

type Through = Parameters<typeof request>[0];
type Caller = { token: string };
const auth = (caller: Caller) => ({ Authorization: `Bearer ${caller.token}` });
const post = (through: Through, caller: Caller, url: string, body: object) => request(through).post(`/api/v2${url}`).set(auth(caller)).send(body);
const get = (caller: Caller | null, url: string) => (caller ? request(app).get(`/api/v2${url}`).set(auth(caller)) : request(app).get(`/api/v2${url}`));
const sorted = (ids: string[]) => [...ids].sort();
const checks = async (...states: { check(): Promise<{ differences: string[] }> }[]) =>
  Promise.all(states.map(async (state) => (await state.check()).differences));

describe('projects and their pieces', () => {
  const states = [projectListsState, projectPiecesState];

  /** What the facts say: the member's projects, each with the ids of their own pieces pointing at it. */
  async function projectFacts(member: TestMember): Promise<Map<string, string[]>> {
    const projects = await ProjectModel.find({ userId: member.id }).lean<ProjectDoc[]>();
    const pieces = await ContentModel.find({ ownerId: member.id }, { projectId: 1 }).lean<ContentDoc[]>();
    return new Map(projects.map((project) => [String(project._id), pieces.filter((p) => p.projectId?.equals(project._id)).map((p) => String(p._id))]));
  }

  /** Asserts that the project list and every project's page, as `viewer` sees them, equal the facts (`hidden` left out for others). */
  async function expectAnswersEqualFacts(member: TestMember, viewer: Caller | null, hidden: Set<string>): Promise<void> {
    const facts = await projectFacts(member);
    const visible = (ids: string[]) => sorted(ids.filter((id) => !hidden.has(id)));
    const list = (await get(viewer, `/project/${member.id}`).expect(200)).body.projects as { id: string; contentIds: string[]; pieceCount: number }[];
    expect(sorted(list.map((project) => project.id))).toEqual(sorted([...facts.keys()]));
    for (const project of list) {
      expect({ id: project.id, pieces: sorted(project.contentIds), count: project.pieceCount }).toEqual({
        id: project.id,
        pieces: visible(facts.get(project.id)!),
        count: visible(facts.get(project.id)!).length,
      });
      const page = (await get(viewer, `/project/content/${project.id}`).expect(200)).body as { contents: { id: string }[] };
      expect(sorted(page.contents.map((piece) => piece.id))).toEqual(visible(facts.get(project.id)!));
    }
  }

  it('when two processes make projects, move pieces between them and remove one at once, then the checks find nothing and the lists equal the facts', async () => {
    const ana = await createMember();
    const bea = await createMember();
    const pieces = await Promise.all(Array.from({ length: 8 }, (_, i) => createPiece(ana, { title: `Piece ${i}` })));
    const ids = pieces.map((piece) => piece.id);
    const save = (through: Through, name: string, of: number[]) =>
      post(through, ana, '/project/save', { userId: ana.id, projectName: name, contentIds: JSON.stringify(of.map((i) => ids[i])) }).expect(201);
    // Overlapping pieces: each of pieces 1, 2 and 5 is moved by both processes at once.
    const made = await Promise.all([save(app, 'A', [0, 1, 2]), save(second.url, 'B', [1, 2, 3]), save(app, 'C', [4, 5]), save(second.url, 'D', [5, 6, 7])]);
    const [a, b, c, d] = made.map((res) => res.body.project.id as string);
    expect(await checks(...states)).toEqual([[], []]);

    const moves = await Promise.all([
      post(app, ana, '/project/add-to-project', { projectId: b, contentId: ids[0] }),
      post(second.url, ana, '/project/add-to-project', { projectId: c, contentId: ids[0] }),
      post(app, ana, '/content/update-projectid', { contentId: ids[3], projectId: '' }),
      post(second.url, ana, '/project/add-to-project', { projectId: a, contentId: ids[3] }),
      post(app, ana, '/project/add-to-project', { projectId: a, contentId: ids[5] }),
      post(second.url, ana, '/project/add-to-project', { projectId: b, contentId: ids[5] }),
      post(app, ana, '/project/delete', { projectId: d }),
      post(second.url, ana, '/project/save', { userId: ana.id, projectName: 'E', contentIds: JSON.stringify([ids[6], ids[7]]) }),
    ]);
    expect(moves.map((res) => res.status)).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    // A piece moved back and forth by both processes at once.
    await Promise.all(
      [a, b, a, b].map((projectId, i) => post(i % 2 ? second.url : app, ana, '/project/add-to-project', { projectId, contentId: ids[1] }).expect(200)),
    );
    // Made private (a setting, which no list holds): others no longer see it in its project.
    await ContentModel.updateOne({ _id: ids[2] }, { $set: { 'setting.public': false, 'setting.private': true, listed: false } });

    expect(await checks(...states)).toEqual([[], []]);
    await expectAnswersEqualFacts(ana, ana, new Set());
    await expectAnswersEqualFacts(ana, bea, new Set([ids[2]!]));
    await expectAnswersEqualFacts(ana, null, new Set([ids[2]!]));
    expect(await ProjectModel.exists({ _id: d })).toBeNull();
  });

  it('when a project or a piece’s project is written behind the lists, then the check reports it, and the rebuild mends it', async () => {
    const ana = await createMember();
    const [first, second] = await Promise.all([createPiece(ana), createPiece(ana)]);
    const made = (await post(app, ana, '/project/save', { userId: ana.id, projectName: 'Listed', contentIds: JSON.stringify([first!.id]) }).expect(201)).body
      .project.id as string;
    const unlisted = new Types.ObjectId();
    await ProjectModel.create({ _id: unlisted, userId: ana.id, projectName: 'Unlisted', createdAt: new Date() });
    await ContentModel.updateOne({ _id: second!.id }, { $set: { projectId: new Types.ObjectId(made) } });

    const [projectLists, projectPieces] = await checks(...states);
    expect(projectLists).toEqual([`member ${ana.id}: projects ${String(unlisted)} are not in their list`]);
    expect(projectPieces).toEqual([`project ${made}: pieces ${second!.id} point at it but are not in its list`]);
    const before = (await get(ana, `/project/${ana.id}`).expect(200)).body.projects as { id: string; contentIds: string[] }[];
    expect(before.map((project) => [project.id, project.contentIds])).toEqual([[made, [first!.id]]]);

    for (const state of states) await state.rebuild();
    expect(await checks(...states)).toEqual([[], []]);
    await expectAnswersEqualFacts(ana, ana, new Set());
  });
});

describe('the limits that keep a project list bounded', () => {
  it('when a project holds 200 pieces, then one more answers 409 and stays where it was; a piece that left makes room', async () => {
    const ana = await createMember();
    const pieces: TestPiece[] = [];
    for (let i = 0; i <= MAX_PIECES_PER_PROJECT; i += 1) pieces.push(await createPiece(ana, { title: `Piece ${i}` }));
    const full = pieces.slice(0, MAX_PIECES_PER_PROJECT).map((piece) => piece.id);
    // Half through the call (its text has room for about 180 ids), half through the contents module's writer.
    const saved = await post(app, ana, '/project/save', { userId: ana.id, projectName: 'Full', contentIds: JSON.stringify(full.slice(0, 100)) }).expect(201);
    await setPiecesProject(full.slice(100), saved.body.project.id);
    const project = (await get(ana, `/project/content/${saved.body.project.id}`).expect(200)).body.project as { id: string; pieceCount: number };
    expect(project.pieceCount).toBe(MAX_PIECES_PER_PROJECT);
    const extra = pieces[MAX_PIECES_PER_PROJECT]!.id;
    for (const [url, body] of [
      ['/project/add-to-project', { projectId: project.id, contentId: extra }],
      ['/content/update-projectid', { contentId: extra, projectId: project.id }],
    ] as const) {
      expect((await post(second.url, ana, url, body).expect(409)).body.message).toBe('A project holds at most 200 pieces.');
    }
    expect((await ContentModel.findById(extra).lean<ContentDoc>())!.projectId).toBeNull();
    // A piece that left (behind the list, as a move that stopped half-way leaves it) is cleared from the list to make room.
    await ContentModel.updateOne({ _id: full[0] }, { $set: { projectId: null } });
    await post(app, ana, '/project/add-to-project', { projectId: project.id, contentId: extra }).expect(200);
    const page = (await get(ana, `/project/content/${project.id}`).expect(200)).body as { project: { pieceCount: number; contentIds: string[] } };
    expect(page.project.pieceCount).toBe(MAX_PIECES_PER_PROJECT);
    expect(page.project.contentIds.at(-1)).toBe(extra);
    expect(await checks(projectPiecesState)).toEqual([[]]);
  }, 180_000);

  it('when a member has 100 projects, then another answers 409 and is not kept; removing one makes room', async () => {
    const ana = await createMember();
    const made: string[] = [];
    for (let i = 0; i < MAX_PROJECTS_PER_MEMBER; i += 1) {
      made.push(
        (await post(i % 2 ? second.url : app, ana, '/project/save', { userId: ana.id, projectName: `P${i}`, contentIds: '[]' }).expect(201)).body.project.id,
      );
    }
    const refused = await post(app, ana, '/project/save', { userId: ana.id, projectName: 'One more', contentIds: '[]' }).expect(409);
    expect(refused.body.message).toBe('A member has at most 100 projects.');
    expect(await ProjectModel.countDocuments({ userId: ana.id })).toBe(MAX_PROJECTS_PER_MEMBER);
    await post(second.url, ana, '/project/delete', { projectId: made[0] }).expect(200);
    await post(app, ana, '/project/save', { userId: ana.id, projectName: 'One more', contentIds: '[]' }).expect(201);
    const list = (await get(ana, `/project/${ana.id}`).expect(200)).body.projects as { projectName: string }[];
    expect(list).toHaveLength(MAX_PROJECTS_PER_MEMBER);
    expect(list[0]!.projectName).toBe('One more');
    expect(await checks(projectListsState)).toEqual([[]]);
  }, 180_000);
});

describe('a member’s collection', () => {
  /** Every page of the member's collection, through the API (small pages, so that paging is part of what is checked). */
  async function collection(member: TestMember): Promise<string[]> {
    const ids: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 50; pages += 1) {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const body = (await get(member, `/content/get-supported/${member.id}${query}`).expect(200)).body as {
        contents: { id: string }[];
        nextCursor: string | null;
      };
      ids.push(...body.contents.map((piece) => piece.id));
      cursor = body.nextCursor;
      if (!cursor) return ids;
    }
    throw new Error('the collection did not end within 50 pages');
  }

  /** What the pieces say: the listed pieces of others that the member paid for. */
  async function collectionFacts(member: TestMember): Promise<string[]> {
    const pieces = await ContentModel.find({ payerId: member.id }, { ownerId: 1, listed: 1 }).lean<ContentDoc[]>();
    return pieces.filter((piece) => String(piece.ownerId) !== member.id && piece.listed).map((piece) => String(piece._id));
  }

  it('when a member pays for pieces through two processes at once, then the check finds nothing and the collection equals the pieces paid', async () => {
    const ana = await createMember();
    const bea = await createMember();
    await grantCredits(bea.id, { standard: 12, premium: 0 }, `plan:lists-test:${bea.id}`, 'lists-test');
    const others = await Promise.all(Array.from({ length: 7 }, () => createPiece(ana)));
    const own = await createPiece(bea);
    const pay = (through: Through, piece: TestPiece) => post(through, bea, '/content/paid', { userId: bea.id, contentId: piece.id });
    const paid = await Promise.all([
      ...others.map((piece, i) => pay(i % 2 ? second.url : app, piece)),
      pay(app, own),
      // The same piece from both processes: one credit pays it; the other answers it paid, or already paid.
      pay(second.url, others[0]!),
    ]);
    expect(paid.slice(0, 8).map((res) => res.status)).toEqual(Array.from({ length: 8 }, () => 200));
    expect([200, 409]).toContain(paid[8]!.status);

    expect((await supportedPiecesState.check()).differences).toEqual([]);
    const facts = await collectionFacts(bea);
    expect(facts).toHaveLength(7);
    expect(sorted(await collection(bea))).toEqual(sorted(facts));
    // A piece taken off the lists leaves the collection; the piece's payer stays the truth.
    await ContentModel.updateOne({ _id: others[3]!.id }, { $set: { listed: false } });
    expect(sorted(await collection(bea))).toEqual(sorted(await collectionFacts(bea)));
    expect(await collection(bea)).toHaveLength(6);
  });

  it('when a payer is written behind the collection, then the check reports it, and the rebuild mends it', async () => {
    const ana = await createMember();
    const bea = await createMember();
    const piece = await createPiece(ana);
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isPaidOut: true, payerId: new Types.ObjectId(bea.id) } });
    expect((await supportedPiecesState.check()).differences).toEqual([`member ${bea.id}: piece ${piece.id} is theirs to list but not in their chain`]);
    expect(await collection(bea)).toEqual([]);
    await supportedPiecesState.rebuild();
    expect((await supportedPiecesState.check()).differences).toEqual([]);
    expect(await collection(bea)).toEqual([piece.id]);
    await supportedPiecesState.rebuild();
    expect(await collection(bea)).toEqual([piece.id]);
  });
});

describe('a piece’s file versions', () => {
  /** What the records say: the piece's kept versions still restorable, the latest replaced first. */
  async function versionFacts(contentId: string): Promise<string[]> {
    const records = await ContentVersionModel.find({ contentId }).lean<{ _id: Types.ObjectId; state: string; keepUntil: Date; replacedAt: Date }[]>();
    return records
      .filter((record) => record.state === 'kept' && record.keepUntil.getTime() > Date.now())
      .sort((x, y) => y.replacedAt.getTime() - x.replacedAt.getTime())
      .map((record) => String(record._id));
  }

  it('when two processes replace and restore a piece’s files at once, then the check finds nothing and the list equals the records', async () => {
    const ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
    const piece = await publishPiece(app, ana, { title: 'Harbor Sketch', tag: 'Art', subTag: 'Pixel Art', hue: 120 });
    const replace = async (through: Through, hue: number) =>
      request(through)
        .post(`/api/v2/content/file/${piece.id}/image`)
        .set(auth(ana))
        .attach('file', await coverPng(hue, 320), `cover-${hue}.png`);
    const replaced = await Promise.all([replace(app, 10), replace(second.url, 60), replace(app, 110), replace(second.url, 160)]);
    expect(replaced.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    expect((await contentVersionsState.check()).differences).toEqual([]);
    const listed = async () => ((await get(ana, `/content/versions/${piece.id}`).expect(200)).body.versions as { id: string }[]).map((version) => version.id);
    expect(await listed()).toEqual(await versionFacts(piece.id));
    expect(await listed()).toHaveLength(4);

    const [newest, , , oldest] = await listed();
    const restored = await Promise.all([
      post(app, ana, `/content/versions/${piece.id}/restore/${oldest}`, {}),
      post(second.url, ana, `/content/versions/${piece.id}/restore/${newest}`, {}),
    ]);
    expect(restored.map((res) => res.status)).toEqual([200, 200]);
    expect((await contentVersionsState.check()).differences).toEqual([]);
    const after = await listed();
    expect(after).toEqual(await versionFacts(piece.id));
    // Each restore took its version off the list and made the file it replaced a version.
    expect(after).toHaveLength(4);
    expect(after).not.toContain(oldest);
  });

  it('when a version record is written behind its piece’s chain, then the check reports it, and the rebuild mends it', async () => {
    const ana = await createActiveMember(app, smtp, { firstName: 'Ana' });
    const piece = await publishPiece(app, ana, { title: 'Harbor Dunes', tag: 'Art', subTag: 'Pixel Art', hue: 40 });
    await request(app)
      .post(`/api/v2/content/file/${piece.id}/image`)
      .set(auth(ana))
      .attach('file', await coverPng(200, 320), 'cover.png')
      .expect(200);
    const [listedVersion] = await versionFacts(piece.id);
    const record = (await ContentVersionModel.findById(listedVersion).lean<Record<string, unknown>>())!;
    const behind = new Types.ObjectId();
    await ContentVersionModel.create({ ...record, _id: behind, replacedAt: new Date(), keepUntil: new Date(Date.now() + 86_400_000) });
    expect((await contentVersionsState.check()).differences).toEqual([`piece ${piece.id}: versions ${String(behind)} are not in its chain`]);
    const listed = async () => ((await get(ana, `/content/versions/${piece.id}`).expect(200)).body.versions as { id: string }[]).map((version) => version.id);
    expect(await listed()).toEqual([listedVersion]);
    await contentVersionsState.rebuild();
    expect((await contentVersionsState.check()).differences).toEqual([]);
    expect(sorted(await listed())).toEqual(sorted([listedVersion!, String(behind)]));
  });
});
