/**
 * The ledger's daily Merkle roots, anchored on the Horizon stand-in, and the proofs members download: on the real
 * database, with entries made as the services post them (tests/helpers/ledger-factory.ts). A root is made once per
 * closed day even by two runs at once; with an anchor account it is written as the memo hash of one transaction;
 * every entry's proof leads to it, and none does once an entry of that day is changed; the verifier script, run on
 * its own, agrees.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Keypair } from '@stellar/stellar-sdk';
import { parse } from 'smol-toml';
import request from 'supertest';
import { rootFromInclusionPath } from '../../server/lib/merkle';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { ANCHOR_DATA_NAME, LedgerRootModel, PROOF_LIMIT, type LedgerRootDoc } from '../../server/modules/anchors';
import { LedgerEntryModel, type LedgerEntryDoc } from '../../server/modules/ledger';
import { createTestApp, createTestServices } from '../helpers/app';
import { freezeInWindow } from '../helpers/clock';
import { clearDatabase, useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { adminMember, bearer, createMember, createPiece, knackBy, payListing, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

const NOT_FOUND = 'This ledger entry does not exist.';
const DAY_OPEN = "This entry's day is not over yet: its proof can be had once the day's root is made, within an hour after midnight UTC.";
const ROOT_NOT_MADE = "The root of this entry's day is not made yet. Please try again in an hour.";
const TOO_MANY = 'Too many proofs asked for. Please wait a minute and try again.';

/** A closed day in the past, and a run of the job half an hour after it ended. */
const DAY = '2025-06-10';
const at = (time: string) => new Date(`${DAY}T${time}Z`);
const AFTER_DAY = new Date('2025-06-11T00:30:00.000Z');
const EMPTY_ROOT = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

const run = promisify(execFile);
const VERIFIER = path.join(__dirname, '..', '..', 'scripts', 'verify-proof.mjs');
const proofDir = mkdtempSync(path.join(os.tmpdir(), 'knack-proofs-'));

let standIn: HorizonStandIn;
const anchor = Keypair.random();

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  standIn.fund(anchor.publicKey(), '10');
});
afterAll(async () => standIn.stop());

const anchoredConfig = () => ({ stellar: { ...standIn.stellarConfig, anchorSecret: anchor.secret() } });
const anchorsWithSecret = () => createTestServices({ config: anchoredConfig() }).anchors;
const anchorsWithoutSecret = () => createTestServices({ config: { stellar: standIn.stellarConfig } }).anchors;

interface DayOfEntries {
  owner: TestMember;
  supporter: TestMember;
  viewers: TestMember[];
  ids: string[];
}

/** One day of the ledger: a listing fee and four knacks on one piece, plus an entry on the day after. */
async function makeDay(): Promise<DayOfEntries> {
  const owner = await createMember();
  const supporter = await createMember();
  const viewers = [await createMember(), await createMember(), await createMember(), await createMember()];
  const piece = await payListing(await createPiece(owner), supporter, 650_000, at('08:00:00.000'));
  const ids = [`listing:${piece.id}`];
  for (const [i, viewer] of viewers.entries()) ids.push((await knackBy(viewer, piece, at(`1${i}:15:00.000`)))._id);
  // The last moment of the day is in it; the first of the next is not.
  const late = await createMember();
  ids.push((await knackBy(late, piece, at('23:59:59.999')))._id);
  await knackBy(await createMember(), piece, new Date('2025-06-11T00:00:00.000Z'));
  return { owner, supporter, viewers: [...viewers, late], ids };
}

const rootOf = (day: string) => LedgerRootModel.findById(day).lean<LedgerRootDoc>();

/** The root a proof's entry and path lead to, hex; null when they cannot belong together. */
function rootFromProof(proof: { entry: string; leafIndex: number; treeSize: number; path: string[] }): string | null {
  const path = proof.path.map((node) => Buffer.from(node, 'hex'));
  return rootFromInclusionPath(Buffer.from(proof.entry, 'utf8'), proof.leafIndex, proof.treeSize, path)?.toString('hex') ?? null;
}

/** The memo of a transaction as Horizon (the stand-in) answers it, hex. */
async function memoOf(hash: string): Promise<{ memoType: string; memo: string; source: string }> {
  const record = (await (await fetch(`${standIn.url}/transactions/${hash}`)).json()) as { memo_type: string; memo: string; source_account: string };
  return { memoType: record.memo_type, memo: Buffer.from(record.memo, 'base64').toString('hex'), source: record.source_account };
}

