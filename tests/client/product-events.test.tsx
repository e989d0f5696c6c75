/**
 * Product events in the browser (lib/track.ts): events wait and leave together through the HTTP client, a few
 * seconds after the first or at once when 20 have gathered; when the page is hidden they leave by
 * `navigator.sendBeacon`, with the events token of a signed-in member (a beacon cannot send the Authorization
 * header) and without it once the member signed out; and nothing is sent when the browser asks not to be tracked.
 * The network is a fake axios adapter and a stand-in for `sendBeacon`.
 */
import { AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { httpClient, registerAuthBridge } from '../../client/src/api/http';
import { FLUSH_AFTER_MS, FLUSH_AT } from '../../client/src/lib/eventBatches';
import { flushEvents, sessionChanged, track } from '../../client/src/lib/track';
import { waitUntil } from '../helpers/wait';

interface Sent {
  url?: string;
  authorization?: string;
  body: { events: { name: string; at: string; props?: Record<string, string> }[] };
}

const realAdapter = httpClient().defaults.adapter;
let sent: Sent[] = [];
let answer: Record<string, unknown> = { stored: 0 };
let beacons: { url: string; data: Blob }[] = [];
/** Whether the browser takes the next beacon (it refuses one over its quota). */
let beaconTaken = true;

function fakeServer() {
  sent = [];
  httpClient().defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const authorization = AxiosHeaders.from(config.headers).get('Authorization') as string | undefined;
    sent.push({ url: config.url, authorization, body: JSON.parse(config.data as string) as Sent['body'] });
    const response: AxiosResponse = { status: 202, statusText: '202', headers: new AxiosHeaders(), config, data: answer };
    return response;
  };
}

function setNavigator(values: { doNotTrack?: string | null; globalPrivacyControl?: boolean }) {
  for (const [key, value] of Object.entries(values)) Object.defineProperty(window.navigator, key, { configurable: true, value });
}

let visibility: DocumentVisibilityState = 'visible';
function hidePage() {
  visibility = 'hidden';
  document.dispatchEvent(new Event('visibilitychange'));
}

/** A beacon's body, as the server reads it. */
const readBlob = (blob: Blob) =>
  new Promise<unknown>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(JSON.parse(reader.result as string));
    reader.readAsText(blob);
  });

beforeAll(() => {
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
  Object.defineProperty(window.navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, data: Blob) => {
      if (!beaconTaken) return false;
      beacons.push({ url, data });
      return true;
    },
  });
});

beforeEach(async () => {
  fakeServer();
  setNavigator({ doNotTrack: null, globalPrivacyControl: false });
  answer = { stored: 0 };
  // The first event loads what sends events (a chunk of its own in the app) and, a visitor's, leaves at once: each
  // test starts after it, on a visitor's page that knows it is one.
  sessionChanged();
  track('login');
  await flushEvents();
  sent = [];
  beacons = [];
  beaconTaken = true;
  visibility = 'visible';
});

afterEach(() => {
  jest.useRealTimers();
  httpClient().defaults.adapter = realAdapter;
});

