/**
 * Every admin call, read from the contract: each operation marked `x-admin: true` in openapi.yaml is called with a
 * member's token (403 `forbidden`, nothing recorded) and with an admin's (never 403, so the mark is true; a change
 * that succeeds leaves exactly one audit entry naming its target). Every operation NOT marked is called by a member
 * and must not answer the admins-only refusal, so that an admin call cannot go unmarked once a request of it
 * reaches its handler. A new operation is covered here without editing this file.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { seedReferenceData } from '../../server/db/seed';
import { sandboxPayoutProvider } from '../../server/integrations/payouts';
import { AuditEntryModel } from '../../server/modules/audit/testing';
import { createTestApp } from '../helpers/app';
import { CONTRACT_OPERATIONS, simplestRequest, type ContractOperation } from '../helpers/contract-operations';
import { useTestDatabase } from '../helpers/db';
import { adminMember, bearer, createMember, createPiece, credit, type TestMember, type TestPiece } from '../helpers/ledger-factory';

useTestDatabase();

let app: ReturnType<typeof createTestApp>;
let admin: TestMember;
let ana: TestMember;
let bea: TestMember;
let piece: TestPiece;
let historyId: string;

const ADMIN_OPERATIONS = CONTRACT_OPERATIONS.filter(({ operation }) => operation['x-admin'] === true);
const OTHER_OPERATIONS = CONTRACT_OPERATIONS.filter(({ operation }) => operation['x-admin'] !== true);
const ADMINS_ONLY = /^Only (admins|an admin)\b/;

/** Real values for fields of these names, so that the admins' calls act on things that exist. */
const knownValues = (): Record<string, unknown> => ({
  contentId: piece.id,
  userId: ana.id,
  historyId,
  planId: 1,
  decision: 'dismiss',
  // A content page's own sections (the simplest request edits its first page, How It Works).
  sections: ['listeners', 'creators', 'supporters'].map((key) => ({ key, title: key, body: '' })),
});

const send = (operation: ContractOperation, caller: TestMember, known: Record<string, unknown> = {}) => {
  const { url, query, body } = simplestRequest(operation, known);
  const req = request(app)[operation.method](`/api/v2${url}`).query(query).set(bearer(caller));
  return body === undefined ? req : req.send(body as object);
};

const label = ({ method, template, operation }: ContractOperation) => `${operation.operationId} (${method.toUpperCase()} ${template})`;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp({ payoutProvider: sandboxPayoutProvider(mkdtempSync(path.join(os.tmpdir(), 'knack-admin-payouts-'))) });
  [admin, ana, bea] = await Promise.all([adminMember(), createMember(), createMember({ paypal: 'bea@example.com' })]);
  piece = await createPiece(bea);
  await request(app)
    .post('/api/v2/flag/set')
    .set(bearer(ana))
    .send({ contentId: piece.id, userId: ana.id, reason: 'Wrong market for content genre' })
    .expect(200);
  await credit(bea, 10_000_000);
  historyId = (await request(app).post('/api/v2/user-history/earn').set(bearer(bea)).send({ userId: bea.id }).expect(201)).body.item.historyId;
});

it('the contract marks the admin calls', () => {
  expect(ADMIN_OPERATIONS.map(({ operation }) => operation.operationId).sort()).toEqual(
    [
      'approveCashOut',
      'createDiscountCode',
      'deletePieceAsAdmin',
      'getAdminDashboard',
      'hidePiece',
      'listAdminPieces',
      'restorePiece',
      'restoreCashOut',
      'createMemberAccount',
      'deactivateMember',
      'deleteMember',
      'getAllComments',
      'getAuditLog',
      'getMember',
      'getOpenFlags',
      'getPieceFlags',
      'declineCashOut',
      'listCashOuts',
      'getTestMailbox',
      'listDiscountCodes',
      'listMembers',
      'reactivateMember',
      'resolveFlags',
      'trendContent',
      'unfeatureContent',
      'updatePlan',
      'previewMarkdown',
      'saveNativePost',
      'listAllNativePosts',
      'updateCmsPage',
      'getCmsPageSource',
      'updatePremiumCredits',
      'updateStandardCredits',
    ].sort(),
  );
});

describe.each(ADMIN_OPERATIONS.map((operation) => [label(operation), operation] as const))('%s', (_name, operation) => {
  it('when a member calls it, then 403 forbidden with the call’s own message, and nothing is recorded', async () => {
    const entries = await AuditEntryModel.countDocuments();
    const refused = await send(operation, ana, knownValues());
    expect({ status: refused.status, code: refused.body.code }).toEqual({ status: 403, code: 'forbidden' });
    expect(refused.body.message).toMatch(ADMINS_ONLY);
    expect(await AuditEntryModel.countDocuments()).toBe(entries);
  });

  it('when an admin calls it, then it is not refused, and a change that succeeds leaves exactly one audit entry', async () => {
    const before = await AuditEntryModel.countDocuments({ action: operation.operation.operationId });
    const answer = await send(operation, admin, knownValues());
    if (answer.status === 400) throw new Error(`${label(operation)}: no request of it passes the contract's validation: ${JSON.stringify(answer.body)}`);
    expect(answer.status).not.toBe(403);
    const entries = await AuditEntryModel.find({ action: operation.operation.operationId }).lean();
    const changed = operation.method !== 'get' && operation.operation['x-read-only'] !== true && answer.status >= 200 && answer.status < 300;
    expect(entries.length - before).toBe(changed ? 1 : 0);
    if (changed)
      expect(entries.at(-1)).toMatchObject({
        actorId: expect.anything(),
        actorEmail: admin.email,
        targetKind: expect.any(String),
        targetId: expect.any(String),
      });
  });
});

/** Calls of the sweep below sent at once. */
const SWEEP_AT_ONCE = 8;

it('when a member makes any call not marked x-admin, then it never answers the admins-only refusal', async () => {
  const refusedAsAdminCalls: string[] = [];
  let reachedHandler = 0;
  // uploads (multipart) are the member's own files, checked by the upload router.
  const calls = OTHER_OPERATIONS.filter((operation) => !simplestRequest(operation).multipart);
  // Each call has a member of its own (so that one that ends a session, sign out everywhere, ends no other's), so a
  // few run at once.
  for (let start = 0; start < calls.length; start += SWEEP_AT_ONCE) {
    await Promise.all(
      calls.slice(start, start + SWEEP_AT_ONCE).map(async (operation) => {
        const member = await createMember();
        const answer = await send(operation, member, { userId: member.id });
        if (!(answer.status === 400 && Array.isArray(answer.body.errors))) reachedHandler += 1;
        if (answer.status === 403 && answer.body.code === 'forbidden' && ADMINS_ONLY.test(answer.body.message)) {
          refusedAsAdminCalls.push(`${label(operation)}: ${answer.body.message}`);
        }
      }),
    );
  }
  expect(refusedAsAdminCalls).toEqual([]);
  // Most calls get past the contract's validation with the smallest request: the check reaches their handlers.
  expect(reachedHandler).toBeGreaterThan(OTHER_OPERATIONS.length / 2);
  // Every call of the contract: given the time a loaded machine needs for about 150 of them.
}, 120_000);
