/**
 * The earnings analytics modal in Chromium, as a member on Plan 2 whose pieces earned over the last month (a ledger
 * built by the factory, counted by the rollups job, with a month of daily tag prices set by the market rule): from
 * the wallet, the modal shows the week's Music earnings as a donut and a line; PAST MONTH and then Photos change both
 * (their figures, their summaries and what the canvas draws). Screenshots at 1280 and 390 px.
 */
import { Types } from 'mongoose';
import type { Locator, Page } from 'playwright-core';
import { addDays, startOfUtcDay } from '../../server/lib/calendar';
import { applyDailyPrices, refreshRollups } from '../../server/modules/analytics';
import { SubscriptionModel } from '../../server/modules/subscriptions';
import { TagHistoryModel, TagModel, type TagDoc } from '../../server/modules/tags';
import { createActiveMember, outboxMailbox } from '../helpers/auth';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, startE2eApp, watchErrors, type E2eApp } from '../helpers/e2e';
import { signedInPage, type Member } from '../helpers/e2e-pieces';
import { createPiece, knackBy, payListing, type TestMember } from '../helpers/ledger-factory';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { outboxMailer } from '../../server/integrations/mail';

jest.setTimeout(150_000);
useTestDatabase();

const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-analytics-outbox-'));
let e2e: E2eApp;
let ana: Member;

/** Knacks of Ana's pieces: per sub-tag, how many on each day back from today (0 = today). */
const PLAN: [type: 'music' | 'photos', subTag: string, days: number[], perDay: number][] = [
  ['music', 'Jazz', [0, 1, 2, 3, 4, 5, 6], 3],
  ['music', 'Rock', [1, 3, 5, 12, 15], 2],
  ['music', 'Pop', [9, 11, 13, 20, 22, 25], 4],
  ['music', 'Beats', [2, 18], 1],
  ['photos', 'Travel', [0, 2, 4, 8, 16, 24], 2],
  ['photos', 'Nature', [1, 10, 20], 3],
];

