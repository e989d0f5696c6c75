/**
 * Linking a Stellar wallet to a member's account, proven by a SEP-10 challenge, on the real database and through
 * the real app, with keypairs made by the Stellar SDK here:
 * - the member asks for a challenge for an address, the wallet signs it, the server checks it and links the address;
 *   the link is read back with the address shortened to its first 4 and last 4 characters, and can be unlinked;
 * - refused: an invalid address, a challenge signed by another key (or by no key, or by one more), one that expired,
 *   one used twice (also twice at once), one issued to another member, one whose server signature is forged, a
 *   transaction that is not a challenge, one signed for another network;
 * - an address is linked to one member at a time: held by another it is refused, two members racing for it get one
 *   winner, unlinking frees it, and a member's new link replaces the old one and frees its address;
 * - "Download my data" lists the link and "Delete my account" removes it;
 * - signed-out calls are 401, the calls are limited per member, and no secret (the server's signing key or the
 *   wallets' keys) appears in any answer, log line or stored document.
 */
import { Writable } from 'node:stream';
import bcrypt from 'bcrypt';
import mongoose from 'mongoose';
import pino from 'pino';
import request, { type Response } from 'supertest';
import { Account, Asset, Keypair, Networks, Operation, Transaction, TransactionBuilder, WebAuth } from '@stellar/stellar-sdk';
import { seedReferenceData } from '../../server/db/seed';
import { UserModel } from '../../server/modules/users';
import { purgeExpiredWalletChallenges, WALLET_CHALLENGE_LIMIT, WALLET_LINK_LIMIT } from '../../server/modules/stellar';
import { WalletAddressModel, WalletChallengeModel, WalletChallengeUseModel, WalletLinkModel } from '../../server/modules/stellar/testing';
import { createTestApp, testConfig } from '../helpers/app';
import { freezeDate, freezeInWindow } from '../helpers/clock';
import { useTestDatabase } from '../helpers/db';
import { bearer, createMember, type TestMember } from '../helpers/ledger-factory';

useTestDatabase();

const NOT_A_CHALLENGE = 'This is not a wallet challenge from Knack. Please try again.';
const BAD_SIGNATURE = "This wallet's signature does not match the address.";
const EXPIRED = 'This challenge has expired. Please try again.';
const USED = 'This challenge was already used. Please try again.';
const NOT_YOURS = 'This challenge was not issued to you. Please try again.';
const TAKEN = 'This wallet is already linked to another Knack account.';
const BAD_ADDRESS = 'This is not a Stellar address. A Stellar address starts with G and has 56 letters and digits.';
const OTHER_NETWORK = 'This wallet signed for another Stellar network. Switch it to Testnet and try again.';
const TOO_MANY = 'Too many wallet link attempts. Please try again in a minute.';

const PASSWORD = 'Str0ng!pass';
const TESTNET = 'Test SDF Network ; September 2015';
/** The home domain and web auth domain: the host of the test app's public URL (http://knack.test). */
const DOMAIN = 'knack.test';
/** The key the server signs challenges with, derived from the test secret as every process derives it. */
const serverSeed = testConfig().auth.keys.stellarWebAuth;
const serverKey = Keypair.fromRawEd25519Seed(Buffer.from(serverSeed, 'base64url'));

/** Every line the app logged, as written, at every level. */
const logLines: string[] = [];
const logger = pino(
  { level: 'trace' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(chunk.toString());
      done();
    },
  }),
);
/** Every answer's body, as sent. */
const answers: string[] = [];
/** Every wallet key the tests made. */
const wallets: Keypair[] = [];

let app: ReturnType<typeof createTestApp>;
let passwordHash: string;

beforeAll(async () => {
  await seedReferenceData();
  app = createTestApp({ logger });
  passwordHash = await bcrypt.hash(PASSWORD, 4);
});

