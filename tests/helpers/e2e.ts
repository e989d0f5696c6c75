/** The end-to-end harness: the production build of the SPA served by the real app, and Chromium. */
import { existsSync, mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { freePort } from '../../server/db/embedded';
import { seedReferenceData } from '../../server/db/seed';
import { createTestApp, type TestAppOptions } from './app';
import { CHROMIUM, CHROMIUM_FLAGS } from '../../scripts/chromium';

export const CLIENT_DIR = path.resolve(__dirname, '../../dist/client');
export const SHOTS = path.resolve(__dirname, '../e2e/screenshots');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export interface E2eApp {
  baseUrl: string;
  browser: Browser;
  stop(): Promise<void>;
}

/**
 * Seeds the reference data, starts the app on a free loopback port (known first, so mail links made from
 * the public URL point at it) and launches Chromium. The app answers as in production, without checking its own
 * answers against openapi.yaml: the API tests and the contract fuzzer check every answer, and here the check took
 * a sixth of the run's CPU on pages that call the API many times.
 */
export async function startE2eApp(options: TestAppOptions = {}): Promise<E2eApp> {
  if (!existsSync(path.join(CLIENT_DIR, 'index.html'))) throw new Error('Build the client first: npm run build:client');
  await seedReferenceData();
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const app = createTestApp({ ...options, config: { clientDir: CLIENT_DIR, publicUrl: baseUrl, validateResponses: false, ...options.config } });
  const server = await new Promise<Server>((resolve) => {
    const s = app.listen(port, '127.0.0.1', () => resolve(s));
  });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_FLAGS });
  askForReducedMotion(browser);
  mkdirSync(SHOTS, { recursive: true });
  return {
    baseUrl,
    browser,
    async stop() {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** Collects the page's errors and console errors, but those matching `ignore` (an error the test provokes on purpose). */
export function watchErrors(page: Page, ignore?: RegExp): string[] {
  const errors: string[] = [];
  page.on('pageerror', (err) => errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !ignore?.test(msg.text())) errors.push(msg.text());
  });
  return errors;
}

/**
 * Every page the suite opens asks for reduced motion, as a visitor can in their system settings, and the app
 * honours it (antd's motion off, our CSS transitions cut short): modals, drawers and menus appear at once, so no
 * step waits on an animation and no click lands on a modal still zooming in. A context that names its own
 * `reducedMotion` keeps it (the test of the setting itself). `browser.newPage` goes through `newContext`.
 */
function askForReducedMotion(browser: Browser): void {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = (options: BrowserContextOptions = {}) => newContext({ reducedMotion: 'reduce', ...options });
}

/**
 * A screenshot in tests/e2e/screenshots/ once its images have decoded, to be looked at. Not in CI (`CI=true`), whose
 * clone is thrown away: there they would only cost time.
 */
export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  if (process.env.CI) return;
  await page.evaluate(() => Promise.all([...document.images].map((image) => image.decode().catch(() => undefined))));
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage });
}

/**
 * The site has laid itself out for a phone (`phone`) or a larger window: its menu button shows on a phone only. Under a
 * dialog that covers a phone's screen (the piece's detail), the page behind is not drawn (its menu button with it),
 * so the dialog covering is the phone's sign there.
 */
export async function siteLaidOut(page: Page, phone: boolean): Promise<void> {
  await page.waitForFunction((forPhone) => {
    const burger = document.querySelector('.kn-topnav__burger');
    const covered = document.documentElement.classList.contains('kn-dialog-covers');
    const burgerShown = Boolean(burger?.checkVisibility());
    return forPhone ? covered || burgerShown : !covered && !burgerShown;
  }, phone);
}

/**
 * The page at both widths: `{name}-desktop` at 1280 px, then `{name}-phone` at 390 px, then back to 1280. The site's
 * layout shows it has laid itself out for a phone (siteLaidOut); the admin area's (`area: 'admin'`) is the same
 * page under its narrow styles, so the window's width is what is waited for. `focus` is scrolled into view first.
 */
export async function screenshotBothWidths(page: Page, name: string, options: { area?: 'site' | 'admin'; focus?: Locator; fullPage?: boolean } = {}) {
  const { area = 'site', focus, fullPage = true } = options;
  const laidOut = async (width: number, phone: boolean) => {
    if (area === 'site') await siteLaidOut(page, phone);
    else await page.waitForFunction((expected) => window.innerWidth === expected, width);
  };
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-desktop`, fullPage);
  await page.setViewportSize(PHONE);
  await laidOut(PHONE.width, true);
  await focus?.scrollIntoViewIfNeeded();
  await screenshot(page, `${name}-phone`, fullPage);
  await page.setViewportSize(DESKTOP);
  await laidOut(DESKTOP.width, false);
}
