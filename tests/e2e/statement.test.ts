/**
 * The earnings statement in Chromium: Ana, who monetized a song and a photo that Bea played and viewed this month,
 * downloads this month's statement from her wallet as CSV, and a custom range of days as JSON; the browser saves
 * each file, and each is opened: the CSV's last balance is the balance her wallet shows, the JSON's lines are her
 * entries. The statement's controls pass axe. Screenshots at 1280 and 390 px, and of each file opened.
 */
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshot, screenshotBothWidths, watchErrors } from '../helpers/e2e';
import { signedInPage, usePiecesWorld, type Member } from '../helpers/e2e-pieces';
import { createPiece, knackBy, payListing, type TestMember } from '../helpers/ledger-factory';

jest.setTimeout(150_000);
useTestDatabase();

const world = usePiecesWorld('statement');
const asTestMember = (member: Member): TestMember => ({ id: member.user.id, username: member.form.username, email: member.form.email, token: member.token });
const secondsAgo = (seconds: number) => new Date(Date.now() - seconds * 1000);
const folder = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-statement-'));

/** Presses "Download statement" and keeps the file the browser saves: its name and text. */
async function downloadStatement(page: Page) {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download statement' }).click()]);
  const file = path.join(folder, download.suggestedFilename());
  await download.saveAs(file);
  return { name: download.suggestedFilename(), file, text: readFileSync(file, 'utf8') };
}

/** Opens a CSV file as a spreadsheet shows it: its rows as a table (Chromium offers a .csv only as a download). */
async function openCsv(page: Page, text: string, name: string) {
  const rows = text
    .trimEnd()
    .split('\r\n')
    .map((row) => row.split(','));
  const cell = (value: string, tag: string) => `<${tag}>${value.replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`)}</${tag}>`;
  const table = `<table><caption>${name}</caption>${rows.map((row, i) => `<tr>${row.map((value) => cell(value, i ? 'td' : 'th')).join('')}</tr>`).join('')}</table>`;
  const html = path.join(folder, `${name}.html`);
  writeFileSync(
    html,
    `<!doctype html><meta charset="utf-8"><title>${name}</title><style>body{font:13px system-ui;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 6px;overflow-wrap:anywhere}th{background:#f4f2ff}caption{text-align:left;font-weight:600;margin-bottom:8px}</style>${table}`,
  );
  await page.goto(pathToFileURL(html).href);
}

it('when Ana downloads this month’s statement as CSV and a custom range as JSON from her wallet, then each file is saved, opens, and ends at her wallet’s balance', async () => {
  const ana = asTestMember(world.ana);
  const bea = asTestMember(world.bea);
  const song = await payListing(await createPiece(ana, { title: 'Harbour Lights', type: 'music' }), ana, 650_000, secondsAgo(50));
  const photo = await payListing(await createPiece(ana, { title: 'Quay at noon', type: 'photos' }), bea, 650_000, secondsAgo(40));
  await knackBy(bea, song, secondsAgo(30));
  await knackBy(bea, photo, secondsAgo(20));

  const page = await signedInPage(world, world.ana, { viewport: DESKTOP });
  const errors = watchErrors(page);
  await page.goto(`${world.baseUrl}/wallet`, { waitUntil: 'networkidle' });
  const section = page.getByRole('region', { name: 'Statement' });
  await section.waitFor();
  expect(await page.getByTestId('wallet-balance').textContent()).toBe('$0.09');
  await screenshotBothWidths(page, 'statement-wallet', { focus: section, fullPage: false });

  // This month (what the form opens with), as CSV.
  const csv = await downloadStatement(page);
  const month = new Date().toISOString().slice(0, 7);
  expect(csv.name).toBe(`knack-statement-${month}.csv`);
  await page.getByText('Your statement is downloaded.').waitFor();
  const rows = csv.text.trimEnd().split('\r\n');
  expect(rows[0]).toBe('date,entry,kind,piece_id,piece,triggered_by,gross_usd,share_usd,balance_usd,price_xlm');
  expect(rows.slice(1).map((row) => row.split(',').slice(2, 9).join(','))).toEqual([
    `opening balance,,,,,,0.000000`,
    `listing fee,${song.id},Harbour Lights,${ana.id},0.650000,0.000000,0.000000`,
    `play,${song.id},Harbour Lights,${bea.id},0.050000,0.050000,0.050000`,
    `view,${photo.id},Quay at noon,${bea.id},0.050000,0.045000,0.095000`,
  ]);
  // The wallet shows the balance in cents, cut: $0.09 of the statement's last $0.095000.

  // A custom range of days, as JSON.
  await section.getByRole('combobox', { name: 'Period' }).click();
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option[title="Custom range"]').click();
  const today = new Date().toISOString().slice(0, 10);
  await section.getByLabel('From').fill(`${month}-01`);
  await section.getByLabel('To').fill(today);
  await section.getByRole('radio', { name: 'JSON' }).check();
  expect(await seriousViolations(page, 'the wallet’s statement with a custom range', ['.kn-wallet__statement'])).toEqual([]);
  await screenshotBothWidths(page, 'statement-custom-range', { focus: section, fullPage: false });
  const json = await downloadStatement(page);
  expect(json.name).toBe(`knack-statement-${month}-01-to-${today}.json`);
  const document = JSON.parse(json.text) as { memberId: string; lines: { kind: string; balanceMicros: number }[]; closingBalanceMicros: number };
  expect(document.memberId).toBe(ana.id);
  expect(document.lines.map((line) => [line.kind, line.balanceMicros])).toEqual([
    ['opening balance', 0],
    ['listing fee', 0],
    ['play', 50_000],
    ['view', 95_000],
  ]);
  expect(document.closingBalanceMicros).toBe(95_000);
  expect(errors).toEqual([]);

  // Each file opened: the CSV as a spreadsheet shows it, the JSON as Chromium shows a JSON file.
  const viewer = await page.context().newPage();
  await viewer.setViewportSize(DESKTOP);
  await openCsv(viewer, csv.text, csv.name);
  await viewer.getByRole('cell', { name: 'Harbour Lights' }).first().waitFor();
  await screenshot(viewer, 'statement-csv-opened');
  await viewer.goto(pathToFileURL(json.file).href);
  await viewer.getByText('"closingBalanceMicros":95000').waitFor();
  await screenshot(viewer, 'statement-json-opened');
});