const kept = async (pending: request.Test): Promise<Response> => {
  const res = await pending;
  answers.push(res.text);
  return res;
};
const api = (member: TestMember | null, method: 'get' | 'post' | 'delete', url: string, body?: object) => {
  const call = request(app)[method](`/api/v2${url}`);
  if (member) call.set(bearer(member));
  return kept(body ? call.send(body) : call);
};

function newWallet(): Keypair {
  const wallet = Keypair.random();
  wallets.push(wallet);
  return wallet;
}

const askChallenge = (member: TestMember, address: string, wallet = 'freighter') => api(member, 'post', '/stellar/wallet/challenge', { address, wallet });
const link = (member: TestMember, transaction: string) => api(member, 'post', '/stellar/wallet/link', { transaction });
const linkOf = (member: TestMember) => api(member, 'get', '/stellar/wallet');

/** The challenge signed by `signers` as a wallet signs it, for `passphrase`. */
function signed(challenge: string, signers: Keypair[], passphrase = TESTNET): string {
  const tx = new Transaction(challenge, passphrase);
  for (const signer of signers) tx.sign(signer);
  return tx.toXDR();
}

/** A challenge for `wallet`'s address asked by `member`, and signed by the wallet. */
async function signedChallenge(member: TestMember, wallet: Keypair, kind = 'freighter'): Promise<string> {
  const res = await askChallenge(member, wallet.publicKey(), kind);
  expect(res.status).toBe(200);
  return signed(res.body.transaction, [wallet]);
}

const linked = (wallet: Keypair, kind = 'freighter') => ({
  linked: true,
  wallet: kind,
  network: 'testnet',
  address: wallet.publicKey(),
  addressShort: `${wallet.publicKey().slice(0, 4)}…${wallet.publicKey().slice(-4)}`,
  linkedAt: expect.any(String),
});

