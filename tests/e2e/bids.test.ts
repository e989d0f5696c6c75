/**
 * Verifiable earnings in Chromium, with the Horizon stand-in: a visitor checks a proof on the verifier page, its root
 * recomputed in the browser. Screenshots at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { inclusionPath, merkleRoot } from '../../server/lib/merkle';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot } from '../helpers/e2e';
import { usePiecesWorld } from '../helpers/e2e-pieces';
import { startHorizonStandIn, type HorizonStandIn } from '../helpers/horizon-standin';

jest.setTimeout(150_000);
useTestDatabase();

let standIn: HorizonStandIn;
beforeAll(async () => {
  standIn = await startHorizonStandIn();
});
afterAll(async () => standIn?.stop());

const world = usePiecesWorld('bids', () => ({ config: { stellar: standIn.stellarConfig } }));

/** The page at both widths: the state as laid out at 1280 px, then at 390 px, then back. */
async function shotBoth(page: Page, name: string) {
  // The app lays itself out for a phone once it sees the narrower window: its menu button appears.
  const burger = page.getByRole('banner').getByRole('button', { name: 'Open menu' });
  await screenshot(page, `bids-${name}-desktop`, true);
  await page.setViewportSize(PHONE);
  await burger.waitFor();
  await screenshot(page, `bids-${name}-phone`, true);
  await page.setViewportSize(DESKTOP);
  await burger.waitFor({ state: 'hidden' });
}

describe('bids and proofs in the browser', () => {
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
    await shotBoth(page, 'verifier');
    await context.close();
  });
});
