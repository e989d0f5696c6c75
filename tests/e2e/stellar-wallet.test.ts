/**
 * End to end, linking a Stellar wallet: the production build of the SPA served by the real app on the real database,
 * driven in Chromium, with Freighter played by the Freighter stand-in (tests/helpers/freighter-standin.ts), which
 * answers freighter-api's messages in the page and signs in Node with a test keypair. The link needs no Horizon: the
 * server checks the signed challenge offline. Ana links Freighter from the profile summary at 1280 px and unlinks it
 * from the settings; Bea links an External Wallet at 390 px by pasting back a challenge signed in Node. Screenshots
 * land in tests/e2e/screenshots/stellar-wallet-*.png.
 */
import { Keypair, Networks, TransactionBuilder } from '@stellar/stellar-sdk';
import type { Page } from 'playwright-core';
import { WalletLinkModel } from '../../server/modules/stellar/testing';
import { seriousViolations } from '../helpers/axe';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { installFreighterStandIn } from '../helpers/freighter-standin';

jest.setTimeout(120_000);
useTestDatabase();

const world = usePiecesWorld('stellar-wallet');
const short = (address: string) => `${address.slice(0, 4)}…${address.slice(-4)}`;

const openPanel = async (page: Page) => {
  await page.getByRole('button', { name: 'Profile summary' }).click();
  return page.getByRole('dialog', { name: 'Profile summary' });
};
const walletModal = (page: Page) => page.locator('.kn-wallet-modal .ant-modal');

describe('linking a Stellar wallet in Chromium', () => {
  it('when Ana connects Freighter from the profile summary, then the panel shows her short address, also after a reload, and she unlinks it from the settings', async () => {
    const key = Keypair.random();
    const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const errors = watchErrors(page);
    const freighter = await installFreighterStandIn(page.context(), { secret: key.secret(), networkPassphrase: Networks.TESTNET });
    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });

    let panel = await openPanel(page);
    await panel.getByTestId('summary-address').getByText('Connect a wallet').waitFor();
    await panel.getByRole('button', { name: 'Connect Freighter' }).click();
    await walletModal(page).getByRole('button', { name: 'Connect Freighter' }).click();
    await walletModal(page).getByText('Freighter is linked:').waitFor();
    await screenshot(page, 'stellar-wallet-freighter-linked-desktop');
    expect(freighter.signed).toHaveLength(1);
    await walletModal(page).getByRole('button', { name: 'Done' }).click();
    await panel.getByTestId('summary-address').getByText(short(key.publicKey())).waitFor();
    await panel.getByText(`Linked · ${short(key.publicKey())}`).waitFor();
    await screenshot(page, 'stellar-wallet-panel-desktop');
    expect(await seriousViolations(page, 'the profile summary with a linked wallet', ['.kn-summary'])).toEqual([]);

    await page.reload({ waitUntil: 'networkidle' });
    panel = await openPanel(page);
    await panel.getByTestId('summary-address').getByText(short(key.publicKey())).waitFor();

    await panel.getByRole('link', { name: 'SETTINGS' }).click();
    const group = page.getByRole('region', { name: 'Stellar wallet' });
    await group.getByText(key.publicKey()).waitFor();
    await group.scrollIntoViewIfNeeded();
    await screenshot(page, 'stellar-wallet-settings-desktop');
    await group.getByRole('button', { name: 'Unlink Freighter' }).click();
    await group.getByRole('button', { name: 'Yes, unlink' }).click();
    await group.getByRole('button', { name: 'Connect Freighter' }).waitFor();
    expect(await WalletLinkModel.findById(world.ana.user.id).lean()).toBeNull();
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('when Bea links an External Wallet at 390 px, then she copies the challenge, pastes it back signed, and the settings show the wallet', async () => {
    const key = Keypair.random();
    const page = await signedInPage(world, world.bea, { viewport: PHONE });
    const errors = watchErrors(page);
    await page.goto(`${world.baseUrl}/user-setting`, { waitUntil: 'networkidle' });
    const group = page.getByRole('region', { name: 'Stellar wallet' });
    await group.getByRole('button', { name: 'Connect External Wallet' }).click();

    const modal = walletModal(page);
    await modal.getByLabel('Stellar address').fill(key.publicKey());
    await modal.getByRole('button', { name: 'Get the challenge' }).click();
    const challenge = await modal.getByLabel('Challenge to sign').inputValue();
    // Signed elsewhere (here in Node, as the Stellar Laboratory would) for the network the modal names.
    await modal.getByText('for Testnet').waitFor();
    const signed = TransactionBuilder.fromXDR(challenge, Networks.TESTNET);
    signed.sign(key);
    await modal.getByLabel('Signed challenge').fill(signed.toXDR());
    await screenshot(page, 'stellar-wallet-external-phone');
    expect(await seriousViolations(page, 'the External Wallet step', ['.kn-wallet-modal'])).toEqual([]);
    await modal.getByRole('button', { name: 'Link wallet' }).click();
    await modal.getByText('External Wallet is linked:').waitFor();
    await modal.getByRole('button', { name: 'Done' }).click();

    await group.getByText(key.publicKey()).waitFor();
    expect(await group.locator('dd').first().textContent()).toBe('External Wallet');
    await group.scrollIntoViewIfNeeded();
    await screenshot(page, 'stellar-wallet-settings-phone');
    const panel = await openPanel(page);
    await panel.getByTestId('summary-address').getByText(short(key.publicKey())).waitFor();
    await panel.getByText(`Linked · ${short(key.publicKey())}`).scrollIntoViewIfNeeded();
    await screenshot(page, 'stellar-wallet-panel-phone');
    expect(await WalletLinkModel.findById(world.bea.user.id).lean()).toMatchObject({ address: key.publicKey(), wallet: 'external', network: 'testnet' });
    expect(errors).toEqual([]);
    await page.context().close();
  });
});