describe('the daily roots', () => {
  beforeEach(async () => clearDatabase());

  it('when no anchor account is set, then each closed day gets one root, kept as not anchored, and nothing is sent to the network', async () => {
    const { ids } = await makeDay();
    const submittedBefore = standIn.submitted.length;
    const anchors = anchorsWithoutSecret();

    const runs = await Promise.all([anchors.run(AFTER_DAY), anchors.run(AFTER_DAY)]);

    expect(runs.flatMap((r) => r.rooted)).toEqual([DAY]);
    expect(runs.flatMap((r) => [...r.anchored, ...r.notAnchored])).toEqual([]);
    expect(await LedgerRootModel.countDocuments()).toBe(1);
    const root = await rootOf(DAY);
    expect(root).toMatchObject({ _id: DAY, count: ids.length, status: 'not-anchored', transactionHash: null, network: 'testnet' });
    expect(root!.root).toMatch(/^[0-9a-f]{64}$/);
    expect(root!.root).not.toBe(EMPTY_ROOT);
    expect(standIn.submitted.length).toBe(submittedBefore);

    // Run again, later: the day keeps its one root, unchanged; the day after (still open at AFTER_DAY) is rooted now.
    const later = await anchors.run(new Date('2025-06-12T00:30:00.000Z'));
    expect(later.rooted).toEqual(['2025-06-11']);
    expect(await rootOf(DAY)).toEqual(root);
    expect(await rootOf('2025-06-11')).toMatchObject({ count: 1, status: 'not-anchored' });
  });

  it('when a day has no entries, then it gets the empty root (count 0), which is never anchored', async () => {
    await makeDay();
    const anchors = anchorsWithSecret();
    await anchors.run(AFTER_DAY);
    await anchors.run(new Date('2025-06-12T00:30:00.000Z'));
    const result = await anchors.run(new Date('2025-06-13T00:30:00.000Z'));
    expect(result.rooted).toEqual(['2025-06-12']);
    expect(await rootOf('2025-06-12')).toMatchObject({ root: EMPTY_ROOT, count: 0, status: 'not-anchored', transactionHash: null });
  });

  it('when the anchor account is set, then two runs at once make one root and send one transaction, whose memo hash is the root, from the anchor account', async () => {
    await makeDay();
    const submittedBefore = standIn.submitted.length;
    const anchors = anchorsWithSecret();

    const runs = await Promise.all([anchors.run(AFTER_DAY), anchors.run(AFTER_DAY)]);

    expect(runs.flatMap((r) => r.rooted)).toEqual([DAY]);
    expect(runs.flatMap((r) => r.anchored)).toEqual([DAY]);
    const root = (await rootOf(DAY))!;
    expect(root).toMatchObject({ status: 'anchored', account: anchor.publicKey(), network: 'testnet', lastError: null, envelope: null });
    expect(root.ledger).toBeGreaterThan(0);
    expect(standIn.submitted.slice(submittedBefore)).toHaveLength(1);
    expect(await memoOf(root.transactionHash!)).toEqual({ memoType: 'hash', memo: root.root, source: anchor.publicKey() });
    expect(standIn.account(anchor.publicKey())!.data).toEqual({ [ANCHOR_DATA_NAME]: Buffer.from(DAY).toString('base64') });

    // Run again: nothing more is sent.
    await anchors.run(AFTER_DAY);
    expect(standIn.submitted.slice(submittedBefore)).toHaveLength(1);
  });

  it('when Horizon cannot be reached, then the root stays not anchored with the reason, and the next run anchors it', async () => {
    await makeDay();
    const anchors = anchorsWithSecret();
    await standIn.stop();
    try {
      const first = await anchors.run(AFTER_DAY);
      expect(first).toEqual({ rooted: [DAY], anchored: [], notAnchored: [DAY] });
      expect(await rootOf(DAY)).toMatchObject({ status: 'not-anchored', transactionHash: null });
      expect((await rootOf(DAY))!.lastError).toContain('did not answer');
    } finally {
      await standIn.restart();
    }
    const second = await anchors.run(AFTER_DAY);
    expect(second).toEqual({ rooted: [], anchored: [DAY], notAnchored: [] });
    const root = (await rootOf(DAY))!;
    expect(await memoOf(root.transactionHash!)).toMatchObject({ memo: root.root });
  });

  it('when a transaction was sent but its answer lost, then the next run finds it by its hash and sends nothing new', async () => {
    await makeDay();
    const anchors = anchorsWithSecret();
    await anchors.run(AFTER_DAY);
    const anchored = (await rootOf(DAY))!;
    // As if the run had died after sending: the root still says pending, with the transaction it sent.
    await LedgerRootModel.updateOne({ _id: DAY }, { $set: { status: 'pending', ledger: null, anchoredAt: null } });
    const submittedBefore = standIn.submitted.length;

    expect(await anchors.run(AFTER_DAY)).toEqual({ rooted: [], anchored: [DAY], notAnchored: [] });
    expect(standIn.submitted.length).toBe(submittedBefore);
    expect(await rootOf(DAY)).toMatchObject({ status: 'anchored', transactionHash: anchored.transactionHash, ledger: anchored.ledger });
  });
});

