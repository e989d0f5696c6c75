/**
 * The HTTP client and sessions (401 handling and error toasts live in the HTTP client only): the bearer token
 * on every call, a 401 renewing the token once (shared by calls failing together) and retrying, a failed
 * renewal signing out quietly, and the sign-in calls never renewed. The network is a fake axios adapter;
 * checkLoggedIn (the renewal) is mocked at the generated operations module.
 */
import { act, waitFor } from '@testing-library/react';
import { AxiosError, AxiosHeaders, type AxiosResponse, type InternalAxiosRequestConfig } from 'axios';
import { checkLoggedIn, getAllPlans, getSubscription, getUserExt } from '../../client/src/api/generated/operations';
import { httpClient, onApiError, registerAuthBridge, request, type ApiError } from '../../client/src/api/http';
import { createAppStore } from '../../client/src/app/store';
import { loginSucceeded } from '../../client/src/features/auth';
import { authAnswer, makeUser, storedAccount, unauthorized } from './auth-fixtures';
import { waitUntil } from '../helpers/wait';
import { plansAnswer } from './subscription-fixtures';
import { QUIET_FLOW_CALL } from './call-options';

jest.mock('../../client/src/api/generated/operations');

type Handler = (config: InternalAxiosRequestConfig) => { status: number; data: unknown };

const realAdapter = httpClient().defaults.adapter;
let seen: { url?: string; authorization?: string }[] = [];

