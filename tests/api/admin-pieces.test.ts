/**
 * The admin area's pieces: every piece listed, searched, filtered and paged; hide, restore, re-post, take off the
 * pages and delete, each recorded once in the audit log; delete only for the admins in ADMIN_REMOVE_EMAILS.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { localStorage } from '../../server/integrations/storage';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { ContentModel } from '../../server/modules/contents';
import { createTestApp, testConfig } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, type TestMember, type TestPiece } from '../helpers/ledger-factory';
import { png } from '../helpers/media';

useTestDatabase();

const root = mkdtempSync(path.join(os.tmpdir(), 'knack-admin-pieces-'));
let app: ReturnType<typeof createTestApp>;
/** The same database with a second admin who is not in ADMIN_REMOVE_EMAILS. */
let appWithHelper: ReturnType<typeof createTestApp>;
let admin: TestMember;
let helper: TestMember;
let ana: TestMember;
let bea: TestMember;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp({ storage: localStorage(root) });
  admin = await adminMember();
  helper = await createMember({ username: 'helper_admin', email: 'helper@knack.example' });
  appWithHelper = createTestApp({
    storage: localStorage(root),
    config: { auth: { ...testConfig().auth, adminEmails: ['admin@knack.example', 'helper@knack.example'], adminRemoveEmails: ['admin@knack.example'] } },
  });
  [ana, bea] = await Promise.all([createMember({ username: 'ana_lima' }), createMember({ username: 'bea_stone' })]);
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

const list = (caller: TestMember, query: Record<string, string | number> = {}, on = app) =>
  request(on).get('/api/v2/admin/pieces').query(query).set(bearer(caller));
const act = (action: 'hide' | 'restore' | 'delete', caller: TestMember, contentId: string, on = app) =>
  request(on).post(`/api/v2/admin/pieces/${action}`).set(bearer(caller)).send({ contentId });
const entriesOf = (action: string, targetId: string) => AuditEntryModel.find({ action, targetId }).lean();
const stateOf = async (piece: TestPiece) => ContentModel.findById(piece.id, { isHide: 1, takenDown: 1, listed: 1, featuredAt: 1 }).lean();

describe('listing every piece', () => {
  it('when an admin searches by title or owner and filters by type and status, then the matching pieces come newest first with their status', async () => {
    const dusk = await createPiece(ana, { title: 'Lisbon Dusk', type: 'photos' });
    const song = await createPiece(ana, { title: 'Night Song', type: 'music' });
    const held = await createPiece(bea, { title: 'Lisbon Rooftops', type: 'photos' });
    const down = await createPiece(bea, { title: 'Quiet Harbour', type: 'art' });
    await ContentModel.updateOne({ _id: held.id }, { $set: { isHide: true, listed: false } });
    await ContentModel.updateOne({ _id: down.id }, { $set: { isHide: true, takenDown: true, listed: false } });

    const byTitle = await list(admin, { q: 'lisbon' }).expect(200);
    expect(byTitle.body.pieces.map((p: { content: { title: string }; status: string }) => [p.content.title, p.status])).toEqual([
      ['Lisbon Rooftops', 'hidden'],
      ['Lisbon Dusk', 'public'],
    ]);
    expect(byTitle.body.canDelete).toBe(true);

    const byOwner = await list(admin, { q: 'ana_l' }).expect(200);
    expect(byOwner.body.pieces.map((p: { content: { id: string } }) => p.content.id)).toEqual([song.id, dusk.id]);

    expect((await list(admin, { type: 'music' }).expect(200)).body.pieces.map((p: { content: { id: string } }) => p.content.id)).toEqual([song.id]);
    expect((await list(admin, { status: 'hidden' }).expect(200)).body.pieces.map((p: { content: { id: string } }) => p.content.id)).toEqual([held.id]);
    expect((await list(admin, { status: 'removed' }).expect(200)).body.pieces.map((p: { content: { id: string } }) => p.content.id)).toEqual([down.id]);
    expect((await list(admin, { status: 'public', q: 'bea' }).expect(200)).body.pieces).toEqual([]);
  });

  it('when the list is longer than a page, then the cursor pages through it by key with no piece twice', async () => {
    const owner = await createMember({ username: 'pager_pat' });
    const made: string[] = [];
    for (let i = 0; i < 5; i += 1) made.push((await createPiece(owner, { title: `Paged ${i}` })).id);
    const first = await list(admin, { q: 'pager_pat', limit: 2 }).expect(200);
    const second = await list(admin, { q: 'pager_pat', limit: 2, cursor: first.body.nextCursor as string }).expect(200);
    const third = await list(admin, { q: 'pager_pat', limit: 2, cursor: second.body.nextCursor as string }).expect(200);
    const ids = [first, second, third].flatMap((page) => page.body.pieces.map((p: { content: { id: string } }) => p.content.id));
    expect(ids).toEqual([...made].reverse());
    expect(third.body.nextCursor).toBeNull();
  });

  it('when an admin not in ADMIN_REMOVE_EMAILS lists the pieces, then canDelete is false', async () => {
    expect((await list(helper, {}, appWithHelper).expect(200)).body.canDelete).toBe(false);
  });
});

