/**
 * The admin area in Chromium, end to end: an admin re-posts a piece from the Pieces section and sees it first in
 * Explore's Featured; takes a flagged piece down from the Flags section with a note for its owner; and finds both
 * actions in the audit log, with the piece each acted on. Screenshots at 1280 and 390 px.
 */
import request from 'supertest';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld, type PublishedPiece } from '../helpers/e2e-pieces';

jest.setTimeout(150_000);
useTestDatabase();

const world = usePiecesWorld('admin-area');
let harbor: PublishedPiece;
let paint: PublishedPiece;

beforeAll(async () => {
  harbor = await world.publish(world.ana, { title: 'Old Harbor', tag: 'Photos', subTag: 'Travel', hue: 200, coverSide: 200 });
  paint = await world.publish(world.ana, { title: 'Fresh Paint', tag: 'Art', subTag: 'Digital Art', hue: 20, coverSide: 200 });
  await request(world.baseUrl)
    .post('/api/v2/flag/set')
    .set({ Authorization: `Bearer ${world.bea.token}` })
    .send({ contentId: paint.id, userId: world.bea.user.id, reason: 'Somebody unlawfully posted your content' })
    .expect(200);
}, 150_000);

it('when an admin re-posts a piece, takes a flagged one down and opens the audit log, then Featured, the piece and the log all show it', async () => {
  const admin = await world.admin();
  const page = await signedInPage(world, admin, { viewport: DESKTOP });
  const errors = watchErrors(page);

  // Pieces: the older piece re-posted by one click.
  await page.goto(`${world.baseUrl}/admin/pieces`, { waitUntil: 'networkidle' });
  const actions = page.getByRole('group', { name: 'Actions for Old Harbor' });
  await actions.getByRole('button', { name: 'Re-post' }).click();
  await page.getByText('This content is re-posted successfully.').waitFor();
  await page.getByRole('row').filter({ hasText: 'Old Harbor' }).getByText('Re-posted').waitFor();
  await screenshotBothWidths(page, 'admin-area-pieces', { area: 'admin', fullPage: false });

  // Featured: the re-posted piece first, before the newer one.
  const visitor = await world.browser.newPage({ viewport: DESKTOP });
  await visitor.goto(`${world.baseUrl}/explore`, { waitUntil: 'networkidle' });
  const featured = visitor.getByRole('list', { name: 'Featured pieces' });
  await featured.locator('.kn-card__title').first().waitFor();
  expect((await featured.locator('.kn-card__title').allInnerTexts())[0]).toBe('Old Harbor');
  await visitor.close();

  // Flags: who flagged Fresh Paint, then taken down with a note; the queue empties.
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Flags' }).click();
  const card = page.getByRole('listitem', { name: 'Fresh Paint' });
  await card.getByRole('button', { name: 'Who flagged' }).click();
  await card.getByRole('list', { name: 'Who flagged it' }).getByText(world.bea.form.username.replace(/_/g, ' ')).waitFor();
  await screenshotBothWidths(page, 'admin-area-flags', { area: 'admin', fullPage: false });
  await card.getByRole('button', { name: 'Take down' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Note to the owner' }).fill('This photo belongs to another photographer.');
  await dialog.getByRole('button', { name: 'Take down' }).click();
  await page.getByText('The piece is taken down, and its owner is told.').waitFor();
  await page.getByText('No open flags. Flagged pieces show here.').waitFor();
  await request(world.baseUrl).get(`/api/v2/content/detail/${paint.id}/for-user/guest`).expect(404);

  // The audit log: both actions, each with the piece it acted on and what changed.
  await page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'Audit log' }).click();
  const log = page.getByRole('list', { name: 'Audit entries' });
  const takeDown = log.getByRole('listitem', { name: 'resolve flags' });
  await takeDown.getByText(`piece ${paint.id}`).waitFor();
  await takeDown.getByText(/→ This photo belongs to another photographer\.$/).waitFor();
  await log.getByRole('listitem', { name: 'trend content' }).getByText(`piece ${harbor.id}`).waitFor();
  await screenshotBothWidths(page, 'admin-area-audit', { area: 'admin', fullPage: false });
  expect(errors).toEqual([]);
  await page.context().close();
});