describe('linking a wallet', () => {
  it('when Ana signs the challenge for her address, then it is her linked wallet, shown shortened, until she unlinks it', async () => {
    const ana = await createMember();
    // A fixed key, so that the shortened address is known in advance.
    const wallet = Keypair.fromRawEd25519Seed(Buffer.alloc(32, 7));
    wallets.push(wallet);
    expect(wallet.publicKey()).toBe('GDVEU3DD4KOFECV66VIHWEZOYX4ZKR3WV27L464SIIPOU2IUI3JCZA57');
    expect((await linkOf(ana)).body).toEqual({ linked: false });

    const asked = await askChallenge(ana, wallet.publicKey());
    expect(asked.status).toBe(200);
    expect(asked.body).toEqual({ transaction: expect.any(String), networkPassphrase: TESTNET, expiresAt: expect.any(String) });
    // A SEP-10 challenge of this server's key, for this address, this home and web auth domain, for 300 seconds.
    const { tx, clientAccountID, matchedHomeDomain } = WebAuth.readChallengeTx(asked.body.transaction, serverKey.publicKey(), TESTNET, DOMAIN, DOMAIN);
    expect(clientAccountID).toBe(wallet.publicKey());
    expect(matchedHomeDomain).toBe(DOMAIN);
    expect(tx.sequence).toBe('0');
    const bounds = tx.timeBounds!;
    expect(Number(bounds.maxTime) - Number(bounds.minTime)).toBe(300);
    expect(new Date(asked.body.expiresAt).getTime()).toBe(Number(bounds.maxTime) * 1000);

    const res = await link(ana, signed(asked.body.transaction, [wallet]));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...linked(wallet), addressShort: 'GDVE…ZA57' });
    expect(Math.abs(new Date(res.body.linkedAt).getTime() - Date.now())).toBeLessThan(60_000);
    expect((await linkOf(ana)).body).toEqual(res.body);

    const unlinked = await api(ana, 'delete', '/stellar/wallet');
    expect(unlinked.status).toBe(200);
    expect(unlinked.body).toEqual({ linked: false });
    expect((await linkOf(ana)).body).toEqual({ linked: false });
    expect(await WalletLinkModel.findById(ana.id)).toBeNull();
    expect(await WalletAddressModel.findById(wallet.publicKey())).toBeNull();
    // Unlinking again changes nothing.
    expect((await api(ana, 'delete', '/stellar/wallet')).body).toEqual({ linked: false });
  });

  it('when the wallet is a Ledger, a Trezor or another wallet, then the link says which', async () => {
    for (const kind of ['ledger', 'trezor', 'external']) {
      const member = await createMember();
      const wallet = newWallet();
      const res = await link(member, await signedChallenge(member, wallet, kind));
      expect(res.status).toBe(200);
      expect(res.body).toEqual(linked(wallet, kind));
    }
  });

  it('when the address is not a Stellar account address, then 400 with the address message, and no challenge is made', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const good = wallet.publicKey();
    // The last character changed: the checksum no longer holds.
    const badChecksum = `${good.slice(0, 55)}${good.endsWith('A') ? 'B' : 'A'}`;
    for (const address of ['', 'GABC', wallet.secret(), `${good}A`, badChecksum, good.toLowerCase(), `M${good.slice(1)}`]) {
      const res = await askChallenge(ana, address);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ message: BAD_ADDRESS, errors: [{ path: 'address', message: BAD_ADDRESS }] });
    }
    expect(await WalletChallengeModel.countDocuments({ memberId: ana.id })).toBe(0);
    const res = await askChallenge(ana, good, 'metamask');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('wallet');
  });

  it('when a member links another address, then it replaces the first, which is free again; the same address again keeps its date', async () => {
    const [ana, bea] = await Promise.all([createMember(), createMember()]);
    const [first, second] = [newWallet(), newWallet()];
    const firstLink = await link(ana, await signedChallenge(ana, first));
    expect(firstLink.status).toBe(200);

    const again = await link(ana, await signedChallenge(ana, first, 'external'));
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...linked(first, 'external'), linkedAt: firstLink.body.linkedAt });

    const replaced = await link(ana, await signedChallenge(ana, second));
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual(linked(second));
    expect((await linkOf(ana)).body).toEqual(replaced.body);
    expect(await WalletAddressModel.findById(first.publicKey())).toBeNull();

    const beas = await link(bea, await signedChallenge(bea, first));
    expect(beas.status).toBe(200);
    expect(beas.body).toEqual(linked(first));
  });
});

