/**
 * The client's Idempotency-Key: every call that moves money (the contract marks it `x-idempotent`) carries a key of
 * its own, a new one for each action; the same action sent again after a token renewal carries the same key, and a
 * caller retrying an action may give its key; other calls carry none. The network is a fake axios adapter.
 */
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { knackApi } from '../../client/src/api/generated/endpoints';
import { getAllPlans, payForContent, requestCashOut } from '../../client/src/api/generated/operations';
import { httpClient, newIdempotencyKey, registerAuthBridge } from '../../client/src/api/http';
import { createAppStore } from '../../client/src/app/store';

const realAdapter = httpClient().defaults.adapter;
let seen: { url?: string; key?: string; authorization?: string }[] = [];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const USER_ID = '5f0c6f3e8a5b4d1a9f4e2b7c';

/** Answers every call 200, except with a token in `refused`, 401. */
function fakeServer(refused: string[] = []) {
  seen = [];
  httpClient().defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const headers = AxiosHeaders.from(config.headers);
    const authorization = headers.get('Authorization') as string | undefined;
    seen.push({ url: config.url, key: headers.get('Idempotency-Key') as string | undefined, authorization });
    const status = refused.some((token) => authorization === `Bearer ${token}`) ? 401 : 200;
    const response: AxiosResponse = { status, statusText: String(status), headers: new AxiosHeaders(), config, data: { message: 'ok', code: 'unauthorized' } };
    if (status >= 400) throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
}

afterEach(() => {
  httpClient().defaults.adapter = realAdapter;
});

describe('a call that moves money', () => {
  it('when a member asks to cash out twice, then each request carries an Idempotency-Key, a new one each time', async () => {
    fakeServer();
    await requestCashOut({ body: { userId: USER_ID } });
    await requestCashOut({ body: { userId: USER_ID } });
    expect(seen.map((call) => call.url)).toEqual(['/user-history/earn', '/user-history/earn']);
    expect(seen[0]!.key).toMatch(UUID);
    expect(seen[1]!.key).toMatch(UUID);
    expect(seen[1]!.key).not.toBe(seen[0]!.key);
  });

  it('when a call that moves nothing is made, then it carries no key', async () => {
    fakeServer();
    await getAllPlans();
    expect(seen).toEqual([{ url: '/subscription/all-plans', key: undefined, authorization: undefined }]);
  });

  it('when the token is renewed in the middle of a payment, then the payment is sent again with the same key', async () => {
    const off = registerAuthBridge({ getToken: () => 'old', renew: () => Promise.resolve('new'), sessionLost: jest.fn() });
    try {
      fakeServer(['old']);
      await payForContent({ body: { userId: USER_ID, contentId: USER_ID, useCredit: true } });
      expect(seen.map((call) => call.authorization)).toEqual(['Bearer old', 'Bearer new']);
      expect(seen[0]!.key).toMatch(UUID);
      expect(seen[1]!.key).toBe(seen[0]!.key);
    } finally {
      off();
    }
  });

  it('when a screen retries an action through the data layer with its key, then that key is sent; without one, a new one', async () => {
    fakeServer();
    const store = createAppStore();
    const key = newIdempotencyKey();
    await store.dispatch(knackApi.endpoints.requestCashOut.initiate({ body: { userId: USER_ID }, idempotencyKey: key }));
    await store.dispatch(knackApi.endpoints.requestCashOut.initiate({ body: { userId: USER_ID } }));
    expect(seen[0]!.key).toBe(key);
    expect(seen[1]!.key).toMatch(UUID);
    expect(seen[1]!.key).not.toBe(key);
  });
});

describe('newIdempotencyKey', () => {
  it('when the page is not a secure one (no crypto.randomUUID), then the key is still a random version 4 UUID', () => {
    const randomUUID = crypto.randomUUID;
    Object.defineProperty(crypto, 'randomUUID', { value: undefined, configurable: true });
    try {
      const [a, b] = [newIdempotencyKey(), newIdempotencyKey()];
      expect(a).toMatch(UUID);
      expect(b).toMatch(UUID);
      expect(a).not.toBe(b);
    } finally {
      Object.defineProperty(crypto, 'randomUUID', { value: randomUUID, configurable: true });
    }
  });
});
