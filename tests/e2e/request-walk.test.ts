/**
 * What a walk through the app asks the server, counted in Chromium on the production build: a signed-in member opens
 * Explore, a piece's detail, the artist's profile from it, then goes back to the piece and back to Explore. The
 * client's cached data layer should ask each thing once: going back shows what was loaded a moment ago without asking
 * again, and two parts of a page that need the same thing share one request.
 *
 * The test prints the count and each request, so the figure in docs/client-data.md can be checked against a run.
 */
import type { Page, Request } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld } from '../helpers/e2e-pieces';

jest.setTimeout(120_000);
useTestDatabase();

const world = usePiecesWorld('request-walk');

beforeAll(async () => {
  await world.publish(world.ana, { title: 'Harbour Lights', tag: 'Photos', subTag: 'Travel', hue: 200 });
  await world.publish(world.ana, { title: 'Paper Birds', tag: 'Art', subTag: 'Digital Art', hue: 320 });
}, 90_000);

/** The API calls a page makes, as `GET /api/v2/…` lines, in order. */
function recordApiCalls(page: Page): string[] {
  const calls: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v2/')) calls.push(`${request.method()} ${url.pathname}${url.search}`);
  });
  return calls;
}

/** The reads asked for more than once, with how often. */
function repeatedReads(calls: string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls.filter((line) => line.startsWith('GET '))) counts[call] = (counts[call] ?? 0) + 1;
  return Object.fromEntries(Object.entries(counts).filter(([, count]) => count > 1));
}

describe('the requests of a walk', () => {
  it('when a member walks Explore, a piece, its artist, and back twice, then no read is asked for twice', async () => {
    const page = await signedInPage(world, world.bea, { viewport: DESKTOP });
    const errors = watchErrors(page);
    const calls = recordApiCalls(page);
    const detailTitle = page.locator('.kn-detail__title');

    await page.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
    const grid = page.getByRole('list', { name: 'Featured pieces' });
    await grid.getByRole('link', { name: 'Harbour Lights' }).click();
    await detailTitle.filter({ hasText: 'Harbour Lights' }).waitFor();
    await page.waitForLoadState('networkidle');

    await page.locator('.kn-detail-modal .kn-detail__owner').click();
    await page.getByRole('heading', { level: 1, name: 'Ana Lima' }).waitFor();
    await page.getByRole('list', { name: 'Uploads by Ana Lima' }).getByRole('link', { name: 'Paper Birds' }).waitFor();
    await page.waitForLoadState('networkidle');

    await page.goBack();
    await detailTitle.filter({ hasText: 'Harbour Lights' }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.goBack();
    await page.waitForURL(`${world.baseUrl}/explore`);
    await grid.getByRole('link', { name: 'Paper Birds' }).waitFor();
    await page.waitForLoadState('networkidle');

    process.stdout.write(`Walk Explore -> detail -> profile -> back -> back: ${calls.length} API requests\n${calls.map((call) => `  ${call}`).join('\n')}\n`);
    expect(repeatedReads(calls)).toEqual({});
    expect(errors).toEqual([]);
    await page.close();
  });
});
