/**
 * Helpers for the payment and wallet tests: listing quotes, orders, wallet summaries and history items shaped
 * as the payment and history calls answer them (openapi ListingQuote, PaymentOrder, WalletSummary,
 * HistoryItem), a signed-in SPA, the checkout redirect caught, the files saved caught, and a fake network under the real HTTP client
 * for the calls whose failures the HTTP client itself shows (call errors as toasts with the server's
 * message). The generated operations are mocked by the calling file.
 */
import { waitFor, within } from '@testing-library/react';
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import type { components } from '../../generated/openapi';
import * as operations from '../../client/src/api/generated/operations';
import { httpClient } from '../../client/src/api/http';
import { checkout } from '../../client/src/features/payments/testing';
import { makeUser, storeAccount } from './auth-fixtures';
import { JANE_ID, renderAt } from './profile-fixtures';
import { mockMemberCalls } from './upload-fixtures';

type User = components['schemas']['User'];
type Content = components['schemas']['Content'];
export type ListingQuote = components['schemas']['ListingQuote'];
export type PaymentOrder = components['schemas']['PaymentOrder'];
export type WalletSummary = components['schemas']['WalletSummary'];
export type HistoryItem = components['schemas']['HistoryItem'];

export const jane = (): User => makeUser({ id: JANE_ID, username: 'jane_doe', fullName: 'Jane Doe' });
export const bea = (): User =>
  makeUser({ id: '64b0000000000000000000b2', username: 'bea_moon', fullName: 'Bea Moon', firstName: 'Bea', lastName: 'Moon', email: 'bea@example.com' });

/** The SPA at `path`, signed in as `user` (a stored account, reloaded). */
export async function renderAsMember(path: string, user: User = jane()) {
  storeAccount('stored-token', user);
  mockMemberCalls(user);
  const app = renderAt(path);
  await waitFor(() => expect(app.store.getState().auth.session).toBe('active'));
  return { ...app, user };
}

/**
 * The open payment modal titled `title` ('Monetize this piece', 'Cash out', 'Congratulations!'). antd gives
 * every dialog the same aria-labelledby id in jsdom, so with the detail open beneath, the name cannot tell
 * them apart: found by the payment modal's class and its title instead.
 */
export async function paymentDialog(title: string) {
  const dialog = await waitFor(() => {
    const found = [...document.querySelectorAll<HTMLElement>('.kn-payment-modal [role="dialog"]')].find(
      (candidate) =>
        candidate.querySelector('.ant-modal-title')?.textContent === title &&
        candidate.closest('.ant-modal-wrap')?.getAttribute('style')?.includes('display: none') !== true,
    );
    if (!found) throw new Error(`no payment dialog ${title}`);
    return found;
  });
  return within(dialog);
}

const micros = (usd: number) => Math.round(usd * 1_000_000);

/** The forecast of a piece's listing as the server words it: ten knacks in ten days, the fee back in about 13 days. */
export function forecastFor(contentId: string): operations.GetListingForecastResult {
  return {
    contentId,
    status: 'estimate',
    basis: 'piece',
    fee: 0.65,
    feeMicros: 650_000,
    knackPrice: 0.05,
    knackPriceMicros: 50_000,
    sharePercent: 100,
    observedDays: 10,
    observedKnacks: 10,
    knacksPerDay: 1,
    knacksPerDayLow: 0.4,
    knacksPerDayHigh: 1.6,
    days: 13,
    daysLow: 9,
    daysHigh: 35,
    message: "At $0.05 a knack and this piece's 1 knack a day, the $0.65 fee pays back in about 13 days (9–35).",
  };
}

/** Listing fee tiers: premium ($12.40) when one knack of the piece is worth at least $0.99, else standard ($0.65). */
export function quoteFor(content: Content, overrides: Partial<ListingQuote> = {}): ListingQuote {
  const premium = content.knackRate >= 0.99;
  const fee = premium ? 12.4 : 0.65;
  return {
    contentId: content.id,
    tier: premium ? 'premium' : 'standard',
    fee,
    feeMicros: micros(fee),
    credit: null,
    creditsLeft: 0,
    isPaidOut: content.isPaidOut,
    ...overrides,
  };
}

export function order(contentId: string, status: PaymentOrder['status'], orderId = '64e000000000000000000001'): PaymentOrder {
  const message = {
    paid: 'Paid successfully',
    failed: 'Payment Failed',
    pending: 'Waiting for the payment to be confirmed.',
    superseded: 'This piece was monetized by someone else first. Your payment will be refunded.',
  }[status];
  return { orderId, contentId, status, amount: 0.65, amountMicros: 650_000, message };
}