describe("the anchor account in Knack's stellar.toml", () => {
  it('when the anchor account is set, then stellar.toml lists it under ACCOUNTS, so a verifier can tell the anchors are ours; unset, none is listed', async () => {
    const withAnchor = await request(createTestApp({ config: anchoredConfig() }))
      .get('/.well-known/stellar.toml')
      .expect(200);
    expect(parse(withAnchor.text).ACCOUNTS).toEqual([anchor.publicKey()]);
    expect(withAnchor.text).not.toContain(anchor.secret());
    const without = await request(createTestApp({ config: { stellar: standIn.stellarConfig } }))
      .get('/.well-known/stellar.toml')
      .expect(200);
    expect(parse(without.text).ACCOUNTS).toBeUndefined();
  });
});

describe('the proof of an entry', () => {
  let day: DayOfEntries;
  let app: ReturnType<typeof createTestApp>;
  let admin: TestMember;

  beforeAll(async () => {
    await clearDatabase();
    app = createTestApp({ config: anchoredConfig() });
    day = await makeDay();
    admin = await adminMember();
    await anchorsWithSecret().run(AFTER_DAY);
  });
  beforeEach(async () => RateLimitModel.deleteMany({}));

  const proofOf = (member: TestMember, id: string) =>
    request(app)
      .get(`/api/v2/ledger/proofs/${encodeURIComponent(id)}`)
      .set(bearer(member));

  it('when each member asks for the proof of each entry of the day they took part in, then it leads to the root anchored on the network', async () => {
    const root = (await rootOf(DAY))!;
    const [listingId, ...knackIds] = day.ids;
    const asks: [TestMember, string][] = [
      [day.supporter, listingId!],
      ...knackIds.map((id, i) => [day.viewers[i]!, id] as [TestMember, string]),
      ...knackIds.map((id) => [day.owner, id] as [TestMember, string]),
    ];
    const seenIndexes = new Set<number>();
    for (const [member, id] of asks) {
      const res = await proofOf(member, id);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        version: 1,
        tree: 'rfc6962-sha256',
        entryId: id,
        day: DAY,
        treeSize: day.ids.length,
        root: root.root,
        anchor: {
          status: 'anchored',
          network: 'testnet',
          networkPassphrase: standIn.passphrase,
          account: anchor.publicKey(),
          transactionHash: root.transactionHash,
          ledger: root.ledger,
        },
      });
      expect(JSON.parse(res.body.entry)._id).toBe(id);
      expect(rootFromProof(res.body)).toBe(root.root);
      seenIndexes.add(res.body.leafIndex);
    }
    expect([...seenIndexes].sort()).toEqual(day.ids.map((_, i) => i));
    expect((await memoOf(root.transactionHash!)).memo).toBe(root.root);
  });

  it('when the entry is canonical, then it holds every stored field but accounts, keys sorted, ids in hex and times in ISO', async () => {
    const id = day.ids[1]!;
    const stored = (await LedgerEntryModel.findById(id).lean<LedgerEntryDoc>())!;
    const res = await proofOf(day.viewers[0]!, id);
    expect(res.body.entry).toBe(
      JSON.stringify({
        _id: id,
        actorId: String(stored.actorId),
        amountMicros: null,
        at: `${DAY}T10:15:00.000Z`,
        contentId: String(stored.contentId),
        kind: 'knack',
        legs: stored.legs.map((leg) => ({ account: leg.account, amountMicros: leg.amountMicros })),
        method: null,
        ref: null,
      }),
    );
  });

  it('when another member asks for an entry they had no part in, then 404 as for one that does not exist; an admin gets any', async () => {
    const stranger = await createMember();
    for (const id of day.ids) {
      const res = await proofOf(stranger, id);
      expect([res.status, res.body.message]).toEqual([404, NOT_FOUND]);
    }
    const missing = await proofOf(stranger, 'knack:000000000000000000000000:000000000000000000000000');
    expect([missing.status, missing.body.message]).toEqual([404, NOT_FOUND]);
    // The first viewer's knack is not the second viewer's.
    expect((await proofOf(day.viewers[1]!, day.ids[1]!)).status).toBe(404);
    for (const id of day.ids) expect((await proofOf(admin, id)).status).toBe(200);
    expect((await request(app).get(`/api/v2/ledger/proofs/${encodeURIComponent(day.ids[0]!)}`)).status).toBe(401);
  });

  it("when the entry's day is still open, or closed without its root yet, then 409 says when to come back", async () => {
    const member = await createMember();
    const piece = await createPiece(member);
    const paid = await payListing(piece, member, 650_000, new Date());
    const today = await proofOf(member, `listing:${paid.id}`);
    expect([today.status, today.body.message]).toEqual([409, DAY_OPEN]);

    const other = await payListing(await createPiece(member), member, 650_000, new Date('2025-06-20T12:00:00.000Z'));
    const notRooted = await proofOf(member, `listing:${other.id}`);
    expect([notRooted.status, notRooted.body.message]).toEqual([409, ROOT_NOT_MADE]);
  });

  it('when a member asks for more than 30 proofs in a minute, then the 31st is 429 with Retry-After, before any work', async () => {
    const member = day.supporter;
    const clock = freezeInWindow(PROOF_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < PROOF_LIMIT.max; i++) expect((await proofOf(member, day.ids[0]!)).status).toBe(200);
      const res = await proofOf(member, 'knack:000000000000000000000000:000000000000000000000000');
      expect([res.status, res.body.message]).toEqual([429, TOO_MANY]);
      expect(res.headers['retry-after']).toBe('59');
    } finally {
      clock.restore();
    }
  });

  it('when the verifier script checks a downloaded proof against Horizon, then it passes; a proof with a changed amount or root fails', async () => {
    const res = await proofOf(day.owner, day.ids[2]!);
    const file = path.join(proofDir, 'proof.json');
    writeFileSync(file, JSON.stringify(res.body, null, 2));
    const passed = await run('node', [VERIFIER, file, '--horizon', standIn.url]);
    expect(passed.stdout).toContain(`VERIFIED: entry ${day.ids[2]} is in the root of ${DAY}`);

    const entry = JSON.parse(res.body.entry);
    entry.legs[1].amountMicros += 1;
    const changedEntry = path.join(proofDir, 'changed-entry.json');
    writeFileSync(changedEntry, JSON.stringify({ ...res.body, entry: JSON.stringify(entry) }));
    const failed = await run('node', [VERIFIER, changedEntry, '--horizon', standIn.url]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
    expect(failed?.stdout).toContain('FAILED: The entry and its path do not lead to the root: the entry is not the one the root holds.');

    // A forged root that fits the changed entry is not the one on the network.
    const forged = path.join(proofDir, 'forged-root.json');
    const forgedProof = { ...res.body, entry: JSON.stringify(entry) };
    forgedProof.root = rootFromProof(forgedProof)!;
    writeFileSync(forged, JSON.stringify(forgedProof));
    const refused = await run('node', [VERIFIER, forged, '--horizon', standIn.url]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(refused?.code).toBe(1);
    expect(refused?.stdout).toContain("FAILED: The transaction's memo hash is not the root: this root is not the one anchored.");
  });

  it('when any one entry of the day is changed in the database, then no proof of that day leads to the anchored root any more', async () => {
    const anchored = (await rootOf(DAY))!.root;
    for (const changedId of day.ids) {
      const stored = (await LedgerEntryModel.findById(changedId).lean<LedgerEntryDoc>())!;
      const [first, second] = stored.legs;
      // Move one micro-dollar between two legs: the legs still sum to zero, as a careful forger would keep them.
      await LedgerEntryModel.collection.updateOne(
        { _id: changedId as never },
        { $set: { 'legs.0.amountMicros': first!.amountMicros - 1, 'legs.1.amountMicros': second!.amountMicros + 1 } },
      );
      for (const id of day.ids) {
        const res = await request(app)
          .get(`/api/v2/ledger/proofs/${encodeURIComponent(id)}`)
          .set(bearer(admin));
        expect(res.status).toBe(200);
        expect(res.body.root).toBe(anchored);
        expect({ changedId, id, reaches: rootFromProof(res.body) === anchored }).toEqual({ changedId, id, reaches: false });
      }
      await LedgerEntryModel.collection.updateOne({ _id: changedId as never }, { $set: { legs: stored.legs } });
      await RateLimitModel.deleteMany({});
    }
    // Put back, every proof reaches it again; and the verifier fails a proof downloaded while the day was changed.
    const res = await proofOf(day.owner, day.ids[1]!);
    expect(rootFromProof(res.body)).toBe(anchored);

    await LedgerEntryModel.collection.updateOne({ _id: day.ids[3] as never }, { $set: { 'legs.1.amountMicros': 1 } });
    const tampered = await proofOf(day.owner, day.ids[1]!);
    const file = path.join(proofDir, 'after-change.json');
    writeFileSync(file, JSON.stringify(tampered.body));
    const failed = await run('node', [VERIFIER, file, '--horizon', standIn.url]).then(
      () => null,
      (err: { code: number; stdout: string }) => err,
    );
    expect(failed?.code).toBe(1);
  });
});
