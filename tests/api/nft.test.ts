/**
 * Minting a piece as a Stellar NFT, on the real app and database, with Knack's Horizon driver pointed at the Horizon
 * stand-in (which checks signatures, sequence numbers, fees, time bounds and reserves, and applies the operations)
 * and the files pinned by the embedded IPFS driver:
 * - start: the token code's messages, the linked wallet, the account's standing, the limit, 503 without Horizon;
 * - prepare: the files pinned (the CID is the one the independent tool gives the stored file), the one transaction
 *   of five operations signed by the issuer;
 * - submit: the piece's details checked first, the prepared transaction only, an expired one refused, the network's
 *   refusals in plain words; then the piece published once, however often or at once it is sent, with its token;
 *   on the ledger the member holds exactly the supply, and the issuer is locked and names the CID;
 * - stellar.toml lists the token; another member's mint is 404; the export lists mints and the deletion removes them;
 * - no issuer secret appears in any answer, log line or stored document.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import mongoose from 'mongoose';
import pino from 'pino';
import request, { type Response } from 'supertest';
import { parse } from 'smol-toml';
import { Keypair, StrKey, Transaction } from '@stellar/stellar-sdk';
import { seedReferenceData } from '../../server/db/seed';
import { localIpfsPinning } from '../../server/integrations/ipfs';
import { localStorage } from '../../server/integrations/storage';
import { anyOf } from '../../server/lib/query';
import { RateLimitModel } from '../../server/lib/rate-limit';
import { ContentModel } from '../../server/modules/contents';
import { nftMintListsState, removeNftMintsOf } from '../../server/modules/nft';
import { issuerKeypairOf, NftMintListModel, NftMintModel } from '../../server/modules/nft/testing';
import { createTestApp, testConfig } from '../helpers/app';
import { freezeDate } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { independentCid } from '../helpers/ipfs';
import { bearer, createMember, type TestMember } from '../helpers/ledger-factory';
import { png } from '../helpers/media';
import { spyOnScans } from '../helpers/read-meter';
import { linkWallet } from '../helpers/stellar-wallet';

useTestDatabase();

const TESTNET = 'Test SDF Network ; September 2015';
const EMPTY_CODE = 'Token Code should not be empty';
const BAD_CODE = 'Token Code must be 1 to 12 letters A–Z and digits 0–9.';
const NO_WALLET = 'Link a Stellar wallet first.';
const INSUFFICIENT = 'Insufficient account balance';
const NO_ACCOUNT = 'This Stellar account does not exist yet. Fund it with at least 3 XLM.';
const ALREADY_MINTED = 'This token is already minted.';
const NOT_PREPARED_TX = 'This is not the transaction prepared for this token. Please sign it again.';
const EXPIRED = 'This transaction has expired. Go back a step and sign it again.';
const NOT_SIGNED = 'The Stellar network refused the transaction: the wallet did not sign it.';
const UNAVAILABLE = 'The Stellar network cannot be reached right now. Please try again in a minute.';
const TOO_MANY = 'Too many tokens started. Please wait a minute and try again.';
const NOT_FOUND = 'This token was not found.';
const TOO_MANY_PREPARES = 'Too many tries at preparing this token. Please wait a minute and try again.';

const issuersKey = testConfig().auth.keys.nftIssuers;
const signingAccount = Keypair.fromRawEd25519Seed(Buffer.from(testConfig().auth.keys.stellarWebAuth, 'base64url')).publicKey();
const storageRoot = mkdtempSync(path.join(os.tmpdir(), 'knack-nft-storage-'));

/** Every line the app logged, at every level, and every answer's body. */
const logLines: string[] = [];
const answers: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  }),
);

let standIn: HorizonStandIn;
let app: ReturnType<typeof createTestApp>;