describe('hide and restore', () => {
  it('when an admin hides a piece, then it leaves the public lists, the answer says so, and one audit entry holds before and after', async () => {
    const piece = await createPiece(ana, { title: 'Hide Me' });
    const res = await act('hide', admin, piece.id).expect(200);
    expect(res.body.message).toBe('The piece is hidden from the pages.');
    expect(await stateOf(piece)).toMatchObject({ isHide: true, takenDown: false, listed: false });
    const feed = await request(app).get('/api/v2/content/get-featured').query({ limit: 50 }).expect(200);
    expect(feed.body.contents.map((c: { id: string }) => c.id)).not.toContain(piece.id);
    const entries = await entriesOf('hidePiece', piece.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      targetKind: 'piece',
      before: { isHide: false, takenDown: false, listed: true },
      after: { isHide: true, takenDown: false, listed: false },
    });
  });

  it('when an admin restores a hidden or taken-down piece, then it is public again, with one audit entry', async () => {
    const piece = await createPiece(bea, { title: 'Bring Back' });
    await ContentModel.updateOne({ _id: piece.id }, { $set: { isHide: true, takenDown: true, listed: false } });
    const res = await act('restore', admin, piece.id).expect(200);
    expect(res.body.message).toBe('The piece is restored.');
    expect(await stateOf(piece)).toMatchObject({ isHide: false, takenDown: false, listed: true });
    const entries = await entriesOf('restorePiece', piece.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ before: { isHide: true, takenDown: true, listed: false }, after: { isHide: false, takenDown: false, listed: true } });
  });

  it('when the piece does not exist, then 404 and nothing is recorded', async () => {
    const missing = '0123456789abcdef01234567';
    expect((await act('hide', admin, missing).expect(404)).body.message).toBe('Content not found');
    expect(await entriesOf('hidePiece', missing)).toHaveLength(0);
  });
});

describe('re-post and take off the pages, from the admin area', () => {
  it('when an admin re-posts a song, then it is first in Featured with the spec’s message; taken off, it is no longer featured', async () => {
    const song = await createPiece(ana, { title: 'Featured Song', type: 'music' });
    const reposted = await request(app).post('/api/v2/content/trend').set(bearer(admin)).send({ contentId: song.id }).expect(200);
    expect(reposted.body.message).toBe('This music is re-posted successfully.');
    const featured = await request(app).get('/api/v2/content/get-featured').query({ limit: 5 }).expect(200);
    expect(featured.body.contents[0]).toMatchObject({ id: song.id, featured: true });
    const removed = await request(app).post('/api/v2/content/remove').set(bearer(admin)).send({ contentId: song.id }).expect(200);
    expect(removed.body.message).toBe('This Music is removed from the pages successfully.');
    expect((await stateOf(song))?.featuredAt).toBeNull();
    expect(await entriesOf('trendContent', song.id)).toHaveLength(1);
    expect(await entriesOf('unfeatureContent', song.id)).toHaveLength(1);
  });
});

describe('deleting any piece', () => {
  it('when an admin in ADMIN_REMOVE_EMAILS deletes another member’s piece, then it and its files are gone, and one audit entry says what it was', async () => {
    const upload = await request(app)
      .post('/api/v2/content/upload-photo')
      .set(bearer(ana))
      .attach('file', await png(), 'cover.png')
      .expect(201);
    const saved = await request(app)
      .post('/api/v2/content/save')
      .set(bearer(ana))
      .send({ title: 'Gone Soon', description: 'A test', tags: [{ name: 'Photos' }], subTag: 'Travel', photoPath: upload.body.path })
      .expect(201);
    const piece = saved.body.content as { id: string; filePath: string };
    const filesBefore = (readdirSync(root, { recursive: true }) as string[]).filter((f) => /\.[a-z0-9]+$/.test(f)).length;
    expect(filesBefore).toBeGreaterThan(0);

    const res = await act('delete', admin, piece.id).expect(200);
    expect(res.body.message).toBe('The content is removed successfully.');
    expect(await ContentModel.findById(piece.id).lean()).toBeNull();
    await request(app).get(piece.filePath).expect(404);
    const entries = await entriesOf('deletePieceAsAdmin', piece.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ before: { title: 'Gone Soon', ownerId: ana.id, ownerUsername: 'ana_lima', isPaidOut: false }, after: null });
  });

  it('when an admin not in ADMIN_REMOVE_EMAILS deletes a piece, then 403 with a clear message, the piece stays, and nothing is recorded', async () => {
    const piece = await createPiece(bea, { title: 'Stays Here' });
    const res = await act('delete', helper, piece.id, appWithHelper).expect(403);
    expect(res.body).toMatchObject({ code: 'forbidden', message: 'Only the admins allowed to remove any content (ADMIN_REMOVE_EMAILS) can delete it.' });
    expect(await ContentModel.findById(piece.id).lean()).not.toBeNull();
    expect(await entriesOf('deletePieceAsAdmin', piece.id)).toHaveLength(0);
  });

  it('when a member deletes another member’s piece through the admin call, then 403 with the admins-only message', async () => {
    const piece = await createPiece(bea, { title: 'Not Yours' });
    const res = await act('delete', ana, piece.id).expect(403);
    expect(res.body.message).toBe('Only admins can delete any piece.');
    expect(await ContentModel.findById(piece.id).lean()).not.toBeNull();
  });

  it('when an admin deletes another member’s piece through the owner’s call, then 403 pointing to the admin area (where it is recorded)', async () => {
    const piece = await createPiece(bea, { title: 'Owner Call' });
    const res = await request(app).post('/api/v2/content/delete').set(bearer(admin)).send({ contentId: piece.id }).expect(403);
    expect(res.body.message).toBe('Admins delete another member’s piece from the admin area.');
    expect(await ContentModel.findById(piece.id).lean()).not.toBeNull();
  });
});
