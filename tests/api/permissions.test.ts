/**
 * Who may make a call, on the real database, one answer per kind of check:
 * - a call only admins may make answers a member 403 with the call's own message, and lets an admin through;
 * - a call for oneself (or any member, for an admin) answers another member's id 404, as for a member who does not
 *   exist, so that nobody learns by probing which ids exist or what they hold;
 * - a thing only its owner (or an admin) may touch answers anyone else 404, as a thing that does not exist.
 */
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { createTestApp } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let admin: TestMember;
let ana: TestMember;
let bea: TestMember;
let piece: TestPiece;

const call = (method: 'get' | 'post', url: string, caller: TestMember, body?: object) => {
  const req = request(app)[method](`/api/v2${url}`).set(bearer(caller));
  return body ? req.send(body) : req;
};

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp();
  [admin, ana, bea] = await Promise.all([adminMember(), createMember(), createMember({ paypal: 'bea@example.com' })]);
  piece = await createPiece(bea);
});

describe('calls only admins may make', () => {
  const ADMIN_CALLS: [string, 'get' | 'post', string, () => object | undefined, string][] = [
    ['flags to review', 'get', '/flag/get-open', () => undefined, 'Only admins can review flags.'],
    ['a decision on flags', 'post', '/flag/resolve', () => ({ contentId: piece.id, decision: 'dismiss' }), 'Only admins can review flags.'],
    ['every comment', 'get', '/comment/get-all', () => undefined, 'Only admins can list every comment.'],
    ['a cash-out approval', 'post', '/user-history/approve', () => ({ historyId: piece.id }), 'Only an admin can approve a cash-out.'],
    ['standard credits', 'post', '/user-setting/update-scredits', () => ({ userId: ana.id, amount: 5 }), 'Only admins can change credits.'],
    ['premium credits', 'post', '/user-setting/update-pcredits', () => ({ userId: ana.id, amount: 5 }), 'Only admins can change credits.'],
    ['a re-post', 'post', '/content/trend', () => ({ contentId: piece.id }), 'Only admins can re-post pieces.'],
    ['taking a re-post off', 'post', '/content/remove', () => ({ contentId: piece.id }), 'Only admins can re-post pieces.'],
    ['a plan change', 'post', '/subscription/update-plan', () => ({ planId: 1, priceMicros: 100_000_000 }), 'Only admins can change plans.'],
    ['a new discount code', 'post', '/code/create', () => ({ code: 'MINE', maxUses: 1 }), 'Only admins can create discount codes.'],
    ['the discount codes', 'get', '/code/all', () => undefined, 'Only admins can see discount codes.'],
  ];

  it.each(ADMIN_CALLS)('when a member asks for %s, then 403 with the call’s message', async (_what, method, url, body, message) => {
    const refused = await call(method, url, ana, body()).expect(403);
    expect(refused.body).toEqual({ code: 'forbidden', message, requestId: expect.any(String) });
  });

  it('when an admin asks for the admins’ lists, then they are answered', async () => {
    await call('get', '/flag/get-open', admin).expect(200);
    await call('get', '/comment/get-all', admin).expect(200);
    await call('get', '/code/all', admin).expect(200);
  });
});

describe('calls for oneself, or for any member by an admin', () => {
  it('when a member reads another member’s extension, collection or credits, then 404 as for nobody; the member and an admin read them', async () => {
    const READS: [string, string][] = [
      [`/user-setting/get-ext/${bea.id}`, 'This member does not exist.'],
      [`/content/get-supported/${bea.id}`, 'This member does not exist.'],
      [`/user-setting/credits/${bea.id}`, 'User not found'],
      [`/wallet/summary/${bea.id}`, 'This member was not found.'],
    ];
    for (const [url, message] of READS) {
      expect((await call('get', url, ana).expect(404)).body).toEqual({ code: 'not_found', message, requestId: expect.any(String) });
      await call('get', url, bea).expect(200);
      await call('get', url, admin).expect(200);
    }
  });

  it('when a member changes another member’s photo or header, or publishes on their page, then 404 as for nobody', async () => {
    const WRITES: [string, object][] = [
      ['/user/update-photo', { userId: bea.id, photoPath: 'x' }],
      ['/user/update-header-image', { userId: bea.id, headerImage: 'x', headerImageEdited: 'x' }],
      ['/content/save-artist', { userId: bea.id, title: 'T', description: 'D', tags: [{ name: 'Music' }] }],
    ];
    for (const [url, body] of WRITES) {
      expect((await call('post', url, ana, body).expect(404)).body).toEqual({ code: 'not_found', message: 'User not found', requestId: expect.any(String) });
    }
  });
});

describe('things only their owner (or an admin) may touch', () => {
  it('when a member cancels another member’s cash-out, then 404 as for none; an admin cancels it', async () => {
    await credit(bea, 10_000_000);
    const { historyId } = (await call('post', '/user-history/earn', bea, { userId: bea.id }).expect(201)).body.item as { historyId: string };
    const refused = await call('post', '/user-history/cancel', ana, { historyId }).expect(404);
    expect(refused.body).toEqual({ code: 'not_found', message: 'This cash-out request was not found.', requestId: expect.any(String) });
    expect((await call('post', '/user-history/cancel', admin, { historyId }).expect(200)).body.item).toMatchObject({ historyId, status: 'cancelled' });
  });

  it('when a member renames another member’s project, then 404 as for none; an admin renames it', async () => {
    const project = (await call('post', '/project/save', bea, { userId: bea.id, projectName: 'Blue', contentIds: JSON.stringify([piece.id]) }).expect(201)).body
      .project as { id: string };
    const refused = await call('post', '/project/update', ana, { projectId: project.id, projectName: 'Mine' }).expect(404);
    expect(refused.body).toEqual({ code: 'not_found', message: 'Project not found', requestId: expect.any(String) });
    await call('post', '/project/update', admin, { projectId: project.id, projectName: 'Renamed' }).expect(200);
  });
});
