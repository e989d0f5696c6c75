/**
 * End to end, minting a piece as an NFT on /nft: the production build of the SPA served by the real app on the real
 * database, driven in Chromium, with Freighter played by the Freighter stand-in (it answers freighter-api's messages
 * in the page and signs in Node with Ana's test key) and the Stellar network played by the Horizon stand-in (it checks
 * every signature, sequence number, fee and balance, and applies the operations). Ana, whose linked wallet holds
 * 100 XLM, goes through the four steps: details, the token page, the token code, sign and save. Then the network holds
 * her token with the issuer locked, and the piece's detail shows it. Screenshots of each step at 1280 and 390 px land
 * in tests/e2e/screenshots/nft-*.png.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Keypair } from '@stellar/stellar-sdk';
import { ContentModel } from '../../server/modules/contents';
import { seriousViolations } from '../helpers/axe';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, watchErrors, screenshotBothWidths } from '../helpers/e2e';
import { coverPng, signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { chooseMainTag, chooseSubTag, untilComplete } from '../helpers/e2e-upload';
import { installFreighterStandIn } from '../helpers/freighter-standin';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';
import { linkWallet } from '../helpers/stellar-wallet';

jest.setTimeout(150_000);
useTestDatabase();

let standIn: HorizonStandIn;
beforeAll(async () => {
  standIn = await startHorizonStandIn();
});
afterAll(async () => standIn?.stop());

const world = usePiecesWorld('nft', () => ({ config: { stellar: standIn.stellarConfig } }));

interface HorizonAccount {
  balances: { asset_type: string; asset_code?: string; asset_issuer?: string; balance: string }[];
  signers: { key: string; weight: number }[];
  data: Record<string, string>;
}

const horizonAccount = async (address: string) => (await (await fetch(`${standIn.url}/accounts/${address}`)).json()) as HorizonAccount;

describe('NFT mode in Chromium', () => {
  it('when Ana mints a photo through the four steps and Freighter signs, then the network holds her locked token and the piece shows it', async () => {
    const key = Keypair.random();
    await linkWallet(world.baseUrl, { Authorization: `Bearer ${world.ana.token}` }, key);
    standIn.fund(key.publicKey(), '100');
    const photo = path.join(mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-nft-')), 'tram.png');
    writeFileSync(photo, await coverPng(40));

    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    const freighter = await installFreighterStandIn(page.context(), { secret: key.secret(), allowed: true });
    await page.goto(`${world.baseUrl}/nft`, { waitUntil: 'networkidle' });
    const form = page.locator('form.kn-nft-form');
    const sidebar = page.getByRole('complementary', { name: 'About NFT mode' });
    await form.getByRole('heading', { name: 'Step 1 of 4 · Details' }).waitFor();
    await sidebar.getByText(`${key.publicKey().slice(0, 4)}…${key.publicKey().slice(-4)}`).waitFor();

    // 1. Details, as in the classic upload.
    await form.getByLabel('Title').fill('Tram 28 at dawn');
    await form.getByLabel('Description').fill('Lisbon before the crowds: the yellow tram climbing to Graça.');
    await chooseMainTag(form, 'Photos');
    await chooseSubTag(page, form, 'Category', 'Travel');
    await form.getByLabel('Photo', { exact: true }).setInputFiles(photo);
    await untilComplete(form, 'Photo upload');
    await screenshotBothWidths(page, 'nft-details');
    await form.getByRole('button', { name: 'Next' }).click();

    // 2. The token page (SEP-1 fields), then Back keeps what was typed.
    await form.getByRole('heading', { name: 'Step 2 of 4 · Token page (optional)' }).waitFor();
    await form.getByLabel('Token name').fill('Tram 28');
    await form.getByRole('button', { name: 'Back' }).click();
    expect(await form.getByLabel('Title').inputValue()).toBe('Tram 28 at dawn');
    await form.getByRole('button', { name: 'Next' }).click();
    expect(await form.getByLabel('Token name').inputValue()).toBe('Tram 28');
    await screenshotBothWidths(page, 'nft-token-page');
    await form.getByRole('button', { name: 'Next' }).click();

    // 3. The token code: the account is checked and the issuer made; 4. the file pinned and the transaction built.
    await form.getByRole('heading', { name: 'Step 3 of 4 · Token' }).waitFor();
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByText('Token Code should not be empty').waitFor();
    await form.getByLabel('Token Code').fill('tram28');
    expect(await form.getByLabel('Token Code').inputValue()).toBe('TRAM28');
    await screenshotBothWidths(page, 'nft-token-code');
    await form.getByRole('button', { name: 'Next' }).click();
    await form.getByRole('heading', { name: 'Step 4 of 4 · Sign and save' }).waitFor();
    const cid = form.getByTestId('nft-cid');
    await cid.waitFor();
    expect(await cid.textContent()).toMatch(/^Qm[1-9A-HJ-NP-Za-km-z]{4}…[1-9A-HJ-NP-Za-km-z]{8}$/);
    await screenshotBothWidths(page, 'nft-sign');
    expect(await seriousViolations(page, 'NFT mode, sign and save', ['main'])).toEqual([]);

    await form.getByRole('button', { name: 'Sign and save' }).click();
    await page.getByText('Published as an NFT').waitFor();
    expect(freighter.signed).toHaveLength(1);

    // The network: Ana holds the supply (1 unit, 0.0000001), the issuer can sign nothing more and names the file.
    const piece = (await ContentModel.findOne({ ownerId: world.ana.user.id, title: 'Tram 28 at dawn' }).lean())!;
    const nft = piece.nft!;
    expect(nft).toMatchObject({ tokenCode: 'TRAM28', tokenAmount: 1, network: 'testnet' });
    const ana = await horizonAccount(key.publicKey());
    expect(ana.balances).toContainEqual(expect.objectContaining({ asset_code: 'TRAM28', asset_issuer: nft.tokenIssuer, balance: '0.0000001' }));
    const issuer = await horizonAccount(nft.tokenIssuer);
    expect(issuer.signers).toEqual([expect.objectContaining({ key: nft.tokenIssuer, weight: 0 })]);
    expect(Buffer.from(issuer.data.ipfshash!, 'base64').toString()).toBe(nft.ipfsHash);

    // The piece opens in its detail, which shows its token.
    const detail = page.getByRole('region', { name: 'NFT' });
    await detail.getByText('TRAM28').first().waitFor();
    await screenshotBothWidths(page, 'nft-detail');
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
