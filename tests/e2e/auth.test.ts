/**
 * End to end, as a new user would: the production build of the SPA served by the real app on the real
 * database, mail in the dev outbox, driven in Chromium. Sign up in two steps, open the activation mail on
 * /dev/mail, activate, log out, log in, reload and stay logged in, log out, reset the password by mail and
 * log in with the new one. Screenshots of every modal at 1280 and 390 px land in tests/e2e/screenshots/ to be
 * looked at.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { outboxMailer } from '../../server/integrations/mail/outbox.driver';
import { useTestDatabase } from '../helpers/db';
import { DESKTOP, PHONE, screenshot, startE2eApp, watchErrors, type E2eApp } from '../helpers/e2e';
import { createActiveMember, outboxMailbox } from '../helpers/auth';

jest.setTimeout(120_000);
useTestDatabase();

let e2e: E2eApp;
let baseUrl: string;
let browser: Browser;
const outboxDir = mkdtempSync(path.join(os.tmpdir(), 'knack-e2e-auth-mail-'));

beforeAll(async () => {
  e2e = await startE2eApp({ mailer: outboxMailer(outboxDir, 'Knack <no-reply@knack.test>') });
  ({ baseUrl, browser } = e2e);
}, 60_000);

afterAll(async () => {
  await e2e?.stop();
  rmSync(outboxDir, { recursive: true, force: true });
});

/** The console errors of the 4xx answers the auth calls give on purpose in this flow. */
const PROVOKED_4XX = /status of 4\d\d/;

const dialog = (page: Page): Locator => page.getByRole('dialog');

const shot = (page: Page, name: string) => screenshot(page, name);

async function openFromTopNav(page: Page, name: 'Login' | 'Create account' | 'Logout') {
  await page.getByRole('banner').getByRole('button', { name, exact: true }).click();
  if (name !== 'Logout') {
    await dialog(page).waitFor();
  }
}

/** Opens the newest outbox mail to `to` with `subject` and follows its link (the one that looks like `linkPart`). */
async function followMailLink(page: Page, to: string, subject: string, linkPart: string): Promise<string> {
  await page.goto(`${baseUrl}/dev/mail`);
  const row = page.locator('tr', { hasText: to }).filter({ hasText: subject }).first();
  await row.getByRole('link', { name: subject }).click();
  await page.getByRole('heading', { name: subject }).waitFor();
  const link = page.locator(`a[href*="${linkPart}"]`).first();
  const href = (await link.getAttribute('href')) ?? '';
  expect(href.startsWith(`${baseUrl}${linkPart}`)).toBe(true);
  await link.click();
  return href;
}

async function expectLoggedIn(page: Page, username: string) {
  await page.getByRole('banner').getByRole('button', { name: 'Logout', exact: true }).waitFor({ timeout: 10_000 });
  // The side menu head: the username with underscores shown as spaces.
  await page.getByRole('navigation', { name: 'Side menu' }).getByText(username.replace(/_/g, ' '), { exact: true }).waitFor();
}

async function expectLoggedOut(page: Page) {
  await page.getByRole('banner').getByRole('button', { name: 'Login', exact: true }).waitFor({ timeout: 10_000 });
  expect(await page.evaluate(() => window.localStorage.getItem('knack:account'))).toBeNull();
}