/** A wallet summary; the USD figures given, their micros derived (the server sends both). */
export function walletSummary(
  figures: Partial<Pick<WalletSummary, 'balance' | 'uploads' | 'collections' | 'totalValue' | 'paidOut' | 'pendingCashOut'>> = {},
  rest: Partial<WalletSummary> = {},
): WalletSummary {
  const { balance = 0, uploads = 0, collections = 0, paidOut = 0, pendingCashOut = 0 } = figures;
  const totalValue = figures.totalValue ?? uploads + collections;
  return {
    balance,
    balanceMicros: micros(balance),
    canCashOut: micros(balance) >= 10_000_000,
    minCashOut: 10,
    uploads,
    uploadsMicros: micros(uploads),
    collections,
    collectionsMicros: micros(collections),
    totalValue,
    totalValueMicros: micros(totalValue),
    paidOut,
    paidOutMicros: micros(paidOut),
    pendingCashOut,
    pendingCashOutMicros: micros(pendingCashOut),
    payoutAccount: null,
    nextPayoutAt: '2026-07-01T00:00:00.000Z',
    ...rest,
  };
}

let historyCounter = 0;
export function historyItem(
  activityType: HistoryItem['activityType'],
  activity: string,
  changes: { paid?: number; earned?: number } = {},
  overrides: Partial<HistoryItem> = {},
): HistoryItem {
  const { paid = 0, earned = 0 } = changes;
  return {
    historyId: (0x64f000000000 + ++historyCounter).toString(16).padStart(24, '0'),
    userId: JANE_ID,
    contentId: null,
    contentTitle: null,
    activityType,
    activity,
    changes: { paid, earned, supporterId: null, paidMicros: micros(paid), earnedMicros: micros(earned) },
    status: activityType === 'Earn' ? 'pending' : null,
    // Midday UTC: the same calendar day in every time zone the tests may run in.
    at: '2026-05-14T12:00:00.000Z',
    ...overrides,
  };
}

/** The checkout is a full page load to the provider (window.location.assign): caught here instead. */
export function catchCheckout() {
  return jest.spyOn(checkout, 'go').mockImplementation(() => undefined);
}

// ---- the real HTTP client over a fake network ----

type Operations = typeof operations;
type OperationName = { [K in keyof Operations]: Operations[K] extends (...args: never[]) => unknown ? K : never }[keyof Operations];

const actual = jest.requireActual<Operations>('../../client/src/api/generated/operations');

export interface SentRequest {
  method: string;
  url: string;
  body: unknown;
  authorization: string | undefined;
}

export type Answer = { status: number; data: unknown };

const realAdapter = httpClient().defaults.adapter;

/**
 * The named operations go through the real HTTP client (axios, bearer token, error toasts) to a fake network
 * answering `answer(request)`; every request is recorded. `restoreNetwork` puts the real adapter back.
 */
export function sendThroughHttp(names: OperationName[], answer: (request: SentRequest) => Answer): SentRequest[] {
  for (const name of names) (jest.mocked(operations[name]) as unknown as jest.Mock).mockImplementation(actual[name] as (...args: unknown[]) => unknown);
  const sent: SentRequest[] = [];
  httpClient().defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const request: SentRequest = {
      method: (config.method ?? 'get').toUpperCase(),
      url: config.url ?? '',
      body: typeof config.data === 'string' ? JSON.parse(config.data) : config.data,
      authorization: AxiosHeaders.from(config.headers).get('Authorization') as string | undefined,
    };
    sent.push(request);
    const { status, data } = answer(request);
    const response: AxiosResponse = { status, statusText: String(status), headers: new AxiosHeaders(), config, data };
    if (status >= 400) throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
  return sent;
}

export function restoreNetwork() {
  httpClient().defaults.adapter = realAdapter;
}

// ---- files the page hands the browser to save ----

/** A blob's text (jsdom's Blob has no text()). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as string);
    reader.readAsText(blob);
  });
}

/**
 * The files the page hands the browser to save (an object URL clicked as a download link): their names, media types
 * and texts. The link's click is a spy: the calling file restores it (`jest.restoreAllMocks`).
 */
export function catchSavedFiles() {
  const saved: { name: string; type: string; text: Promise<string> }[] = [];
  const blobs = new Map<string, Blob>();
  Object.assign(URL, {
    createObjectURL: (blob: Blob) => {
      const url = `blob:test/${blobs.size}`;
      blobs.set(url, blob);
      return url;
    },
    revokeObjectURL: () => undefined,
  });
  jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    const blob = blobs.get(this.href)!;
    saved.push({ name: this.download, type: blob.type, text: blobText(blob) });
  });
  return saved;
}
