/**
 * The one HTTP client of the SPA. Generated operation functions call `request`; errors come back
 * as `ApiError` carrying the server's `message` (spec §8: call errors are shown with that message).
 */
import axios, { AxiosError, type AxiosInstance } from 'axios';
import type { components } from './generated/openapi';

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
}

interface RequestArgs {
  path?: Record<string, string | number>;
  query?: Record<string, unknown>;
  body?: unknown;
}

export const http: AxiosInstance = axios.create({ baseURL: '/api/v2', timeout: 30_000 });

/** Listeners told about every failed call (the toast layer subscribes here, once). */
const errorListeners = new Set<(error: ApiError) => void>();
export function onApiError(listener: (error: ApiError) => void): () => void {
  errorListeners.add(listener);
  return () => errorListeners.delete(listener);
}

export function toApiError(error: unknown): ApiError {
  if (error instanceof ApiError) return error;
  if (error instanceof AxiosError) {
    const body = error.response?.data as Partial<ErrorBody> | undefined;
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

export async function request<T>(method: string, template: string, args: RequestArgs, options: RequestOptions = {}): Promise<T> {
  try {
    const response = await http.request<T>({
      method,
      url: fillPath(template, args.path),
      params: args.query,
      data: args.body,
      signal: options.signal,
      onUploadProgress: options.onUploadProgress
        ? (event) => options.onUploadProgress!(event.total ? event.loaded / event.total : 0)
        : undefined,
    });
    return response.data;
  } catch (error) {
    const apiError = toApiError(error);
    if (!axios.isCancel(error)) errorListeners.forEach((listener) => listener(apiError));
    throw apiError;
  }
}