beforeAll(async () => {
  standIn = await startHorizonStandIn();
  app = createTestApp({
    logger,
    config: { stellar: standIn.stellarConfig },
    storage: localStorage(storageRoot),
    ipfs: localIpfsPinning(mkdtempSync(path.join(os.tmpdir(), 'knack-nft-ipfs-')), 'http://knack.test'),
  });
  await seedReferenceData();
}, 60_000);

afterAll(async () => standIn.stop());

beforeEach(async () => {
  await RateLimitModel.deleteMany({});
});

const kept = async (pending: request.Test): Promise<Response> => {
  const res = await pending;
  answers.push(res.text);
  return res;
};
const post = (member: TestMember, url: string, body: object) => kept(request(app).post(`/api/v2${url}`).set(bearer(member)).send(body));
const get = (member: TestMember, url: string) => kept(request(app).get(`/api/v2${url}`).set(bearer(member)));

interface Minter {
  member: TestMember;
  wallet: Keypair;
}

/** A member whose linked wallet's account holds `xlm` on the stand-in (none: the account does not exist). */
async function minter(xlm: string | null = '100'): Promise<Minter> {
  const member = await createMember();
  const wallet = await linkWallet(app, bearer(member));
  if (xlm) standIn.fund(wallet.publicKey(), xlm);
  return { member, wallet };
}

async function uploadPhoto(member: TestMember): Promise<string> {
  const res = await kept(
    request(app)
      .post('/api/v2/content/upload-photo')
      .set(bearer(member))
      .attach('file', await png(64, 48), 'sunset.png'),
  );
  expect(res.status).toBe(201);
  return res.body.path as string;
}

const details = (photoPath: string) => ({
  title: 'Sunset over Lisbon',
  description: 'Trams and light',
  tags: [{ name: 'Photos' }],
  subTag: 'Travel',
  photoPath,
});

/** A mint started and prepared for a new photo of the minter's. */
async function prepared({ member }: Minter, tokenCode = 'SUNSET01', tokenAmount?: number) {
  const started = await post(member, '/nft/mints', { tokenCode, ...(tokenAmount && { tokenAmount }) });
  expect(started.status).toBe(201);
  const photoPath = await uploadPhoto(member);
  const res = await post(member, `/nft/mints/${started.body.id}/prepare`, { photoPath });
  expect(res.status).toBe(200);
  return { mint: res.body as { id: string; transaction: string; transactionHash: string; tokenIssuer: string; asset: string; ipfsHash: string }, photoPath };
}

const signed = (xdr: string, wallet: Keypair) => {
  const tx = new Transaction(xdr, TESTNET);
  tx.sign(wallet);
  return tx.toXDR();
};

