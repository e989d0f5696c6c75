/**
 * The one HTTP client of the SPA. Generated operation functions call `request`; errors come back
 * as `ApiError` carrying the server's `message` (call errors are shown to the user with that message).
 *
 * Sessions: the auth feature registers a small bridge (`registerAuthBridge`) that gives the current access
 * token, renews it and ends the session; this file never imports a feature. Every call carries
 * `Authorization: Bearer <token>` while signed in. A 401 from a call outside `/auth/` renews the token once
 * (one renewal shared by every call waiting on it), then retries the call; if that fails the session ends
 * quietly (no toast) and the call is made once more without a token, as a visitor's.
 */
import axios, { AxiosError, type AxiosInstance } from 'axios';
import type { components } from '../../../generated/openapi';
import { nextTask } from '../lib/scheduling';

export type ErrorBody = components['schemas']['ErrorResponse'];

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly errors: ErrorBody['errors'] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  onUploadProgress?: (loadedFraction: number) => void;
  /**
   * The caller shows the failure itself (a form under its field, a page's own error state), so the one error toast
   * stays away. The text says why, for the reader of the call; it is not shown.
   */
  quiet?: string;
  /** Milliseconds before the call gives up; 0 waits as long as it takes (large uploads). Default 30 s. */
  timeout?: number;
  /** Headers of the call's own (a visitor's Top 50 upload pass), beside the session's. */
  headers?: Record<string, string>;
  /** 'text': the answer's text as it came, never parsed (a file to save); a failure's JSON body is still read. */
  responseType?: 'text';
  /**
   * The call moves money or credits (the contract marks it `x-idempotent`; its generated function sets this): it
   * carries an `Idempotency-Key`, made fresh for this call unless `idempotencyKey` gives one. The server then does
   * the action once however often the same call reaches it, and answers a repeat with the first answer.
   */
  idempotent?: boolean;
  /** The key of an action sent before, to retry that same action (a "Try again" after a lost connection). */
  idempotencyKey?: string;
}

interface RequestArgs {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

let client: AxiosInstance | undefined;
/**
 * The app's HTTP client, made at its first call rather than when the module loads: making it merges axios's
 * defaults, which on a slow phone was a good part of the task that loads the app's modules before the first paint.
 */
export function httpClient(): AxiosInstance {
  client ??= axios.create({ baseURL: '/api/v2', timeout: 30_000 });
  return client;
}

/** Listeners told about every failed call (the toast layer subscribes here, once). */
const errorListeners = new Set<(error: ApiError) => void>();
export function onApiError(listener: (error: ApiError) => void): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

/** What the auth feature lends the HTTP client. */
export interface AuthBridge {
  /** The current access token, or null when signed out. */
  getToken(): string | null;
  /** Renews the access token with the refresh cookie; the new token, or null when the session is gone. */
  renew(): Promise<string | null>;
  /** The session could not be renewed: sign out quietly. */
  sessionLost(): void;
}

let authBridge: AuthBridge | null = null;
let renewal: Promise<string | null> | null = null;

/** Registers the auth bridge (one at a time); returns the unregister function. */
export function registerAuthBridge(bridge: AuthBridge): () => void {
  authBridge = bridge;
  renewal = null;
  return () => {
    if (authBridge === bridge) authBridge = null;
  };
}

/** One renewal at a time: calls failing together wait on the same one. */
function renewOnce(bridge: AuthBridge): Promise<string | null> {
  renewal ??= bridge
    .renew()
    .catch(() => null)
    .finally(() => {
      renewal = null;
    });
  return renewal;
}

/** A failed call's body: parsed already, or, for a call that asked for text, the JSON text of the error. */
function errorBodyOf(data: unknown): Partial<ErrorBody> | undefined {
  if (typeof data !== 'string') return data as Partial<ErrorBody> | undefined;
  try {
    return JSON.parse(data) as Partial<ErrorBody>;
  } catch {
    return undefined;
  }
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AxiosError) {
    const body = errorBodyOf(error.response?.data);
    const status = error.response?.status ?? 0;
    const message = body?.message ?? (status ? `Request failed (${status})` : 'Network error: the server could not be reached.');
    return new ApiError(message, status, body?.code ?? (status ? 'http_error' : 'network_error'), body?.errors ?? []);
  }
  return new ApiError(error instanceof Error ? error.message : String(error), 0, 'unknown');
}