describe('what is refused', () => {
  it('when the challenge is signed by another key, by no key, or by one key more, then 400 and nothing is linked', async () => {
    const ana = await createMember();
    const [wallet, other] = [newWallet(), newWallet()];
    for (const signers of [[other], [], [wallet, other]]) {
      const asked = await askChallenge(ana, wallet.publicKey());
      const res = await link(ana, signed(asked.body.transaction, signers));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(BAD_SIGNATURE);
    }
    expect((await linkOf(ana)).body).toEqual({ linked: false });
  });

  it('when the wallet signed for another network, then 400 says which network to switch to', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const asked = await askChallenge(ana, wallet.publicKey());
    // The challenge's bytes, read for the public network and signed there, as a wallet set to it signs.
    const res = await link(ana, signed(asked.body.transaction, [wallet], Networks.PUBLIC));
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(OTHER_NETWORK);
    expect((await linkOf(ana)).body).toEqual({ linked: false });
  });

  it('when the challenge is sent after its 300 seconds, then 400 expired; just before, it links', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const clock = freezeDate();
    try {
      const inTime = await signedChallenge(ana, wallet);
      const late = await signedChallenge(ana, wallet);
      clock.advance(299_000);
      expect((await link(ana, inTime)).status).toBe(200);
      await api(ana, 'delete', '/stellar/wallet');

      clock.advance(2_000);
      const res = await link(ana, late);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(EXPIRED);
      // Also once the SDK's own check, which allows 5 minutes more, refuses it too.
      clock.advance(300_000);
      expect((await link(ana, late)).body.message).toBe(EXPIRED);
      expect((await linkOf(ana)).body).toEqual({ linked: false });
    } finally {
      clock.restore();
    }
  });

  it('when a challenge is used a second time, then 409 already used', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const transaction = await signedChallenge(ana, wallet);
    expect((await link(ana, transaction)).status).toBe(200);
    const res = await link(ana, transaction);
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(USED);
    // Still used after the member unlinked.
    await api(ana, 'delete', '/stellar/wallet');
    expect((await link(ana, transaction)).body.message).toBe(USED);
    expect((await linkOf(ana)).body).toEqual({ linked: false });
  });

  it('when one challenge is sent twice at once, then exactly one links and the other is 409 already used', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const transaction = await signedChallenge(ana, wallet);
    const results = await Promise.all([link(ana, transaction), link(ana, transaction), link(ana, transaction)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) expect(res.body.message).toBe(USED);
    expect((await linkOf(ana)).body).toEqual(linked(wallet));
  });

  it('when Bea sends a challenge issued to Ana, then 404, and Ana can still use it', async () => {
    const [ana, bea] = await Promise.all([createMember(), createMember()]);
    const wallet = newWallet();
    const transaction = await signedChallenge(ana, wallet);
    const res = await link(bea, transaction);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(NOT_YOURS);
    expect((await linkOf(bea)).body).toEqual({ linked: false });
    expect((await link(ana, transaction)).body).toEqual(linked(wallet));
  });

  it('when the server signature is forged, or the challenge is for another domain, then 400 not a challenge from Knack', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const forger = Keypair.random();
    // Built like Knack's, by another key.
    const forged = WebAuth.buildChallengeTx(forger, wallet.publicKey(), DOMAIN, 300, TESTNET, DOMAIN);
    // Knack's own challenge, its signature swapped for another key's.
    const asked = await askChallenge(ana, wallet.publicKey());
    const swapped = new Transaction(asked.body.transaction, TESTNET);
    swapped.signatures.splice(0);
    swapped.sign(forger);
    // Signed by Knack's key, but for another site.
    const elsewhere = WebAuth.buildChallengeTx(serverKey, wallet.publicKey(), 'evil.example', 300, TESTNET, 'evil.example');
    for (const challenge of [forged, swapped.toXDR(), elsewhere]) {
      const res = await link(ana, signed(challenge, [wallet]));
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(NOT_A_CHALLENGE);
    }
    expect((await linkOf(ana)).body).toEqual({ linked: false });
  });

  it('when the transaction is not a challenge (a payment, or bytes that are no transaction), then 400 not a challenge from Knack', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const payment = new TransactionBuilder(new Account(wallet.publicKey(), '41'), { fee: '100', networkPassphrase: TESTNET })
      .addOperation(Operation.payment({ destination: serverKey.publicKey(), asset: Asset.native(), amount: '10' }))
      .setTimeout(300)
      .build();
    payment.sign(wallet);
    for (const transaction of [payment.toXDR(), 'AAAA', Buffer.from('not a transaction').toString('base64')]) {
      const res = await link(ana, transaction);
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(NOT_A_CHALLENGE);
    }
    const res = await link(ana, 'not base64!');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].path).toBe('transaction');
  });
});

