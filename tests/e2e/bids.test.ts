/**
 * Bids and verifiable earnings in Chromium, with the Horizon stand-in for the network and a Freighter stand-in for
 * each member's wallet:
 * - Bea bids on Ana's NFT piece, Ana sells, both sign the one sale transaction with their own Freighter; the network
 *   holds it, the XLM and the token moved by exactly the price (and the fee), and the piece shows Bea as its owner;
 * - Ana downloads from her wallet the proof of an entry of a day rooted and anchored by the anchors job, and the
 *   verifier page checks it against the anchoring transaction on Horizon;
 * - a visitor checks a proof on the verifier page, its root recomputed in the browser.
 * Screenshots at 1280 and 390 px.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Keypair, Transaction } from '@stellar/stellar-sdk';
import type { Locator, Page } from 'playwright-core';
import { inclusionPath, merkleRoot } from '../../server/lib/merkle';
import { LedgerRootModel, type LedgerRootDoc } from '../../server/modules/anchors';
import { ContentModel } from '../../server/modules/contents';
import { createTestServices } from '../helpers/app';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, watchErrors, screenshotBothWidths } from '../helpers/e2e';
import { coverPng, signedInPage, usePiecesWorld, type Member } from '../helpers/e2e-pieces';
import { installFreighterStandIn } from '../helpers/freighter-standin';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { payListing, type TestMember } from '../helpers/ledger-factory';
import { mintNftPiece } from '../helpers/nft-mint';
import { linkWallet } from '../helpers/stellar-wallet';

jest.setTimeout(150_000);
useTestDatabase();

let standIn: HorizonStandIn;
beforeAll(async () => {
  standIn = await startHorizonStandIn();
  // 10 XLM a dollar: the owner's panel shows what a sale brings in dollars too.
  standIn.setOrderBook({ asks: [{ price: '0.1', amount: '1000' }] });
});
afterAll(async () => standIn?.stop());

const world = usePiecesWorld('bids', () => ({ config: { stellar: standIn.stellarConfig } }));

/** Bea's bid, 12.50 XLM, in stroops. */
const PRICE_STROOPS = 125_000_000n;

/** A member's page with their own Freighter (allowed on the site), holding the wallet they linked, funded with 100 XLM. */
async function walletPage(member: Member) {
  const key = Keypair.random();
  await linkWallet(world.baseUrl, { Authorization: `Bearer ${member.token}` }, key);
  standIn.fund(key.publicKey(), '100');
  const page = await signedInPage(world, member, { viewport: DESKTOP });
  const freighter = await installFreighterStandIn(page.context(), { secret: key.secret(), allowed: true });
  return { key, page, freighter, errors: watchErrors(page) };
}

const detailOf = (page: Page, title: string) => page.getByRole('dialog').filter({ has: page.locator('.kn-detail__title', { hasText: title }) });

/** Opens a piece by its share link (it starts with '/'): the profile with the detail modal over it, and its buy/sell panel. */
async function openPanel(page: Page, piece: { title: string; link: string }): Promise<{ modal: Locator; panel: Locator }> {
  await page.goto(`${world.baseUrl}${piece.link}`, { waitUntil: 'networkidle' });
  const modal = detailOf(page, piece.title);
  const panel = modal.getByRole('region', { name: 'Buy or sell' });
  await panel.waitFor();
  return { modal, panel };
}