describe('accounts and sessions in Chromium', () => {
  const stamp = Date.now().toString(36);
  const email = `new.member.${stamp}@example.com`;
  const username = `member_${stamp}`.slice(0, 30);
  const password = 'Fresh!Start9';
  const newPassword = 'Second!Try42';

  it('when a new user signs up, activates by mail, logs in and out, reloads, and resets the password, then every step works', async () => {
    const context = await browser.newContext({ viewport: DESKTOP });
    const page = await context.newPage();
    const errors = watchErrors(page, PROVOKED_4XX);

    // Home, then Create account: step 1 (email only).
    await page.goto(baseUrl, { waitUntil: 'networkidle' });
    await page.getByText('Hip Hop', { exact: true }).first().waitFor();
    await openFromTopNav(page, 'Create account');
    await dialog(page).getByRole('heading', { name: 'Create your account' }).waitFor();
    await shot(page, 'signup-step1-desktop');
    await dialog(page).getByLabel('Email').fill(`  ${email.toUpperCase()} `);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();

    // Step 2: details. The username is typed with capitals and a space; leaving the field normalizes it.
    await dialog(page).getByRole('heading', { name: 'Tell us about you' }).waitFor();
    await dialog(page).getByText(email, { exact: true }).waitFor();
    await dialog(page).getByLabel('First name').fill('New');
    await dialog(page).getByLabel('Last name').fill('Member');
    await dialog(page).getByLabel('Username').fill(username.replace('_', ' ').toUpperCase());
    await dialog(page).getByLabel('Password', { exact: true }).fill(password);
    await dialog(page).getByLabel('Confirm password').fill(`${password}x`);
    await dialog(page).getByRole('button', { name: 'Create account' }).click();
    await dialog(page).getByText("Those passwords didn't match. Try again.").first().waitFor();
    expect(await dialog(page).getByText("Those passwords didn't match. Try again.").count()).toBe(2);
    expect(await dialog(page).getByLabel('Username').inputValue()).toBe(username);
    await shot(page, 'signup-step2-errors-desktop');
    await dialog(page).getByLabel('Confirm password').fill(password);
    await dialog(page).getByRole('button', { name: 'Create account' }).click();

    // 'Check Your Email', with the junk mail hint.
    await dialog(page).getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await dialog(page)
      .getByText(/junk mail/)
      .waitFor();
    await shot(page, 'signup-check-email-desktop');
    await dialog(page).getByRole('button', { name: 'OK' }).click();

    // Logging in before activation: no token, 'Check Your Email' again.
    await openFromTopNav(page, 'Login');
    await dialog(page).getByLabel('Email').fill(email);
    await dialog(page).getByLabel('Password').fill(password);
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    await dialog(page).getByRole('heading', { name: 'Check Your Email' }).waitFor();
    await shot(page, 'login-not-activated-desktop');
    await dialog(page).getByRole('button', { name: 'OK' }).click();
    await expectLoggedOut(page);

    // The activation mail in the outbox: its link signs the new member in on home.
    const activation = await followMailLink(page, email, 'Activate your Knack account', '/confirm?token=');
    expect(activation).toMatch(/\/confirm\?token=/);
    await page.getByText('Successfully created an account.').waitFor({ timeout: 10_000 });
    await page.waitForURL(`${baseUrl}/`);
    await expectLoggedIn(page, username);
    await page.getByRole('navigation', { name: 'Side menu' }).getByText('Where are you from?').waitFor();
    await shot(page, 'logged-in-home-desktop');

    // Log out: home, the visitor's navigation, nothing stored.
    await openFromTopNav(page, 'Logout');
    await expectLoggedOut(page);

    // Log in.
    await openFromTopNav(page, 'Login');
    await dialog(page).getByRole('heading', { name: 'Log in to Knack' }).waitFor();
    await shot(page, 'login-desktop');
    await dialog(page).getByLabel('Email').fill(email);
    await dialog(page).getByLabel('Password').fill(password);
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    await expectLoggedIn(page, username);
    await dialog(page).waitFor({ state: 'detached' }); // the closing animation ends

    // Reload: the stored account is reloaded through the refresh cookie (a new access token).
    const before = await page.evaluate(() => JSON.parse(window.localStorage.getItem('knack:account') ?? 'null') as { token: string } | null);
    expect(before?.token).toBeTruthy();
    const reload = page.waitForResponse((response) => response.url().endsWith('/api/v2/auth/check-loggedin'));
    await page.reload({ waitUntil: 'networkidle' });
    const reloaded = await reload;
    expect(reloaded.status()).toBe(200);
    const { token } = (await reloaded.json()) as { token: string };
    await expectLoggedIn(page, username);
    await page.waitForFunction((fresh) => JSON.parse(window.localStorage.getItem('knack:account') ?? '{}').token === fresh, token);

    // Log out again.
    await openFromTopNav(page, 'Logout');
    await expectLoggedOut(page);

    // Forgot password: 'Email Sent'.
    await openFromTopNav(page, 'Login');
    await dialog(page).getByRole('button', { name: 'Forgot password?' }).click();
    await dialog(page).getByRole('heading', { name: 'Forgot password?' }).waitFor();
    await shot(page, 'forgot-desktop');
    await dialog(page).getByLabel('Email').fill(email);
    await dialog(page).getByRole('button', { name: 'Send reset link' }).click();
    await dialog(page).getByRole('heading', { name: 'Email Sent' }).waitFor();
    await dialog(page)
      .getByText(/junk mail/)
      .waitFor();
    await shot(page, 'forgot-email-sent-desktop');

    // The reset mail's link opens the reset modal over home.
    await followMailLink(page, email, 'Reset your Knack password', '/auth/reset-password?token=');
    await dialog(page).getByRole('heading', { name: 'Reset your password' }).waitFor();
    await page.waitForURL(`${baseUrl}/`);
    await shot(page, 'reset-desktop');
    await dialog(page).getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog(page).getByLabel('Confirm new password').fill(`${newPassword}?`);
    await dialog(page).getByRole('button', { name: 'Set new password' }).click();
    await dialog(page).getByText('Password and confirmed password should be match.').first().waitFor();
    await shot(page, 'reset-mismatch-desktop');
    await dialog(page).getByLabel('Confirm new password').fill(newPassword);
    await dialog(page).getByRole('button', { name: 'Set new password' }).click();

    // Then login opens, saying so; the old password no longer works, the new one does.
    await dialog(page).getByText('Your password has been reset. Log in with your new password.').waitFor();
    await shot(page, 'login-after-reset-desktop');
    await dialog(page).getByLabel('Email').fill(email);
    await dialog(page).getByLabel('Password').fill(password);
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    await dialog(page).getByText('Incorrect email or password.').waitFor();
    await dialog(page).getByLabel('Password').fill(newPassword);
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    await expectLoggedIn(page, username);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('when the modals open on a phone (390 px), then each takes the whole screen', async () => {
    const { form: member } = await createActiveMember(baseUrl, outboxMailbox(outboxDir));
    const context = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    const errors = watchErrors(page, PROVOKED_4XX);
    await page.goto(baseUrl, { waitUntil: 'networkidle' });
    await page.getByText('Hip Hop', { exact: true }).first().waitFor();

    const fullScreen = async () => {
      const box = await page.locator('.ant-modal').boundingBox();
      expect(box?.width).toBe(PHONE.width);
      expect(box?.x).toBe(0);
    };

    await openFromTopNav(page, 'Login');
    await dialog(page).getByRole('heading', { name: 'Log in to Knack' }).waitFor();
    await shot(page, 'login-phone');
    await fullScreen();
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    await dialog(page).getByText('Please input password').waitFor();
    await shot(page, 'login-errors-phone');

    await dialog(page).getByRole('button', { name: 'Create account' }).click();
    await dialog(page).getByRole('heading', { name: 'Create your account' }).waitFor();
    await shot(page, 'signup-step1-phone');
    await fullScreen();
    await dialog(page).getByLabel('Email').fill(`phone.${stamp}@example.com`);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByRole('heading', { name: 'Tell us about you' }).waitFor();
    await dialog(page).getByRole('button', { name: 'Create account' }).click();
    await dialog(page).getByText('You should input your confirm password.').waitFor();
    await shot(page, 'signup-step2-errors-phone');

    // An email that belongs to an account: signup closes and login opens prefilled.
    await dialog(page).getByRole('button', { name: 'Change' }).click();
    await dialog(page).getByLabel('Email').fill(member.email);
    await dialog(page).getByRole('button', { name: 'Continue' }).click();
    await dialog(page).getByRole('heading', { name: 'Log in to Knack' }).waitFor();
    expect(await dialog(page).getByLabel('Email').inputValue()).toBe(member.email);

    // The password field has the focus. Pressing the link keeps it there: no check of the empty field runs, so
    // no message pushes the link away under the finger before it is released.
    const forgot = dialog(page).getByRole('button', { name: 'Forgot password?' });
    const at = (await forgot.boundingBox())!;
    await page.mouse.move(at.x + at.width / 2, at.y + at.height / 2);
    await page.mouse.down();
    expect(await page.evaluate(() => document.activeElement?.getAttribute('autocomplete'))).toBe('current-password');
    await page.mouse.up();
    await dialog(page).getByRole('heading', { name: 'Forgot password?' }).waitFor();
    await shot(page, 'forgot-phone');
    await fullScreen();
    await dialog(page).getByLabel('Email').fill(`nobody.${stamp}@example.com`);
    await dialog(page).getByRole('button', { name: 'Send reset link' }).click();
    await dialog(page).getByRole('heading', { name: 'Email Sent' }).waitFor();
    await shot(page, 'forgot-email-sent-phone');

    await page.goto(`${baseUrl}/auth/reset-password?token=not-a-real-token`, { waitUntil: 'networkidle' });
    await dialog(page).getByRole('heading', { name: 'Reset your password' }).waitFor();
    await fullScreen();
    await shot(page, 'reset-phone');
    await dialog(page).getByLabel('New password', { exact: true }).fill(newPassword);
    await dialog(page).getByLabel('Confirm new password').fill(newPassword);
    await dialog(page).getByRole('button', { name: 'Set new password' }).click();
    await dialog(page).getByText('This reset link is invalid or has expired.').waitFor();
    await shot(page, 'reset-invalid-phone');

    // Signed in on a phone: the drawer has the member's head and Log out.
    await page.goto(`${baseUrl}/auth/login`, { waitUntil: 'networkidle' });
    await dialog(page).getByLabel('Email').fill(member.email);
    await dialog(page).getByLabel('Password').fill(member.password);
    await dialog(page).getByRole('button', { name: 'Log in', exact: true }).click();
    // Logged in from /auth/login, the member lands on Explore. The menu is opened once Explore shows: the layout
    // closes the menu when the page changes, so a menu opened while the move is still rendering would close again.
    await page.waitForURL(`${baseUrl}/explore`);
    await page.getByRole('heading', { level: 1, name: 'Explore' }).waitFor();
    await page.waitForFunction(() => Boolean(window.localStorage.getItem('knack:account')));
    await page.getByRole('button', { name: 'Open menu' }).click();
    const drawer = page.getByRole('navigation', { name: 'Side menu' });
    await drawer.getByText(member.username.replace(/_/g, ' '), { exact: true }).waitFor();
    await shot(page, 'logged-in-drawer-phone');
    await drawer.getByRole('button', { name: 'Log out' }).click();
    await expectLoggedOut(page);

    expect(errors).toEqual([]);
    await context.close();
  });
});