describe('one address, one member', () => {
  it('when Bea proves an address Ana has linked, then 409; once Ana unlinks it, Bea links it', async () => {
    const [ana, bea] = await Promise.all([createMember(), createMember()]);
    const wallet = newWallet();
    expect((await link(ana, await signedChallenge(ana, wallet))).status).toBe(200);
    const res = await link(bea, await signedChallenge(bea, wallet));
    expect(res.status).toBe(409);
    expect(res.body.message).toBe(TAKEN);
    expect((await linkOf(bea)).body).toEqual({ linked: false });
    expect((await linkOf(ana)).body).toEqual(linked(wallet));

    await api(ana, 'delete', '/stellar/wallet');
    expect((await link(bea, await signedChallenge(bea, wallet))).body).toEqual(linked(wallet));
  });

  it('when two members link the same address at once, then exactly one wins and the other is 409', async () => {
    const members = await Promise.all([createMember(), createMember(), createMember()]);
    const wallet = newWallet();
    const transactions = await Promise.all(members.map((member) => signedChallenge(member, wallet)));
    const results = await Promise.all(members.map((member, i) => link(member, transactions[i]!)));
    expect(results.map((res) => res.status).sort()).toEqual([200, 409, 409]);
    for (const res of results.filter((r) => r.status === 409)) expect(res.body.message).toBe(TAKEN);
    const winner = members[results.findIndex((res) => res.status === 200)]!;
    expect((await WalletAddressModel.findById(wallet.publicKey()).lean())?.memberId).toBe(winner.id);
    const links = await Promise.all(members.map(async (member) => (await linkOf(member)).body as { linked: boolean }));
    expect(links.filter((one) => one.linked)).toEqual([linked(wallet)]);
  });

  it('when an address is held by a member whose link names another (two of their links crossed), then it gives way after a minute', async () => {
    const [ana, bea] = await Promise.all([createMember(), createMember()]);
    const [kept, left] = [newWallet(), newWallet()];
    expect((await link(ana, await signedChallenge(ana, kept))).status).toBe(200);
    // What two links of Ana's sent at the same moment can leave: her link names one address, and she still holds the other.
    await WalletAddressModel.create({ _id: left.publicKey(), memberId: ana.id, claimedAt: new Date() });
    const clock = freezeDate();
    try {
      const early = await link(bea, await signedChallenge(bea, left));
      expect(early.status).toBe(409);
      expect(early.body.message).toBe(TAKEN);
      clock.advance(61_000);
      expect((await link(bea, await signedChallenge(bea, left))).body).toEqual(linked(left));
      expect((await linkOf(ana)).body).toEqual(linked(kept));
      expect((await WalletAddressModel.findById(left.publicKey()).lean())?.memberId).toBe(bea.id);
    } finally {
      clock.restore();
    }
  });
});

describe('the account', () => {
  it('when Ana downloads her data, then her wallet link is in it; when she deletes her account, the link goes and the address is free', async () => {
    const [ana, bea] = await Promise.all([createMember(), createMember()]);
    await UserModel.updateOne({ _id: ana.id }, { $set: { passwordHash } });
    const wallet = newWallet();
    const linkedNow = await link(ana, await signedChallenge(ana, wallet));
    // A challenge she asked for and never used is hers too.
    await askChallenge(ana, newWallet().publicKey());

    const data = await api(ana, 'get', `/user-setting/download-data/${ana.id}`);
    expect(data.status).toBe(200);
    expect(data.body.stellarWallet).toEqual(linkedNow.body);
    const beas = await api(bea, 'get', `/user-setting/download-data/${bea.id}`);
    expect(beas.body.stellarWallet).toEqual({ linked: false });

    expect((await api(ana, 'post', `/user-setting/delete-account/${ana.id}`, { password: PASSWORD })).status).toBe(200);
    expect(await WalletLinkModel.findById(ana.id)).toBeNull();
    expect(await WalletAddressModel.findById(wallet.publicKey())).toBeNull();
    expect(await WalletChallengeModel.countDocuments({ memberId: ana.id })).toBe(0);
    expect((await link(bea, await signedChallenge(bea, wallet))).body).toEqual(linked(wallet));
  });

  it('when nobody is signed in, then every wallet call is 401', async () => {
    const wallet = newWallet();
    for (const [method, url, body] of [
      ['post', '/stellar/wallet/challenge', { address: wallet.publicKey(), wallet: 'freighter' }],
      ['post', '/stellar/wallet/link', { transaction: 'AAAA' }],
      ['get', '/stellar/wallet', undefined],
      ['delete', '/stellar/wallet', undefined],
    ] as const) {
      expect((await api(null, method, url, body)).status).toBe(401);
    }
  });
});