describe('bids and proofs in the browser', () => {
  it('when Bea bids on Ana’s NFT piece, Ana sells and both sign with Freighter, then the network holds the sale and the piece shows Bea as its owner', async () => {
    const ana = await walletPage(world.ana);
    const bea = await walletPage(world.bea);
    const piece = await mintNftPiece(world.baseUrl, { Authorization: `Bearer ${world.ana.token}` }, ana.key, {
      tokenCode: 'HARBOR1',
      photo: await coverPng(200),
      details: { title: 'Harbor lights', description: 'Boats at dusk, their lamps on the water.', tags: [{ name: 'Photos' }], subTag: 'Travel' },
    });
    const asset = piece.nft.asset;
    expect(standIn.balance(ana.key.publicKey(), asset)).toBe(1n);

    // Bea bids 12.50 XLM from the Buy tab.
    const beaView = await openPanel(bea.page, piece);
    await beaView.panel.getByRole('tab', { name: 'Buy' }).waitFor();
    await beaView.panel.getByLabel('Price').fill('12.5');
    await beaView.panel.getByRole('button', { name: 'Bid', exact: true }).click();
    await bea.page.getByText('Your bid of 12.50 XLM is the current best bid.').waitFor();
    await beaView.panel.getByTestId('bid-current').getByText('12.50 XLM').waitFor();
    await beaView.panel.getByRole('list', { name: 'Bid history' }).getByText('bid 12.50 XLM').waitFor();
    await screenshotBothWidths(bea.page, 'bids-buy', { focus: beaView.panel });

    // Ana sees the bid and what a sale brings, sells, and her Freighter signs (the token leaves her account).
    const anaView = await openPanel(ana.page, piece);
    await anaView.panel.getByRole('tab', { name: 'Sell' }).waitFor();
    await anaView.panel.getByTestId('bid-current').getByText('12.50 XLM').waitFor();
    expect(await anaView.panel.getByTestId('bid-brings').textContent()).toBe(
      'A sale at the current bid brings you 12.50 XLM (about $1.25): Knack takes no percentage.',
    );
    await screenshotBothWidths(ana.page, 'bids-sell', { focus: anaView.panel });
    await anaView.panel.getByRole('button', { name: 'Sell for 12.50 XLM' }).click();
    await ana.page.getByText('The sale is pending: waiting for the buyer to sign it with their wallet.').first().waitFor();
    expect(ana.freighter.signed).toHaveLength(1);
    // Nothing changed hands yet.
    expect(String((await ContentModel.findById(piece.id).lean())!.ownerId)).toBe(world.ana.user.id);

    // Bea finds the sale in her inbox and follows its link: her Freighter signs, Knack submits, and it settles once
    // it is in a ledger.
    const before = { bea: standIn.balance(bea.key.publicKey())!, ana: standIn.balance(ana.key.publicKey())! };
    await bea.page.goto(`${world.baseUrl}/inbox`, { waitUntil: 'networkidle' });
    await bea.page.getByText('Your bid was accepted').first().click();
    const notice = bea.page.getByRole('region', { name: 'Conversation', exact: true });
    await notice.getByText(/accepted your bid of 12\.50 XLM/).waitFor();
    await screenshotBothWidths(bea.page, 'bids-inbox-sale');
    await notice.getByRole('link', { name: /\/approve\?token=/ }).click();
    await bea.page.getByText('The sale is settled on the Stellar network: the piece has its new owner.').first().waitFor();
    expect(bea.freighter.signed).toHaveLength(1);

    // The network: the one transaction, in a ledger, carrying the price to Ana and the token to Bea.
    const sale = standIn.submitted.filter((sent) => sent.successful).at(-1)!;
    const transaction = new Transaction(sale.envelopeXdr, standIn.passphrase);
    expect(transaction.source).toBe(bea.key.publicKey());
    const seen = await fetch(`${standIn.url}/transactions/${sale.hash}`);
    expect(seen.status).toBe(200);
    expect(await seen.json()).toMatchObject({ hash: sale.hash, successful: true });
    expect(standIn.balance(bea.key.publicKey(), asset)).toBe(1n);
    expect(standIn.balance(ana.key.publicKey(), asset)).toBe(0n);
    expect(standIn.balance(bea.key.publicKey())).toBe(before.bea - PRICE_STROOPS - BigInt(transaction.fee));
    expect(standIn.balance(ana.key.publicKey())).toBe(before.ana + PRICE_STROOPS);
    expect(String((await ContentModel.findById(piece.id).lean())!.ownerId)).toBe(world.bea.user.id);

    // The piece shows its new owner: Bea's name in the detail, her Sell tab, and the sale in the history.
    const beaAgain = await openPanel(bea.page, piece);
    await beaAgain.modal.locator('.kn-detail__owner-name', { hasText: world.bea.form.username.replace(/_/g, ' ') }).waitFor();
    await beaAgain.panel.getByRole('tab', { name: 'Sell' }).waitFor();
    const history = beaAgain.panel.getByRole('list', { name: 'Bid history' });
    await history.getByText(/bought it for 12\.50 XLM$/).waitFor();
    await history.getByText(/sold it for 12\.50 XLM$/).waitFor();
    // Sold, the piece is closed to bids until Bea relists it; it earned nothing, so relisting is free.
    await beaAgain.panel.getByTestId('bid-last-sale').getByText('12.50 XLM').waitFor();
    await beaAgain.panel.getByText(/Nobody can bid until you relist it: relisting is free/).waitFor();
    await screenshotBothWidths(bea.page, 'bids-sold', { focus: beaAgain.panel });
    // Ana's old share link leads to the piece under Bea's name.
    await ana.page.goto(`${world.baseUrl}${piece.link}`, { waitUntil: 'networkidle' });
    await ana.page.waitForURL(new RegExp(`/${world.bea.form.username}-`));
    const anaAfter = detailOf(ana.page, piece.title).getByRole('region', { name: 'Buy or sell' });
    await anaAfter.getByText(/Bidding opens again when its owner relists it\.$/).waitFor();
    expect(await anaAfter.getByRole('button', { name: 'Bid', exact: true }).isDisabled()).toBe(true);
    await beaAgain.panel.getByRole('button', { name: 'Relist for free' }).click();
    await bea.page.getByText('Your piece is open for bids again.').waitFor();
    await beaAgain.panel.getByTestId('bid-current').getByText('0.00 XLM').waitFor();
    expect(ana.errors).toEqual([]);
    expect(bea.errors).toEqual([]);
    await ana.page.context().close();
    await bea.page.context().close();
  });

  it('when Ana downloads the proof of an entry of two days ago from her wallet after the day was rooted and anchored, then the verifier page checks it against Horizon', async () => {
    // A listing fee of one of Ana's pieces two days ago, then the day's root made and anchored from Knack's account.
    // Two days back, not one: a day is rooted only once it has been over for a few minutes, and yesterday is not
    // yet settled in the first minutes after midnight UTC.
    const published = await world.publish(world.ana, { title: 'Quay at noon', tag: 'Photos', subTag: 'Travel', hue: 30, coverSide: 64 });
    const twoDaysAgo = new Date(Date.now() - 48 * 3600_000);
    const ana: TestMember = { id: world.ana.user.id, username: world.ana.form.username, email: world.ana.user.email, token: world.ana.token };
    await payListing(
      { id: published.id, title: published.title, ownerId: ana.id, payerId: null, knackRateMicros: 50_000, type: 'photos' },
      ana,
      650_000,
      twoDaysAgo,
    );
    const anchor = Keypair.random();
    standIn.fund(anchor.publicKey(), '10');
    await createTestServices({ config: { stellar: { ...standIn.stellarConfig, anchorSecret: anchor.secret() } } }).anchors.run();
    const day = twoDaysAgo.toISOString().slice(0, 10);
    expect(await LedgerRootModel.findById(day).lean<LedgerRootDoc>()).toMatchObject({ status: 'anchored', account: anchor.publicKey() });

    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/wallet`, { waitUntil: 'networkidle' });
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Proof: You monetized Quay at noon' }).click()]);
    const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-proof-')), download.suggestedFilename());
    await download.saveAs(file);
    const proof = JSON.parse(readFileSync(file, 'utf8'));
    expect(proof).toMatchObject({ entryId: `listing:${published.id}`, day, anchor: { status: 'anchored', account: anchor.publicKey() } });

    await page.goto(`${world.baseUrl}/verify`, { waitUntil: 'networkidle' });
    await page.locator('input[type="file"]').setInputFiles(file);
    await page.getByLabel('Horizon').fill(standIn.url);
    await page.getByRole('button', { name: 'Verify' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByText('Verified', { exact: true }).waitFor();
    const checked = (term: string) => verdict.locator('.kn-verify__checked div', { hasText: term }).locator('dd').textContent();
    expect(await checked('Computed')).toBe(proof.root);
    expect(await checked('From')).toBe(anchor.publicKey());
    expect(await checked('Memo')).toBe(proof.root);
    await screenshotBothWidths(page, 'bids-verified');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when a visitor pastes a proof whose day is not anchored yet, then the verifier recomputes its root and says so', async () => {
    const entries = [
      '{"_id":"a","at":"2026-05-13T10:00:00.000Z"}',
      '{"_id":"b","at":"2026-05-13T11:00:00.000Z"}',
      '{"_id":"c","at":"2026-05-13T12:00:00.000Z"}',
    ];
    const leaves = entries.map((text) => Buffer.from(text));
    const proof = {
      version: 1,
      tree: 'rfc6962-sha256',
      entryId: 'b',
      day: '2026-05-13',
      entry: entries[1],
      leafIndex: 1,
      treeSize: 3,
      path: inclusionPath(leaves, 1).map((node) => node.toString('hex')),
      root: merkleRoot(leaves).toString('hex'),
      anchor: {
        status: 'not-anchored',
        network: 'testnet',
        networkPassphrase: 'Test SDF Network ; September 2015',
        account: null,
        transactionHash: null,
        ledger: null,
        anchoredAt: null,
      },
    };
    const context = await world.browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    await page.goto(`${world.baseUrl}/verify`, { waitUntil: 'networkidle' });
    await page.getByLabel('Or paste the proof').fill(JSON.stringify(proof, null, 2));
    await page.getByRole('button', { name: 'Verify' }).click();
    const verdict = page.getByRole('region', { name: 'Verdict' });
    await verdict.getByText('Not anchored yet').waitFor();
    // The root the browser computed is the server's.
    expect(await verdict.locator('.kn-verify__checked div', { hasText: 'Computed' }).locator('dd').textContent()).toBe(proof.root);
    await screenshotBothWidths(page, 'bids-verifier');
    await context.close();
  });
});