describe('starting a mint (the token code)', () => {
  it.each([
    ['', EMPTY_CODE],
    ['   ', EMPTY_CODE],
    ['sunset', BAD_CODE],
    ['ABCDEFGHIJKLM', BAD_CODE],
    ['AB-1', BAD_CODE],
  ])('when the token code is "%s", then 400 "%s"', async (tokenCode, message) => {
    const { member } = await minter();
    const res = await post(member, '/nft/mints', { tokenCode });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, code: 'bad_request' });
  });

  it('when the member has no linked wallet, or its account holds under 3 XLM, or does not exist, then 400 with the plain message', async () => {
    const noWallet = await createMember();
    expect((await post(noWallet, '/nft/mints', { tokenCode: 'ART1' })).body).toMatchObject({ message: NO_WALLET });
    const poor = await minter('2.9');
    const poorRes = await post(poor.member, '/nft/mints', { tokenCode: 'ART1' });
    expect(poorRes.status).toBe(400);
    expect(poorRes.body.message).toBe(INSUFFICIENT);
    const unfunded = await minter(null);
    expect((await post(unfunded.member, '/nft/mints', { tokenCode: 'ART1' })).body.message).toBe(NO_ACCOUNT);
    expect(await NftMintModel.countDocuments({ memberId: anyOf([noWallet.id, poor.member.id, unfunded.member.id]) })).toBe(0);
  });

  it('when the code is right, then the mint starts with a supply of 1 and an issuer derived for it, shown shortened', async () => {
    const { member, wallet } = await minter();
    const res = await post(member, '/nft/mints', { tokenCode: 'SUNSET01' });
    expect(res.status).toBe(201);
    const issuer = (await issuerKeypairOf(issuersKey, res.body.id)).publicKey();
    expect(res.body).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{24}$/),
      status: 'started',
      tokenCode: 'SUNSET01',
      tokenAmount: 1,
      tokenIssuer: issuer,
      tokenIssuerShort: `${issuer.slice(0, 4)}…${issuer.slice(-4)}`,
      asset: `SUNSET01:${issuer}`,
      ownerAddress: wallet.publicKey(),
      network: 'testnet',
      networkPassphrase: TESTNET,
    });
    expect((await get(member, `/nft/mints/${res.body.id}`)).body).toEqual(res.body);
  });

  it('when a member starts an 11th mint within a minute, then 429, counted before Horizon is asked', async () => {
    const { member } = await minter();
    for (let i = 0; i < 10; i++) expect((await post(member, '/nft/mints', { tokenCode: '' })).status).toBe(400);
    const accountReads = standIn.requests.length;
    const res = await post(member, '/nft/mints', { tokenCode: 'ART1' });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(TOO_MANY);
    expect(res.headers['retry-after']).toBeDefined();
    expect(standIn.requests.length).toBe(accountReads);
  });

  it('when a member prepares a 21st time within a minute, then 429, counted before any file is pinned or Horizon asked', async () => {
    const owner = await minter();
    const started = await post(owner.member, '/nft/mints', { tokenCode: 'PREP1' });
    for (let i = 0; i < 20; i++) expect((await post(owner.member, `/nft/mints/${started.body.id}/prepare`, {})).status).toBe(400);
    const horizonCalls = standIn.requests.length;
    const photoPath = await uploadPhoto(owner.member);
    const res = await post(owner.member, `/nft/mints/${started.body.id}/prepare`, { photoPath });
    expect(res.status).toBe(429);
    expect(res.body.message).toBe(TOO_MANY_PREPARES);
    expect(res.headers['retry-after']).toBeDefined();
    expect(standIn.requests.length).toBe(horizonCalls);
    expect((await get(owner.member, `/nft/mints/${started.body.id}`)).body).toMatchObject({ status: 'started' });
  });

  it('when Horizon cannot be reached, then 503 with the plain message, and no mint is kept', async () => {
    const { member } = await minter();
    await standIn.stop();
    try {
      const res = await post(member, '/nft/mints', { tokenCode: 'ART1' });
      expect(res.status).toBe(503);
      expect(res.body).toMatchObject({ message: UNAVAILABLE, code: 'unavailable' });
    } finally {
      await standIn.restart();
    }
    expect(await NftMintModel.countDocuments({ memberId: member.id })).toBe(0);
  });
});

