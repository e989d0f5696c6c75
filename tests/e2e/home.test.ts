/**
 * End to end: the production build of the SPA served by the real app on the real database, driven in
 * Chromium at desktop and phone widths. Screenshots land in tests/e2e/screenshots/ to be looked at.
 */
import type { Browser } from 'playwright-core';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, screenshot, startE2eApp, type E2eApp } from '../helpers/e2e';

useTestDatabase();

let e2e: E2eApp;
let baseUrl: string;
let browser: Browser;

beforeAll(async () => {
  e2e = await startE2eApp();
  ({ baseUrl, browser } = e2e);
}, 60_000);

afterAll(async () => e2e?.stop());

describe.each([
  ['desktop', 1280, 800],
  ['phone', 390, 844],
])('home page at %s width', (name, width, height) => {
  it('when a visitor opens home, then Music, Art and Photos show their sub-tags with knack prices', async () => {
    const page = await browser.newPage({ viewport: { width, height } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });

    await page.goto(baseUrl, { waitUntil: 'networkidle' });
    for (const label of ['Music', 'Art', 'Photos', 'Hip Hop', 'Digital Art', 'Architecture & Buildings']) {
      await page.getByText(label, { exact: true }).first().waitFor({ state: 'visible', timeout: 10_000 });
    }
    const text = await page.locator('body').innerText();
    expect(text).toContain('$0.05');
    expect(text).toContain('$0.99');
    // The footer comes from the CMS call, with the fixed tagline and links.
    for (const column of ['SUPPORT', 'SOCIAL', 'TRENDING', 'MOST VIEWED']) expect(text).toContain(column);
    expect(text).toMatch(/K stands for knack/i);
    // Page metadata from the pages-metas call, applied once the browser is idle.
    await page.waitForFunction(() => document.title === 'Knack: get paid for every play and view');
    expect(await page.title()).toBe('Knack: get paid for every play and view');
    // The icons' rules come in the app's stylesheet file: no icon inserted them while the page loaded.
    expect(
      await page.evaluate(() => ({
        iconRuleInStylesheetFile: [...document.styleSheets].some(
          (sheet) => sheet.href !== null && [...sheet.cssRules].some((rule) => rule instanceof CSSStyleRule && rule.selectorText === '.anticon'),
        ),
        iconsOnPage: document.querySelectorAll('.anticon').length > 0,
        insertedIconSheets: document.querySelectorAll('style[rc-util-key="@ant-design-icons"]').length,
      })),
    ).toEqual({ iconRuleInStylesheetFile: true, iconsOnPage: true, insertedIconSheets: 0 });

    await screenshot(page, `home-${name}`, true);
    expect(errors).toEqual([]);
    await page.close();
  });
});

describe('routes', () => {
  it('when an unknown route is opened, then the visitor lands on home', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(`${baseUrl}/no/such/page`, { waitUntil: 'networkidle' });
    await page.waitForURL(`${baseUrl}/`);
    await page.getByText('Hip Hop', { exact: true }).first().waitFor({ state: 'visible' });
    expect(new URL(page.url()).pathname).toBe('/');
    await page.close();
  });
});

describe('motion', () => {
  /**
   * Opens the login modal and answers whether antd animated anything meanwhile: the class of a running motion
   * (`ant-fade-appear-active`, `ant-zoom-enter-active`, …; the `-prepare` step alone runs either way) is seen by an
   * observer set up before the click, so the answer does not depend on how fast the machine is.
   */
  async function loginModalAnimates(reducedMotion: 'reduce' | 'no-preference'): Promise<boolean> {
    const page = await browser.newPage({ viewport: DESKTOP, reducedMotion });
    await page.goto(baseUrl);
    await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).waitFor();
    await page.evaluate(() => {
      const motion = /\bant-[\w-]+-(appear|enter)-active\b/;
      const seen = (node: Node) =>
        node instanceof Element &&
        (motion.test(node.className.toString()) || [...node.querySelectorAll('*')].some((el) => motion.test(el.className.toString())));
      const w = window as unknown as { animated: boolean };
      w.animated = false;
      new MutationObserver((records) => {
        for (const record of records) if (seen(record.target) || [...record.addedNodes].some(seen)) w.animated = true;
      }).observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['class'] });
    });
    await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).click();
    await page.getByRole('dialog', { name: 'Log in' }).getByLabel('Email').waitFor();
    // Every motion step has run (prepare, start, active) once no element carries a motion class any more.
    await page.waitForFunction(() => !document.querySelector('[class*="-appear"], [class*="-enter"]'));
    const animated = await page.evaluate(() => (window as unknown as { animated: boolean }).animated);
    await page.close();
    return animated;
  }

  it('when the visitor’s system asks for reduced motion, then a modal opens without animating; otherwise it zooms in', async () => {
    expect(await loginModalAnimates('reduce')).toBe(false);
    expect(await loginModalAnimates('no-preference')).toBe(true);
  });
});
