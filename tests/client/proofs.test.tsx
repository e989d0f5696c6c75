/**
 * Verifiable earnings on the client: the wallet's "Proof" on each history item with a ledger entry (the proof saved
 * as a JSON file; the server's sentences when a day is not over or not rooted yet), what a proof proves and what it
 * does not, and the verifier page (/verify), open to visitors, which recomputes the root in the browser and compares
 * it with the memo of the anchoring transaction read from Horizon. The proofs are made by the server's Merkle tree
 * (server/lib/merkle.ts); Horizon answers as it does (a transaction record with its memo in base64). The generated
 * operations are mocked; the store, router and toasts are real.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { getLedgerProof, getUserHistory, getWalletSummary } from '../../client/src/api/generated/operations';
import { ApiError } from '../../client/src/api/http';
import type { components } from '../../generated/openapi';
import { inclusionPath, merkleRoot } from '../../server/lib/merkle';
import { QUIET_CALL } from './call-options';
import { mockPublicCalls } from './auth-app';
import { JANE_ID, renderAt, toastTexts } from './profile-fixtures';
import { catchSavedFiles, historyItem, renderAsMember, walletSummary } from './wallet-fixtures';

jest.mock('../../client/src/api/generated/operations');

type LedgerProof = components['schemas']['LedgerProof'];

const ANCHOR_ACCOUNT = 'GAHK7EEG2WWHVKDNT4CEQFZGKF2LGDSW2IVM4S5DP42RBW3K6BTODB4A';
const TX_HASH = 'a'.repeat(64);
const DAY = '2026-05-13';

/** A closed day's entries in their canonical encoding, in _id order, as the ledger-roots job takes them. */
function dayEntries(): string[] {
  const entry = (id: string, minute: number, amount: number) =>
    `{"_id":"${id}","actorId":"64b0000000000000000000b2","amountMicros":null,"at":"${DAY}T10:${String(minute).padStart(2, '0')}:00.000Z","contentId":"64c000000000000000000001","kind":"knack","legs":[{"account":"platform:knacks","amountMicros":-${amount}},{"account":"user:${JANE_ID}","amountMicros":${amount}}],"method":null,"ref":null}`;
  return [
    entry('knack:64c000000000000000000001:64b0000000000000000000b1', 1, 50000),
    entry('knack:64c000000000000000000001:64b0000000000000000000b2', 2, 50000),
    entry('knack:64c000000000000000000001:64b0000000000000000000b3', 3, 45000),
    entry('knack:64c000000000000000000001:64b0000000000000000000b4', 4, 45000),
    entry('knack:64c000000000000000000001:64b0000000000000000000b5', 5, 50000),
  ];
}

/** The proof of the day's entry at `index`, as GET /ledger/proofs answers it. */
function proofOf(index: number, anchor: Partial<LedgerProof['anchor']> = {}): LedgerProof {
  const entries = dayEntries();
  const leaves = entries.map((text) => Buffer.from(text, 'utf8'));
  return {
    version: 1,
    tree: 'rfc6962-sha256',
    entryId: (JSON.parse(entries[index]!) as { _id: string })._id,
    day: DAY,
    entry: entries[index]!,
    leafIndex: index,
    treeSize: entries.length,
    path: inclusionPath(leaves, index).map((node) => node.toString('hex')),
    root: merkleRoot(leaves).toString('hex'),
    anchor: {
      status: 'anchored',
      network: 'testnet',
      networkPassphrase: 'Test SDF Network ; September 2015',
      account: ANCHOR_ACCOUNT,
      transactionHash: TX_HASH,
      ledger: 4242,
      anchoredAt: '2026-05-14T00:17:05.000Z',
      ...anchor,
    },
  };
}

/** Horizon's record of the anchoring transaction: the root's 32 bytes as its memo hash, in base64. */
function anchorTransaction(rootHex: string, overrides: Record<string, unknown> = {}) {
  return {
    id: TX_HASH,
    hash: TX_HASH,
    successful: true,
    ledger: 4242,
    created_at: '2026-05-14T00:17:05Z',
    source_account: ANCHOR_ACCOUNT,
    memo_type: 'hash',
    memo: Buffer.from(rootHex, 'hex').toString('base64'),
    ...overrides,
  };
}