export function fillPath(template: string, params: Record<string, string | number> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
}

const isUnauthorized = (error: unknown) => error instanceof AxiosError && error.response?.status === 401;

/**
 * A new Idempotency-Key: a random UUID. `crypto.randomUUID` exists only on secure pages (https, localhost), and Knack
 * may be served over plain http on a local network, where the same 122 random bits are drawn by getRandomValues.
 */
export function newIdempotencyKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export async function request<T>(method: string, template: string, args: RequestArgs, options: RequestOptions = {}): Promise<T> {
  // Each call is built in a task of its own: a page's first effects start several calls at once, and building them
  // (headers, the token, the HTTP client's first use) would otherwise add up to one long task on a slow phone.
  await nextTask();
  // One key for the whole call: the sends below after a token renewal are the same action, which the server must
  // not do twice.
  const idempotencyKey = options.idempotencyKey ?? (options.idempotent ? newIdempotencyKey() : undefined);
  const ownHeaders = idempotencyKey ? { ...options.headers, 'Idempotency-Key': idempotencyKey } : options.headers;
  const send = async (token: string | null) => {
    const response = await httpClient().request<T>({
      method,
      url: fillPath(template, args.path),
      params: args.query,
      data: args.body,
      headers: token || ownHeaders ? { ...ownHeaders, ...(token ? { Authorization: `Bearer ${token}` } : {}) } : undefined,
      signal: options.signal,
      ...(options.responseType ? { responseType: options.responseType } : {}),
      ...(options.timeout === undefined ? {} : { timeout: options.timeout }),
      onUploadProgress: options.onUploadProgress ? (event) => options.onUploadProgress!(event.total ? event.loaded / event.total : 0) : undefined,
    });
    return response.data;
  };

  // The session is gone, so the call is made once more as a visitor: a page anyone may see still loads (the server
  // refuses a dead token even where sign-in is optional), and a call that needs a member ends quietly. A 401 means
  // the server did nothing, so repeating the call is safe.
  const asVisitor = async (refused: unknown) => {
    try {
      return await send(null);
    } catch (visitorError) {
      if (isUnauthorized(visitorError)) throw new SessionLost(toApiError(refused));
      throw visitorError;
    }
  };

  const bridge = authBridge;
  const token = bridge?.getToken() ?? null;
  try {
    try {
      return await send(token);
    } catch (error) {
      // The sign-in calls answer 401 for their own reasons (a wrong password): never renew for them.
      if (!bridge || !token || !isUnauthorized(error) || template.startsWith('/auth/')) throw error;
      // Another call may have renewed the token meanwhile; else renew now.
      const current = bridge.getToken();
      const fresh = current && current !== token ? current : await renewOnce(bridge);
      if (!fresh) {
        bridge.sessionLost();
        return await asVisitor(error);
      }
      try {
        return await send(fresh);
      } catch (retryError) {
        if (isUnauthorized(retryError)) {
          bridge.sessionLost();
          return await asVisitor(retryError);
        }
        throw retryError;
      }
    }
  } catch (error) {
    if (error instanceof SessionLost) throw error.apiError;
    const apiError = toApiError(error);
    if (!axios.isCancel(error) && !options.quiet) errorListeners.forEach((listener) => listener(apiError));
    throw apiError;
  }
}

/** A 401 that ended the session: passed to the caller without a toast (the user is signed out quietly). */
class SessionLost extends Error {
  constructor(readonly apiError: ApiError) {
    super(apiError.message);
  }
}
