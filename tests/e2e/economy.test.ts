/**
 * The knack economy in Chromium, as two new members would use it: Ana uploads a song and monetizes it through
 * the sandbox checkout; Bea plays it past half and the knack registers; Bea supports another piece of Ana's
 * (pays its listing fee) and views it; Ana's wallet then shows the full knack value of her own monetized song
 * (the owner gets it all when she paid) plus 90% of the supported piece's, and her history lists the items;
 * Bea's wallet shows her 10% and her Collections figure.
 */
import type { Page } from 'playwright-core';
import { ContentModel } from '../../server/modules/contents';
import { LedgerEntryModel } from '../../server/modules/ledger';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, watchErrors } from '../helpers/e2e';
import { coverPng, signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';
import { chooseMainTag, chooseSubTag, dialog, openUpload, toast, untilComplete } from '../helpers/e2e-upload';
import { wav } from '../helpers/media';

useTestDatabase();
jest.setTimeout(180_000);

const world = usePiecesWorld('economy');
const shot = (page: Page, name: string) => screenshot(page, `economy-${name}`);
/** Page errors, but for the 4xx answers of calls that say "not yet" (a knack asked before half the song). */
const errorsOf = (page: Page) => watchErrors(page, /status of 4\d\d/);

/** Pays the open monetize offer through the sandbox checkout page and comes back paid. */
async function payThroughSandbox(page: Page, name: string) {
  const offer = dialog(page, 'Monetize this piece');
  await offer.getByRole('button', { name: /^Pay \$/ }).click();
  await page.waitForURL(/\/checkout\/sandbox\//);
  await page.getByRole('button', { name: 'Approve payment' }).waitFor();
  await shot(page, `${name}-checkout`);
  await page.getByRole('button', { name: 'Approve payment' }).click();
  await page.waitForURL(/\/profile\/default/);
  await toast(page, 'Paid successfully');
  const paid = dialog(page, 'Congratulations!');
  await paid.getByText(/is monetized/).waitFor();
  await shot(page, `${name}-paid`);
  await paid.getByRole('button', { name: 'Close', exact: true }).filter({ hasText: 'Close' }).click();
  await paid.waitFor({ state: 'hidden' });
  // The return address loses its order parameter once the order is settled.
  await page.waitForURL((url) => !url.searchParams.has('order'));
}

async function walletFigures(page: Page) {
  await page.goto(`${world.baseUrl}/wallet`, { waitUntil: 'networkidle' });
  await page.getByTestId('wallet-balance').waitFor();
  return {
    balance: await page.getByTestId('wallet-balance').innerText(),
    uploads: await page.getByTestId('wallet-uploads').innerText(),
    collections: await page.getByTestId('wallet-collections').innerText(),
    total: await page.getByTestId('wallet-total').innerText(),
  };
}

describe('the knack economy in Chromium', () => {
  it('when Ana monetizes her song and Bea plays it past half and supports another piece, then the money lands in both wallets and histories', async () => {
    // Ana uploads a song under Music/Jazz and monetizes it at once through the sandbox checkout.
    const ana = await signedInPage(world, world.ana, { viewport: DESKTOP });
    const anaErrors = errorsOf(ana);
    await ana.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const modal = await openUpload(ana);
    await modal.getByLabel('Title').fill('Harbour Lights');
    await modal.getByLabel('Description').fill('Six seconds of a tone, slowly rising.');
    await chooseMainTag(modal, 'Music');
    await chooseSubTag(ana, modal, 'Genre', 'Jazz');
    await modal.getByLabel('Cover photo', { exact: true }).setInputFiles({ name: 'harbour.png', mimeType: 'image/png', buffer: await coverPng(210) });
    await untilComplete(modal, 'Cover photo upload');
    await modal.getByLabel('Audio', { exact: true }).setInputFiles({ name: 'harbour.wav', mimeType: 'audio/wav', buffer: wav(6) });
    await untilComplete(modal, 'Audio upload');
    await modal.getByRole('button', { name: 'Upload' }).click();
    await toast(ana, 'Success');
    const offer = dialog(ana, 'Monetize this piece');
    await offer.getByTestId('listing-fee').waitFor();
    expect(await offer.getByTestId('listing-fee').innerText()).toBe('$0.65');
    await shot(ana, 'offer-desktop');
    await payThroughSandbox(ana, 'song');
    const song = (await ContentModel.findOne({ title: 'Harbour Lights' }).lean())!;
    expect(song).toMatchObject({ isPaidOut: true, payerId: song.ownerId });
    expect(await LedgerEntryModel.countDocuments({ _id: `listing:${song._id}` })).toBe(1);

    // Bea opens the song's page and plays it past half: the knack registers once.
    const bea = await signedInPage(world, world.bea, { viewport: DESKTOP });
    const beaErrors = errorsOf(bea);
    await bea.goto(`${world.baseUrl}/${song.ownerUsername}-${song.slug}`, { waitUntil: 'networkidle' });
    const detail = bea.locator('.kn-detail-modal [role="dialog"]');
    await detail.getByRole('button', { name: 'Play' }).click();
    await toast(bea, 'Thank you for being apart of our Community.');
    await shot(bea, 'knacked-desktop');
    // The song goes on in the bottom player bar once the detail is closed, on a phone too.
    await detail.getByRole('button', { name: 'Close' }).first().click();
    const player = bea.getByRole('region', { name: 'Player' });
    await player.getByRole('button', { name: 'Harbour Lights' }).waitFor();
    await bea.setViewportSize(PHONE);
    await bea.locator('.kn-shell--phone').waitFor();
    await shot(bea, 'player-phone');
    await bea.setViewportSize(DESKTOP);
    const knack = await LedgerEntryModel.findById(`knack:${song._id}:${world.bea.user.id}`).lean();
    expect(knack?.legs).toEqual([
      { account: 'platform:knacks', amountMicros: -50_000 },
      { account: `user:${world.ana.user.id}`, amountMicros: 50_000 },
    ]);

    // Bea supports Ana's Digital Art piece ($0.99 a view, premium fee $12.40) and views it.
    const art = await world.publish(world.ana, { title: 'Glass Orchard', tag: 'Art', subTag: 'Digital Art', hue: 120 });
    await bea.goto(`${world.baseUrl}${art.link}`, { waitUntil: 'networkidle' });
    await detail.getByRole('button', { name: 'Support' }).click();
    await dialog(bea, 'Monetize this piece').getByTestId('listing-fee').waitFor();
    expect(await dialog(bea, 'Monetize this piece').getByTestId('listing-fee').innerText()).toBe('$12.40');
    await shot(bea, 'support-offer-desktop');
    await payThroughSandbox(bea, 'support');
    await bea.goto(`${world.baseUrl}${art.link}`, { waitUntil: 'networkidle' });
    await toast(bea, 'Thank you for being apart of our Community.');
    const view = await LedgerEntryModel.findById(`knack:${art.id}:${world.bea.user.id}`).lean();
    expect(view?.legs).toEqual([
      { account: 'platform:knacks', amountMicros: -990_000 },
      { account: `user:${world.ana.user.id}`, amountMicros: 891_000 },
      { account: `user:${world.bea.user.id}`, amountMicros: 99_000 },
    ]);

    // Ana's wallet: $0.05 (all of her own song's knack) + $0.891 (90% of $0.99) = $0.941.
    expect(await walletFigures(ana)).toEqual({ balance: '$0.94', uploads: '$0.94', collections: '$0.00', total: '$0.94' });
    await ana.getByText(/played “?Harbour Lights/).waitFor();
    await shot(ana, 'wallet-desktop');
    await ana.goto(`${world.baseUrl}/activity-history`, { waitUntil: 'networkidle' });
    await ana.getByText('You monetized Harbour Lights').waitFor();
    await shot(ana, 'history-desktop');

    // Bea's wallet: her 10% ($0.099, shown cut to the cent as a cash-out would pay it) and Collections = 10% of
    // the $12.40 she paid supporting.
    expect(await walletFigures(bea)).toMatchObject({ balance: '$0.09', collections: '$1.24' });
    await bea.getByText('You supported Glass Orchard').waitFor();
    await bea.setViewportSize(PHONE);
    await bea.locator('.kn-shell--phone').waitFor();
    await shot(bea, 'wallet-phone');

    expect(anaErrors).toEqual([]);
    expect(beaErrors).toEqual([]);
  });
});