beforeAll(async () => {
  e2e = await startE2eApp({ mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>') });
  const stamp = Date.now().toString(36).slice(-5);
  ana = await createActiveMember(e2e.baseUrl, outboxMailbox(outboxDir), { firstName: 'Ana', lastName: 'Lopes', username: `ana_charts_${stamp}` });
  await SubscriptionModel.create({ userId: ana.user.id, planId: 2, subscriptionId: `sub-${ana.user.id}` });
  const owner: TestMember = { id: ana.user.id, username: ana.form.username, email: ana.form.email, token: ana.token };
  const tags = new Map((await TagModel.find().lean<TagDoc[]>()).map((tag) => [tag.label, String(tag._id)]));
  const now = new Date();
  const today = startOfUtcDay(now);
  for (const [type, subTag, days, perDay] of PLAN) {
    const piece = await payListing(await createPiece(owner, { type, subTag, title: `${subTag} piece` }), owner, 650_000, addDays(today, -40));
    for (const day of days) {
      for (let i = 0; i < perDay; i += 1) {
        const at =
          day === 0
            ? new Date(Math.min(now.getTime() - 1_000, today.getTime() + (i + 1) * 60_000))
            : new Date(addDays(today, -day).getTime() + (i + 1) * 3_600_000);
        await knackBy(new Types.ObjectId().toHexString(), piece, at, tags.get(subTag));
      }
    }
  }
  // The seeded first prices are older than the month (the seed ran just now, before the days this test makes up).
  await TagHistoryModel.updateMany({}, { $set: { createdAt: addDays(today, -60) } });
  // The rollups counted, then a month of daily prices set in order, as the job would have set them day by day.
  await refreshRollups(now);
  for (let day = 29; day >= 0; day -= 1) await applyDailyPrices(new Date(addDays(today, -day).getTime() + 5 * 60_000));
});
afterAll(async () => e2e?.stop());

/** Chooses an option of the modal's dropdown named `name`. */
async function choose(page: Page, modal: Locator, name: string, option: string) {
  await modal.getByRole('combobox', { name }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden)').getByText(option, { exact: true }).click();
}

/** A chart's summary (its canvas's accessible name) and whether the canvas has anything drawn on it. */
async function chart(modal: Locator, kind: 'donut' | 'line') {
  const canvas = modal.locator(`.kn-chart--${kind} canvas`);
  const summary = (await canvas.getAttribute('aria-label')) ?? '';
  const drawn = await canvas.evaluate((node: HTMLCanvasElement) => {
    const { data } = node.getContext('2d')!.getImageData(0, 0, node.width, node.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i]! > 0) painted += 1;
    return painted;
  });
  return { summary, drawn };
}

const rows = (modal: Locator, caption: string) => modal.getByRole('table', { name: caption, includeHidden: true }).locator('tbody tr');

it('when a member on Plan 2 opens Earnings analytics and switches to PAST MONTH and Photos, then the donut and the line change with the figures', async () => {
  const page = await signedInPage(e2e, ana, { viewport: DESKTOP });
  const errors = watchErrors(page);
  await page.goto(`${e2e.baseUrl}/wallet`, { waitUntil: 'networkidle' });
  await page.getByRole('button', { name: 'Earnings analytics' }).click();
  const modal = page.getByRole('dialog', { name: 'Earnings analytics' });
  // The week of Music: Jazz every day, Rock on three days, Beats on one; Pop earned only before the week.
  await modal.getByRole('table', { name: 'Music earnings by tag', includeHidden: true }).waitFor({ state: 'attached' });
  await page.waitForFunction(() => document.querySelector('.kn-chart--line canvas')?.getAttribute('aria-label')?.includes('Music earnings'));
  const week = { donut: await chart(modal, 'donut'), line: await chart(modal, 'line') };
  expect(week.donut.summary).toMatch(/^Music earnings by tag: Jazz \$\d+\.\d\d \(\d+(\.\d+)?%\), Rock .*, Beats .*\.$/);
  expect(week.donut.summary).not.toContain('Pop');
  expect(week.donut.drawn).toBeGreaterThan(1_000);
  expect(week.line.drawn).toBeGreaterThan(1_000);
  expect(await rows(modal, 'Music earnings and Jazz price by day').count()).toBe(7);
  // Jazz, busy all week, is dearer than at the month's start: its last move is up.
  await modal.getByRole('button', { name: /^Jazz/ }).getByLabel(/^up /).waitFor();
  await screenshot(page, 'analytics-modal-week-music-desktop');

  await choose(page, modal, 'Period', 'PAST MONTH');
  await page.waitForFunction(() => document.querySelectorAll('.kn-chart--line tbody tr').length === 30);
  const month = { donut: await chart(modal, 'donut'), line: await chart(modal, 'line') };
  expect(month.donut.summary).toContain('Pop');
  expect(month.donut.summary).toContain('Other');
  expect(month.line.summary).not.toBe(week.line.summary);

  await choose(page, modal, 'Category', 'Photos');
  await modal.getByRole('table', { name: 'Photos earnings by tag', includeHidden: true }).waitFor({ state: 'attached' });
  await page.waitForFunction(() => document.querySelector('.kn-chart--donut canvas')?.getAttribute('aria-label')?.startsWith('Photos'));
  const photos = { donut: await chart(modal, 'donut'), line: await chart(modal, 'line') };
  expect(photos.donut.summary).toMatch(/^Photos earnings by tag: (Travel|Nature) .*, (Travel|Nature) .*\.$/);
  expect(photos.line.summary).toMatch(/^Photos earnings from /);
  expect(photos.donut.drawn).toBeGreaterThan(1_000);
  expect(await rows(modal, 'Photos earnings by tag').count()).toBe(2);
  await screenshot(page, 'analytics-modal-month-photos-desktop');

  // On a phone the modal is the whole screen, and scrolls to the line.
  await page.setViewportSize(PHONE);
  await page.waitForFunction(() => document.querySelector('.kn-analytics-modal--phone'));
  await screenshot(page, 'analytics-modal-month-photos-phone');
  await modal.locator('.kn-chart--line').scrollIntoViewIfNeeded();
  expect((await chart(modal, 'line')).drawn).toBeGreaterThan(1_000);
  await screenshot(page, 'analytics-modal-month-photos-phone-line');
  expect(errors).toEqual([]);
  await page.context().close();
});