describe('limits and housekeeping', () => {
  it('when a member asks for challenges past the limit, then 429 with Retry-After', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const clock = freezeInWindow(WALLET_CHALLENGE_LIMIT.windowMs, 1_000);
    try {
      for (let i = 0; i < WALLET_CHALLENGE_LIMIT.max; i++) expect((await askChallenge(ana, wallet.publicKey())).status).toBe(200);
      const res = await askChallenge(ana, wallet.publicKey());
      expect(res.status).toBe(429);
      expect(res.body.message).toBe(TOO_MANY);
      expect(res.headers['retry-after']).toBe(String((WALLET_CHALLENGE_LIMIT.windowMs - 1_000) / 1000));
      // Another member is not held up.
      expect((await askChallenge(await createMember(), wallet.publicKey())).status).toBe(200);
    } finally {
      clock.restore();
    }
  });

  it('when a member sends links past the limit, then 429 before any check, even for a good challenge', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const clock = freezeInWindow(WALLET_LINK_LIMIT.windowMs, 1_000);
    try {
      const good = await signedChallenge(ana, wallet);
      for (let i = 0; i < WALLET_LINK_LIMIT.max; i++) expect((await link(ana, 'AAAA')).status).toBe(400);
      const res = await link(ana, good);
      expect(res.status).toBe(429);
      expect(res.body.message).toBe(TOO_MANY);
      expect((await linkOf(ana)).body).toEqual({ linked: false });
    } finally {
      clock.restore();
    }
  });

  it('when challenges have expired, then the housekeeping removes them and their uses, and a used one stays refused', async () => {
    const ana = await createMember();
    const wallet = newWallet();
    const used = await signedChallenge(ana, wallet);
    expect((await link(ana, used)).status).toBe(200);
    const unused = await signedChallenge(ana, newWallet());
    const mine = { memberId: ana.id };
    expect(await WalletChallengeModel.countDocuments(mine)).toBe(2);

    expect(await purgeExpiredWalletChallenges(new Date())).toBe(0);
    const later = new Date(Date.now() + 301_000);
    expect(await purgeExpiredWalletChallenges(later)).toBeGreaterThanOrEqual(3);
    expect(await WalletChallengeModel.countDocuments(mine)).toBe(0);
    expect(await WalletChallengeUseModel.countDocuments({ memberId: ana.id })).toBe(0);

    const clock = freezeDate(later.getTime());
    try {
      expect((await link(ana, used)).body.message).toBe(EXPIRED);
      expect((await link(ana, unused)).body.message).toBe(EXPIRED);
    } finally {
      clock.restore();
    }
  });
});

describe('secrets', () => {
  it('when every call above has run, then no secret key appears in any answer, log line or stored document', async () => {
    const documents: string[] = [];
    for (const collection of Object.values(mongoose.connection.collections)) {
      for (const document of await collection.find({}).toArray()) documents.push(JSON.stringify(document));
    }
    expect(answers.length).toBeGreaterThan(80);
    expect(logLines.length).toBeGreaterThan(80);
    // The dump does hold the wallet collections: addresses are in it.
    expect(wallets.some((wallet) => documents.some((document) => document.includes(wallet.publicKey())))).toBe(true);
    const secrets = [serverKey.secret(), serverSeed, Buffer.from(serverSeed, 'base64url').toString('base64'), ...wallets.map((wallet) => wallet.secret())];
    expect(wallets.length).toBeGreaterThan(10);
    for (const secret of secrets) {
      for (const [where, texts] of [
        ['answers', answers],
        ['log lines', logLines],
        ['documents', documents],
      ] as const) {
        expect({ where, found: texts.filter((text) => text.includes(secret)).length }).toEqual({ where, found: 0 });
      }
    }
  });
});