describe('batching', () => {
  it('when events are tracked, then none is sent at once, and all leave in one batch a few seconds after the first', async () => {
    jest.useFakeTimers({ now: Date.UTC(2026, 10, 27, 12) });
    track('play', { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' });
    await jest.advanceTimersByTimeAsync(1_000);
    track('knack', { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' });
    track('follow');
    await jest.advanceTimersByTimeAsync(FLUSH_AFTER_MS - 1_500);
    expect(sent).toHaveLength(0);
    await jest.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.url).toBe('/events');
    expect(sent[0]!.body).toEqual({
      events: [
        { name: 'play', at: '2026-11-27T12:00:00.000Z', props: { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' } },
        { name: 'knack', at: '2026-11-27T12:00:01.000Z', props: { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' } },
        { name: 'follow', at: '2026-11-27T12:00:01.000Z' },
      ],
    });
    // Nothing waits any more: no second batch comes.
    await jest.advanceTimersByTimeAsync(FLUSH_AFTER_MS * 2);
    expect(sent).toHaveLength(1);
  });

  it('when 20 events have gathered, then they leave at once, without waiting', async () => {
    jest.useFakeTimers();
    for (let i = 0; i < FLUSH_AT; i += 1) track('play');
    await jest.advanceTimersByTimeAsync(0);
    expect(sent.map((batch) => batch.body.events.length)).toEqual([FLUSH_AT]);
  });

  it('when signed in, then a batch carries the session’s bearer token', async () => {
    const off = registerAuthBridge({ getToken: () => 'access-1', renew: jest.fn(), sessionLost: jest.fn() });
    track('login');
    await flushEvents();
    off();
    expect(sent.map((batch) => batch.authorization)).toEqual(['Bearer access-1']);
  });
});

describe('the beacon when the page is hidden', () => {
  it('when the page is hidden, then what waits leaves by sendBeacon as JSON, and not through the HTTP client', async () => {
    track('comment', { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' });
    track('play');
    hidePage();
    expect(beacons).toHaveLength(1);
    expect(beacons[0]!.url).toBe('/api/v2/events');
    expect(beacons[0]!.data.type).toBe('application/json');
    expect(await readBlob(beacons[0]!.data)).toEqual({
      events: [
        { name: 'comment', at: expect.any(String), props: { contentId: '65a1f0c2e4b0a1b2c3d4e5f6' } },
        { name: 'play', at: expect.any(String) },
      ],
    });
    await flushEvents();
    expect(sent).toHaveLength(0);
    // Nothing waits: hiding the page again sends nothing.
    hidePage();
    expect(beacons).toHaveLength(1);
  });

  it('when a member signs in, then their first event leaves at once, and the beacon after it carries the events token its answer gave', async () => {
    answer = { stored: 1, eventsToken: 'head.claims.signature', eventsTokenExpiresIn: 3600 };
    sessionChanged();
    track('login');
    // At once, without the batch's few seconds: its answer says whose the page's beacons are.
    await waitUntil(() => sent.length === 1, { what: 'the first event after the sign-in', timeoutMs: FLUSH_AFTER_MS / 2 });
    await flushEvents();
    track('play');
    hidePage();
    expect(sent).toHaveLength(1);
    expect(await readBlob(beacons[0]!.data)).toEqual({ events: [{ name: 'play', at: expect.any(String) }], eventsToken: 'head.claims.signature' });
  });

  it('when the member signs out, then the token is dropped, and the beacons after it carry none', async () => {
    answer = { stored: 1, eventsToken: 'head.claims.signature', eventsTokenExpiresIn: 3600 };
    sessionChanged();
    track('login');
    await flushEvents();
    answer = { stored: 1 };
    sessionChanged();
    track('play');
    hidePage();
    expect(await readBlob(beacons[0]!.data)).toEqual({ events: [{ name: 'play', at: expect.any(String) }] });
  });

  it('when the browser will not take the beacon, then the batch goes through the HTTP client', async () => {
    beaconTaken = false;
    track('reset_password');
    hidePage();
    await waitUntil(() => sent.length === 1, { what: 'the batch through the HTTP client', timeoutMs: FLUSH_AFTER_MS / 2 });
    expect(sent.map((batch) => batch.body.events.map((event) => event.name))).toEqual([['reset_password']]);
  });
});

describe('Do Not Track', () => {
  it.each([
    ['Do Not Track', { doNotTrack: '1' }],
    ['Global Privacy Control', { globalPrivacyControl: true }],
  ])('when the browser asks %s, then nothing is kept or sent, by the HTTP client or by beacon', async (_name, asked) => {
    jest.useFakeTimers();
    setNavigator(asked);
    for (let i = 0; i < FLUSH_AT; i += 1) track('play');
    await jest.advanceTimersByTimeAsync(FLUSH_AFTER_MS * 2);
    hidePage();
    expect(sent).toHaveLength(0);
    expect(beacons).toHaveLength(0);
  });
});