/** Horizon at the network edge, as the browser's fetch reaches it: `answer` for each URL asked. */
function horizonAnswers(answer: (url: string) => { status: number; body?: unknown } | 'unreachable') {
  const asked: string[] = [];
  const fetchStub = jest.fn(async (url: string) => {
    asked.push(url);
    const answered = answer(url);
    if (answered === 'unreachable') throw new TypeError('Failed to fetch');
    return { ok: answered.status < 300, status: answered.status, json: async () => answered.body } as Response;
  });
  Object.defineProperty(globalThis, 'fetch', { configurable: true, writable: true, value: fetchStub });
  return asked;
}

afterEach(() => jest.restoreAllMocks());

describe('the wallet: proofs of its entries', () => {
  const knack = historyItem('Paid1', 'bea_moon viewed Blue Hour', { paid: 0.05, earned: 0.05 }, { historyId: proofOf(1).entryId });
  const pendingCashOut = historyItem('Earn', 'You asked to cash out $12.00', { paid: 12, earned: 11.4 }, { status: 'pending' });
  const approvedCashOut = historyItem('Earn', 'Your cash-out of $10.00 was approved', { paid: 10, earned: 9.41 }, { status: 'approved' });

  beforeEach(() => {
    jest.mocked(getWalletSummary).mockResolvedValue(walletSummary({ balance: 3 }));
    jest.mocked(getUserHistory).mockResolvedValue({ items: [knack, pendingCashOut, approvedCashOut], nextCursor: null });
  });

  const history = async () => screen.findByRole('list', { name: 'History' });
  const proofButton = async (activity: string) => within(await history()).findByRole('button', { name: `Proof: ${activity}` });

  it("when Jane presses Proof on a knack, then the entry's proof is asked for by its ledger id and saved as a JSON file; a cash-out waiting has no Proof, an approved one asks for its payment's entry", async () => {
    const saved = catchSavedFiles();
    const proof = proofOf(1);
    jest.mocked(getLedgerProof).mockResolvedValue(proof);
    await renderAsMember('/wallet');

    fireEvent.click(await proofButton('bea_moon viewed Blue Hour'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(getLedgerProof).toHaveBeenCalledWith({ path: { entryId: 'knack:64c000000000000000000001:64b0000000000000000000b2' } }, QUIET_CALL);
    expect(saved[0]!.name).toBe('knack-proof-knack-64c000000000000000000001-64b0000000000000000000b2.json');
    expect(JSON.parse(await saved[0]!.text)).toEqual(proof);
    expect(toastTexts()).toEqual([]);

    const rows = within(await history()).getAllByRole('listitem');
    expect(within(rows[1]!).queryByRole('button', { name: /^Proof/ })).toBeNull();
    fireEvent.click(await proofButton('Your cash-out of $10.00 was approved'));
    await waitFor(() => expect(getLedgerProof).toHaveBeenCalledTimes(2));
    expect(getLedgerProof).toHaveBeenLastCalledWith({ path: { entryId: `cash-out:${approvedCashOut.historyId}` } }, QUIET_CALL);
  });

  it("when the entry's day is not over, or its root is not made yet, then the server's sentence shows under the item, not as an error toast, and nothing is saved", async () => {
    const saved = catchSavedFiles();
    const notOver = "This entry's day is not over yet: its proof can be had once the day's root is made, within an hour after midnight UTC.";
    const notRooted = "The root of this entry's day is not made yet. Please try again in an hour.";
    jest
      .mocked(getLedgerProof)
      .mockRejectedValueOnce(new ApiError(notOver, 409, 'conflict'))
      .mockRejectedValueOnce(new ApiError(notRooted, 409, 'conflict'));
    await renderAsMember('/wallet');

    fireEvent.click(await proofButton('bea_moon viewed Blue Hour'));
    const row = (await proofButton('bea_moon viewed Blue Hour')).closest('li')!;
    expect((await within(row).findByRole('status')).textContent).toBe(notOver);
    fireEvent.click(await proofButton('bea_moon viewed Blue Hour'));
    await waitFor(() => expect(within(row).getByRole('status').textContent).toBe(notRooted));
    expect(saved).toEqual([]);
    expect(toastTexts()).toEqual([]);
  });

  it('when the root is not anchored yet, then the proof is saved and the item says to download it again later', async () => {
    const saved = catchSavedFiles();
    jest.mocked(getLedgerProof).mockResolvedValue(proofOf(1, { status: 'not-anchored', transactionHash: null, ledger: null, anchoredAt: null }));
    await renderAsMember('/wallet');
    fireEvent.click(await proofButton('bea_moon viewed Blue Hour'));
    const row = (await proofButton('bea_moon viewed Blue Hour')).closest('li')!;
    expect((await within(row).findByRole('status')).textContent).toBe(
      "Proof saved. Its day's root is not anchored on Stellar yet: download the proof again later to check it.",
    );
    expect(saved).toHaveLength(1);
  });

  it('when the wallet opens, then it says what a proof proves and what it does not, and links to the verifier', async () => {
    await renderAsMember('/wallet');
    const about = await screen.findByRole('region', { name: 'What a proof proves' });
    expect(about.textContent).toContain('It proves that no entry of a closed day was changed or dropped after its root was anchored on Stellar');
    expect(about.textContent).toContain('that an entry was right when it was written');
    expect(about.textContent).toContain("anything about today's entries");
    expect(about.textContent).toContain('anything about entries from before anchoring began');
    expect(within(about).getByRole('link', { name: 'verifier page' }).getAttribute('href')).toBe('/verify');
  });
});

describe('the verifier page (/verify), for visitors', () => {
  beforeEach(() => mockPublicCalls());

  async function openVerifier() {
    renderAt('/verify');
    await screen.findByRole('heading', { level: 1, name: 'Verify a proof' });
  }

  /** The proof given as a chosen file, the Horizon named (or left empty), then Verify: the verdict's region. */
  async function verify(text: string, horizon = '') {
    const input = document.querySelector<HTMLInputElement>('input[type="file"]')!;
    // jsdom's File has no text(): the browser's answers the file's text.
    const file = Object.assign(new File([text], 'proof.json', { type: 'application/json' }), { text: async () => text });
    fireEvent.change(input, { target: { files: [file] } });
    await screen.findByText('proof.json');
    fireEvent.change(screen.getByLabelText('Horizon'), { target: { value: horizon } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    return within(await screen.findByRole('region', { name: 'Verdict' }));
  }

  /** What the verdict lists as checked, term by term. */
  const checked = () =>
    Object.fromEntries(
      [...document.querySelectorAll('.kn-verify__checked > div')].map((row) => [row.querySelector('dt')!.textContent, row.querySelector('dd')!.textContent]),
    );

  it("when a proof's entry leads to its root and the transaction's memo on the network's SDF Horizon is that root, then: Verified, with the transaction and its account", async () => {
    const proof = proofOf(3);
    const asked = horizonAnswers(() => ({ status: 200, body: anchorTransaction(proof.root) }));
    await openVerifier();
    const verdict = await verify(JSON.stringify(proof, null, 2));
    expect(verdict.getByText('Verified')).toBeTruthy();
    expect(
      verdict.getByText(`The entry ${proof.entryId} is in the root of ${DAY}, anchored on Stellar at 2026-05-14T00:17:05Z by ${ANCHOR_ACCOUNT}.`),
    ).toBeTruthy();
    expect(asked).toEqual([`https://horizon-testnet.stellar.org/transactions/${TX_HASH}`]);
    expect(checked()).toMatchObject({
      Day: `${DAY}: leaf 3 of 5`,
      Root: proof.root,
      Computed: proof.root,
      Transaction: `${TX_HASH} in ledger 4242, 2026-05-14T00:17:05Z`,
      From: ANCHOR_ACCOUNT,
      Memo: proof.root,
    });
  });

  it('when an amount of the entry was changed after its day was rooted, then: Root mismatch, and Horizon is not asked', async () => {
    const proof = proofOf(2);
    const changed = { ...proof, entry: proof.entry.replace('"amountMicros":45000', '"amountMicros":95000') };
    const asked = horizonAnswers(() => ({ status: 200, body: anchorTransaction(proof.root) }));
    await openVerifier();
    const verdict = await verify(JSON.stringify(changed));
    expect(verdict.getByText('Root mismatch')).toBeTruthy();
    expect(verdict.getByText('The entry and its audit path do not lead to the proof’s root: the entry is not the one the root holds.')).toBeTruthy();
    expect(checked().Computed).not.toBe(proof.root);
    expect(asked).toEqual([]);
  });

  it("when the transaction's memo is another root, then: Root mismatch, the root is not the one anchored", async () => {
    const proof = proofOf(0);
    horizonAnswers(() => ({ status: 200, body: anchorTransaction('b'.repeat(64)) }));
    await openVerifier();
    const verdict = await verify(JSON.stringify(proof));
    expect(verdict.getByText('Root mismatch')).toBeTruthy();
    expect(verdict.getByText("The transaction's memo hash is not the root: this root is not the one anchored.")).toBeTruthy();
  });

  it('when the root is not anchored yet, then: Not anchored yet, and Horizon is not asked', async () => {
    const asked = horizonAnswers(() => ({ status: 500 }));
    await openVerifier();
    const verdict = await verify(JSON.stringify(proofOf(4, { status: 'pending', ledger: null, anchoredAt: null })));
    expect(verdict.getByText('Not anchored yet')).toBeTruthy();
    expect(
      verdict.getByText("The entry is in its day's root, but the root is not anchored on Stellar yet (pending): download the proof again later."),
    ).toBeTruthy();
    expect(asked).toEqual([]);
  });

  it('when the Horizon the visitor names cannot be reached, then: Could not reach Horizon, asked at that address', async () => {
    const asked = horizonAnswers(() => 'unreachable');
    await openVerifier();
    const verdict = await verify(JSON.stringify(proofOf(1)), 'https://horizon.example.org/');
    expect(verdict.getByText('Could not reach Horizon')).toBeTruthy();
    expect(verdict.getByText('Horizon at https://horizon.example.org cannot be reached. Check the address, or try again later.')).toBeTruthy();
    expect(asked).toEqual([`https://horizon.example.org/transactions/${TX_HASH}`]);
  });

  it('when Horizon has no such transaction, or it was sent by another account, then: Not verified, saying which', async () => {
    const proof = proofOf(1);
    const other = 'GBRPYHIL2CI3FNQ4BXLFMNDLFJUNPU2HY3ZMFSHONUCEOASW7QC7OX2H';
    horizonAnswers((url) =>
      url.startsWith('https://one.example') ? { status: 404 } : { status: 200, body: anchorTransaction(proof.root, { source_account: other }) },
    );
    await openVerifier();
    let verdict = await verify(JSON.stringify(proof), 'https://one.example');
    expect(verdict.getByText('Not verified')).toBeTruthy();
    expect(verdict.getByText(`Horizon at https://one.example has no transaction ${TX_HASH}.`)).toBeTruthy();
    verdict = await verify(JSON.stringify(proof), 'https://two.example');
    expect(verdict.getByText(`The transaction was sent by ${other}, not by the anchor account ${ANCHOR_ACCOUNT}.`)).toBeTruthy();
  });

  it('when the pasted text is not a proof, then: Not a Knack proof', async () => {
    horizonAnswers(() => 'unreachable');
    await openVerifier();
    fireEvent.change(screen.getByLabelText('Or paste the proof'), { target: { value: '{"hello":"world"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    const verdict = within(await screen.findByRole('region', { name: 'Verdict' }));
    expect(verdict.getByText('Not a Knack proof')).toBeTruthy();
    expect(verdict.getByText('This is not a Knack ledger proof of version 1 (tree rfc6962-sha256).')).toBeTruthy();
  });
});