describe('minting a piece, end to end', () => {
  it('when Ana prepares, signs and saves, then the token is on the ledger, locked, naming the CID, and the piece is published with it, once', async () => {
    const ana = await minter();
    const started = await post(ana.member, '/nft/mints', { tokenCode: 'SUNSET01', tokenAmount: 5 });
    const id = started.body.id as string;
    const photoPath = await uploadPhoto(ana.member);

    const prep = await post(ana.member, `/nft/mints/${id}/prepare`, { photoPath, toml: { name: 'Sunset', description: 'A token for the sunset' } });
    expect(prep.status).toBe(200);
    const mint = prep.body;
    expect(mint).toMatchObject({ status: 'prepared', ipfsHash: expect.stringMatching(/^Qm/), transactionHash: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(mint.ipfsHashShort).toBe(`${mint.ipfsHash.slice(0, 6)}…${mint.ipfsHash.slice(-8)}`);
    expect(mint.ipfsUrl).toBe(`http://knack.test/ipfs/${mint.ipfsHash}`);
    // The CID is the one the independent tool gives the stored file, and the file is served under it.
    expect(mint.ipfsHash).toBe(independentCid(path.join(storageRoot, photoPath)));
    expect((await request(app).get(`/ipfs/${mint.ipfsHash}`)).status).toBe(200);

    // The transaction: sourced by Ana's wallet, the base fee for each of five operations, 300 seconds, the issuer's signature.
    const tx = new Transaction(mint.transaction, TESTNET);
    expect(tx.source).toBe(ana.wallet.publicKey());
    expect(tx.fee).toBe('500');
    expect(Number(tx.timeBounds!.maxTime) - Math.floor(Date.now() / 1000)).toBeGreaterThan(290);
    expect(new Date(mint.expiresAt).getTime()).toBe(Number(tx.timeBounds!.maxTime) * 1000);
    expect(tx.operations.map((op) => [op.type, op.source ?? tx.source])).toEqual([
      ['createAccount', ana.wallet.publicKey()],
      ['changeTrust', ana.wallet.publicKey()],
      ['payment', mint.tokenIssuer],
      ['manageData', mint.tokenIssuer],
      ['setOptions', mint.tokenIssuer],
    ]);
    expect(tx.operations[0]).toMatchObject({ destination: mint.tokenIssuer, startingBalance: '2.0000000' });
    expect(tx.operations[2]).toMatchObject({ destination: ana.wallet.publicKey(), amount: '0.0000005' });
    expect(tx.operations[4]).toMatchObject({ masterWeight: 0 });
    expect(tx.signatures).toHaveLength(1);

    const body = { ...details(photoPath), transaction: signed(mint.transaction, ana.wallet) };
    const res = await post(ana.member, `/nft/mints/${id}/submit`, body);
    expect(res.status).toBe(201);
    expect(res.body.message).toBe('Success');
    expect(res.body.content).toMatchObject({
      id,
      title: 'Sunset over Lisbon',
      nft: {
        tokenCode: 'SUNSET01',
        tokenIssuer: mint.tokenIssuer,
        tokenIssuerShort: mint.tokenIssuerShort,
        asset: `SUNSET01:${mint.tokenIssuer}`,
        tokenAmount: 5,
        transactionHash: mint.transactionHash,
        ipfsHash: mint.ipfsHash,
        ipfsHashShort: mint.ipfsHashShort,
        ipfsUrl: mint.ipfsUrl,
        network: 'testnet',
      },
    });
    expect((await get(ana.member, `/content/get-by-id/${id}`)).body.content.nft.asset).toBe(`SUNSET01:${mint.tokenIssuer}`);

    // On the ledger: Ana holds exactly the supply, the issuer can sign nothing more and names the file's CID.
    expect(standIn.balance(ana.wallet.publicKey(), `SUNSET01:${mint.tokenIssuer}`)).toBe(5n);
    const issuer = standIn.account(mint.tokenIssuer) as { signers: { key: string; weight: number }[]; data: Record<string, string> };
    expect(issuer.signers.find((s) => s.key === mint.tokenIssuer)?.weight).toBe(0);
    expect(Buffer.from(issuer.data.ipfshash!, 'base64').toString()).toBe(mint.ipfsHash);

    expect((await get(ana.member, `/nft/mints/${id}`)).body).toMatchObject({ status: 'published', contentId: id });
    // Sent again (an answer lost on the way): the same piece, published once.
    const again = await post(ana.member, `/nft/mints/${id}/submit`, body);
    expect(again.status).toBe(201);
    expect(again.body.content.id).toBe(id);
    expect(await ContentModel.countDocuments({ ownerId: ana.member.id })).toBe(1);
    // Prepared again: it is minted.
    const reprepare = await post(ana.member, `/nft/mints/${id}/prepare`, { photoPath });
    expect(reprepare.status).toBe(409);
    expect(reprepare.body.message).toBe(ALREADY_MINTED);

    // stellar.toml lists the token, with its CID, to anyone from any origin.
    const toml = await request(app).get('/.well-known/stellar.toml');
    expect(toml.status).toBe(200);
    expect(toml.headers['content-type']).toMatch(/^text\/plain/);
    expect(toml.headers['access-control-allow-origin']).toBe('*');
    const parsed = parse(toml.text) as { NETWORK_PASSPHRASE: string; SIGNING_KEY: string; CURRENCIES: Record<string, unknown>[] };
    expect(parsed.NETWORK_PASSPHRASE).toBe(TESTNET);
    expect(parsed.SIGNING_KEY).toBe(signingAccount);
    const currency = parsed.CURRENCIES.find((c) => c.issuer === mint.tokenIssuer);
    expect(currency).toEqual({
      code: 'SUNSET01',
      issuer: mint.tokenIssuer,
      is_asset_anchored: false,
      fixed_number: 5,
      display_decimals: 7,
      name: 'Sunset',
      desc: `A token for the sunset\n\nFile on IPFS: ipfs://${mint.ipfsHash} (${mint.ipfsUrl})`,
      image: mint.ipfsUrl,
    });
  });

  it('when two submits of one mint arrive at once, then one piece is published and both answer it', async () => {
    const bea = await minter();
    const { mint, photoPath } = await prepared(bea, 'TWICE');
    const body = { ...details(photoPath), transaction: signed(mint.transaction, bea.wallet) };
    const [first, second] = await Promise.all([post(bea.member, `/nft/mints/${mint.id}/submit`, body), post(bea.member, `/nft/mints/${mint.id}/submit`, body)]);
    expect([first.status, second.status]).toEqual([201, 201]);
    expect([first.body.content.id, second.body.content.id]).toEqual([mint.id, mint.id]);
    expect(await ContentModel.countDocuments({ ownerId: bea.member.id })).toBe(1);
    expect(standIn.balance(bea.wallet.publicKey(), mint.asset)).toBe(1n);
  });
});

describe('submit refusals', () => {
  it('when the wallet did not sign, then the stand-in refuses it, the API says so in plain words, nothing is published and it can be signed again', async () => {
    const cai = await minter();
    const { mint, photoPath } = await prepared(cai, 'NOSIG');
    const res = await post(cai.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction: mint.transaction });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(NOT_SIGNED);
    expect(standIn.submitted.at(-1)).toMatchObject({ hash: mint.transactionHash, successful: false, resultCodes: { transaction: 'tx_bad_auth' } });
    expect(await ContentModel.countDocuments({ ownerId: cai.member.id })).toBe(0);
    expect((await get(cai.member, `/nft/mints/${mint.id}`)).body.status).toBe('prepared');

    const fixed = await post(cai.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction: signed(mint.transaction, cai.wallet) });
    expect(fixed.status).toBe(201);
  });

  it("when the piece's details break content/save's rules, then its message, and nothing reaches the network", async () => {
    const dan = await minter();
    const { mint, photoPath } = await prepared(dan, 'DETAILS');
    const sent = standIn.submitted.length;
    const transaction = signed(mint.transaction, dan.wallet);
    const noTitle = await post(dan.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), title: ' ', transaction });
    expect(noTitle.body).toMatchObject({ message: 'Title should not be empty' });
    const noPhoto = await post(dan.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), photoPath: undefined, transaction });
    expect(noPhoto.body).toMatchObject({ message: 'Should input photo' });
    expect(standIn.submitted.length).toBe(sent);
  });

  it('when the transaction is not the prepared one, or has expired (here or on the network), then the plain message', async () => {
    const eve = await minter();
    const { mint, photoPath } = await prepared(eve, 'OTHER');
    const other = await prepared(eve, 'OTHER2');
    const wrong = await post(eve.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction: signed(other.mint.transaction, eve.wallet) });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe(NOT_PREPARED_TX);

    const transaction = signed(mint.transaction, eve.wallet);
    const clock = freezeDate(Date.now() + 301_000);
    try {
      const late = await post(eve.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction });
      expect(late.status).toBe(400);
      expect(late.body.message).toBe(EXPIRED);
    } finally {
      clock.restore();
    }
    // Our clock says it is still valid, the network's says it is not (tx_too_late).
    standIn.advanceClock(400);
    try {
      const tooLate = await post(eve.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction });
      expect(tooLate.body.message).toBe(EXPIRED);
      expect(standIn.submitted.at(-1)?.resultCodes?.transaction).toBe('tx_too_late');
    } finally {
      standIn.advanceClock(-400);
    }
    expect(await ContentModel.countDocuments({ ownerId: eve.member.id })).toBe(0);
  });

  it("when a member asks for another member's mint, then 404 on get, prepare and submit", async () => {
    const fay = await minter();
    const gus = await minter();
    const { mint, photoPath } = await prepared(fay, 'MINE');
    const gusPhoto = await uploadPhoto(gus.member);
    const answersOf = [
      await get(gus.member, `/nft/mints/${mint.id}`),
      await post(gus.member, `/nft/mints/${mint.id}/prepare`, { photoPath: gusPhoto }),
      await post(gus.member, `/nft/mints/${mint.id}/submit`, { ...details(photoPath), transaction: signed(mint.transaction, gus.wallet) }),
    ];
    for (const res of answersOf) expect([res.status, res.body.message]).toEqual([404, NOT_FOUND]);
  });
});