function fakeServer(handler: Handler) {
  seen = [];
  httpClient().defaults.adapter = async (config: InternalAxiosRequestConfig) => {
    const authorization = AxiosHeaders.from(config.headers).get('Authorization') as string | undefined;
    seen.push({ url: config.url, authorization });
    await new Promise((resolve) => setTimeout(resolve, 0)); // answered in a later turn, as over a network
    const { status, data } = handler(config);
    const response: AxiosResponse = { status, statusText: String(status), headers: new AxiosHeaders(), config, data };
    if (status >= 400) throw new AxiosError(`Request failed with status code ${status}`, 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
}

/** Accepts only `valid` as the bearer token. */
const acceptOnly =
  (valid: string): Handler =>
  (config) => {
    const authorization = AxiosHeaders.from(config.headers).get('Authorization');
    return authorization === `Bearer ${valid}`
      ? { status: 200, data: { ok: true, url: config.url } }
      : { status: 401, data: { message: 'Your session has expired. Please log in again.', code: 'unauthorized' } };
  };

/** A call where signing in is optional, as the server answers it: a refused token is 401, no token is a visitor. */
const optionalSignIn: Handler = (config) =>
  AxiosHeaders.from(config.headers).get('Authorization')
    ? { status: 401, data: { message: 'Your session has expired. Please log in again.', code: 'unauthorized' } }
    : { status: 200, data: { content: { id: 'c1' } } };

let toasts: ApiError[] = [];
let offToasts: () => void = () => undefined;

beforeEach(() => {
  jest.resetAllMocks();
  toasts = [];
  offToasts = onApiError((error) => toasts.push(error));
  jest.mocked(getUserExt).mockResolvedValue({ userExt: { country: null, city: '', state: '', timezone: null, pCredit: 0, sCredit: 0 } });
  jest.mocked(getSubscription).mockResolvedValue({ subscription: null });
  jest.mocked(getAllPlans).mockResolvedValue(plansAnswer([]));
});

afterEach(() => {
  offToasts();
  httpClient().defaults.adapter = realAdapter;
});

describe('with a bridge', () => {
  it('when signed in, then every call carries the bearer token; signed out, none', async () => {
    let token: string | null = 'token-1';
    const off = registerAuthBridge({ getToken: () => token, renew: jest.fn(), sessionLost: jest.fn() });
    fakeServer(() => ({ status: 200, data: {} }));
    await request('get', '/tag/get-all', {});
    token = null;
    await request('get', '/tag/get-all', {});
    expect(seen.map((call) => call.authorization)).toEqual(['Bearer token-1', undefined]);
    off();
  });

  it('when a call answers 401, then the token is renewed once for all waiting calls and each is retried with it', async () => {
    let token = 'old';
    const renew = jest.fn(async () => {
      // The renewal is still under way when the second call is refused too.
      await waitUntil(() => seen.filter((call) => call.authorization === 'Bearer old').length === 2);
      token = 'new';
      return token;
    });
    const sessionLost = jest.fn();
    const off = registerAuthBridge({ getToken: () => token, renew, sessionLost });
    fakeServer(acceptOnly('new'));
    const results = await Promise.all([
      request<{ url: string }>('get', '/user-setting/get-ext/{id}', { path: { id: 'u1' } }),
      request<{ url: string }>('get', '/subscription/{id}', { path: { id: 'u1' } }),
    ]);
    expect(results.map((result) => result.url)).toEqual(['/user-setting/get-ext/u1', '/subscription/u1']);
    expect(renew).toHaveBeenCalledTimes(1);
    expect(sessionLost).not.toHaveBeenCalled();
    expect(seen.filter((call) => call.authorization === 'Bearer new')).toHaveLength(2);
    expect(toasts).toEqual([]);
    off();
  });

  it('when the renewal fails, then the session ends quietly: no toast, the caller gets the 401', async () => {
    const sessionLost = jest.fn();
    const off = registerAuthBridge({ getToken: () => 'old', renew: async () => null, sessionLost });
    fakeServer(acceptOnly('never'));
    await expect(request('get', '/subscription/{id}', { path: { id: 'u1' } })).rejects.toMatchObject({ status: 401 });
    expect(sessionLost).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([]);
    off();
  });

  it('when the renewal fails on a call anyone may make, then it is made again as a visitor and its answer comes back', async () => {
    const sessionLost = jest.fn();
    const off = registerAuthBridge({ getToken: () => 'revoked', renew: async () => null, sessionLost });
    fakeServer(optionalSignIn);
    const answer = await request<{ content: { id: string } }>('get', '/content/get-by-id/{id}', { path: { id: 'c1' } });
    expect(answer.content.id).toBe('c1');
    expect(seen.map((call) => call.authorization)).toStrictEqual(['Bearer revoked', undefined]);
    expect(sessionLost).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([]);
    off();
  });

  it('when the renewed token is refused too, then the call is made as a visitor; one that needs a member ends quietly', async () => {
    let token = 'old';
    const sessionLost = jest.fn();
    const off = registerAuthBridge({ getToken: () => token, renew: async () => (token = 'renewed'), sessionLost });
    fakeServer(acceptOnly('never'));
    await expect(request('get', '/subscription/{id}', { path: { id: 'u1' } })).rejects.toMatchObject({ status: 401 });
    expect(seen.map((call) => call.authorization)).toStrictEqual(['Bearer old', 'Bearer renewed', undefined]);
    expect(sessionLost).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([]);
    off();
  });

  it('when a sign-in call answers 401, then nothing is renewed and the message is the caller’s', async () => {
    const renew = jest.fn();
    const off = registerAuthBridge({ getToken: () => 'old', renew, sessionLost: jest.fn() });
    fakeServer(() => ({ status: 401, data: { message: 'Incorrect email or password.', code: 'unauthorized' } }));
    await expect(request('post', '/auth/signin', { body: {} }, { quiet: 'the test reads the refusal itself' })).rejects.toMatchObject({
      message: 'Incorrect email or password.',
    });
    expect(renew).not.toHaveBeenCalled();
    expect(toasts).toEqual([]); // quiet: the form shows it
    off();
  });

  it('when another error happens, then the toast layer hears the server message', async () => {
    const off = registerAuthBridge({ getToken: () => 'old', renew: jest.fn(), sessionLost: jest.fn() });
    fakeServer(() => ({ status: 403, data: { message: 'Only the member themself or an admin.', code: 'forbidden' } }));
    await expect(request('get', '/subscription/{id}', { path: { id: 'u2' } })).rejects.toMatchObject({ status: 403 });
    expect(toasts.map((error) => error.message)).toEqual(['Only the member themself or an admin.']);
    off();
  });
});

describe('with the store (the auth feature registers the bridge)', () => {
  it('when the access token expired, then check-loggedin gives a new one, the call is retried and the account stored', async () => {
    const store = createAppStore();
    act(() => void store.dispatch(loginSucceeded({ user: makeUser(), token: 'expired', reactedContents: [] })));
    jest.mocked(checkLoggedIn).mockResolvedValue(authAnswer('renewed'));
    fakeServer(acceptOnly('renewed'));
    await request('get', '/user-setting/get-ext/{id}', { path: { id: makeUser().id } });
    expect(checkLoggedIn).toHaveBeenCalledTimes(1);
    expect(checkLoggedIn).toHaveBeenCalledWith({ body: { token: 'expired' } }, QUIET_FLOW_CALL);
    expect(seen.map((call) => call.authorization)).toEqual(['Bearer expired', 'Bearer renewed']);
    expect(store.getState().auth.token).toBe('renewed');
    await waitFor(() => expect(storedAccount()?.token).toBe('renewed'));
    store.uninstallAuthBridge();
  });

  it('when a member whose session was revoked opens a piece, then it loads as for a visitor and the member is signed out', async () => {
    const store = createAppStore();
    act(() => void store.dispatch(loginSucceeded({ user: makeUser(), token: 'revoked', reactedContents: [] })));
    jest.mocked(checkLoggedIn).mockRejectedValue(unauthorized());
    fakeServer(optionalSignIn);
    const answer = await request<{ content: { id: string } }>('get', '/content/get-by-id/{id}', { path: { id: 'c1' } });
    expect(answer.content.id).toBe('c1');
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(false));
    expect(toasts).toEqual([]);
    store.uninstallAuthBridge();
  });

  it('when the refresh cookie is gone too, then the member is signed out quietly', async () => {
    const store = createAppStore();
    act(() => void store.dispatch(loginSucceeded({ user: makeUser(), token: 'expired', reactedContents: ['c1'] })));
    jest.mocked(checkLoggedIn).mockRejectedValue(unauthorized());
    fakeServer(acceptOnly('never'));
    await expect(request('get', '/subscription/{id}', { path: { id: makeUser().id } })).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(store.getState().auth.isLoggedIn).toBe(false));
    expect(store.getState().auth.reactedContents).toEqual([]);
    expect(storedAccount()).toBeNull();
    expect(toasts).toEqual([]);
    store.uninstallAuthBridge();
  });
});