describe("the member's data", () => {
  it('when a member downloads their data, then their mints are in it, read through their list by _id; when their account goes, so do the mints and the list', async () => {
    const hal = await minter();
    const { mint } = await prepared(hal, 'MYDATA');
    const second = (await post(hal.member, '/nft/mints', { tokenCode: 'MYDATA2' })).body;
    const reads = spyOnScans('nft_mints', 'nft_mint_lists');
    const data = await get(hal.member, `/user-setting/download-data/${hal.member.id}`);
    // No pass over every member's mints: only Hal's, each by `_id`.
    expect(reads.scans()).toEqual([]);
    expect(reads.reads()).toBeGreaterThan(0);
    reads.restore();
    expect(data.status).toBe(200);
    expect(data.body.nftMints).toEqual([
      expect.objectContaining({ id: mint.id, status: 'prepared', tokenCode: 'MYDATA' }),
      expect.objectContaining({ id: second.id, status: 'started', tokenCode: 'MYDATA2' }),
    ]);
    expect(await nftMintListsState.check()).toMatchObject({ differences: [] });
    await removeNftMintsOf(hal.member.id);
    expect(await NftMintModel.countDocuments({ memberId: hal.member.id })).toBe(0);
    expect(await NftMintListModel.countDocuments({ key: hal.member.id })).toBe(0);
    expect((await get(hal.member, `/user-setting/download-data/${hal.member.id}`)).body.nftMints).toEqual([]);
  });
});

describe('secrets', () => {
  it("when every mint above is done, then no issuer's secret key, nor any secret seed, is in an answer, a log line or a stored document", async () => {
    const mints = await NftMintModel.find({}, { _id: 1 }).lean();
    expect(mints.length).toBeGreaterThan(5);
    const secrets = await Promise.all(mints.map(async ({ _id }) => (await issuerKeypairOf(issuersKey, String(_id))).secret()));
    const documents: string[] = [];
    for (const { name } of await mongoose.connection.db!.listCollections().toArray()) {
      for (const doc of await mongoose.connection.db!.collection(name).find({}).toArray()) documents.push(JSON.stringify(doc));
    }
    const everything = [...answers, ...logLines, ...documents];
    expect(logLines.length).toBeGreaterThan(0);
    for (const secret of secrets) expect(everything.filter((text) => text.includes(secret))).toEqual([]);
    const seeds = everything.flatMap((text) => text.match(/S[A-Z2-7]{55}/g) ?? []).filter((text) => StrKey.isValidEd25519SecretSeed(text));
    expect(seeds).toEqual([]);
  });
});
