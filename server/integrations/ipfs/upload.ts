/** What the Pinata and Kubo drivers share: the multipart body of an upload, and errors that keep their credentials out. */
import { openAsBlob } from 'node:fs';
import axios, { type AxiosError, type AxiosInstance } from 'axios';
import { IpfsPinningError } from './ipfs.types';

/** An upload may take a while, but a silent connection this long is a dead one (the timeout counts idle time). */
export const UPLOAD_IDLE_TIMEOUT_MS = 60_000;

/** An answer larger than this is not an answer to an upload. */
const MAX_ANSWER_BYTES = 1024 * 1024;

export function uploadClient(baseURL: string, timeoutMs: number): AxiosInstance {
  // No redirects: a pinning API that moved must be configured anew, not followed with the credentials.
  return axios.create({ baseURL, timeout: timeoutMs, maxBodyLength: Infinity, maxContentLength: MAX_ANSWER_BYTES, maxRedirects: 0 });
}

/** The file as a form part read from disk as the request is sent (a Blob backed by the file, never read whole). */
export async function filePart(path: string, contentType: string): Promise<Blob> {
  return openAsBlob(path, { type: contentType });
}

type ErrorBody = string | { error?: string | { reason?: string; details?: string }; Message?: string; message?: string } | undefined;

/** What the service said, or what went wrong on the way; never the request (its headers hold the credentials). */
function detailOf(err: AxiosError<ErrorBody>): string {
  let body = err.response?.data;
  // An answer read as text (Kubo's) may still be a JSON error.
  if (typeof body === 'string' && body.trim().startsWith('{')) body = parseJson(body) ?? body;
  if (typeof body === 'string' && body.trim()) return body.trim().slice(0, 300);
  if (body && typeof body === 'object') {
    const { error } = body;
    const said = typeof error === 'string' ? error : (error?.details ?? error?.reason ?? body.Message ?? body.message);
    if (said) return said;
  }
  if (err.code === 'ECONNABORTED' || err.code === 'ETIMEDOUT') return `no answer within ${(err.config?.timeout ?? 0) / 1000} s`;
  return err.code ?? 'no answer';
}

function parseJson(text: string): ErrorBody {
  try {
    return JSON.parse(text) as ErrorBody;
  } catch {
    return undefined;
  }
}

/** An IpfsPinningError saying which service failed at what, with its status and words; the `secrets` are blanked if ever echoed. */
export function uploadFailure(service: string, what: string, err: unknown, secrets: string[]): IpfsPinningError {
  if (err instanceof IpfsPinningError) return err;
  if (!axios.isAxiosError(err)) return new IpfsPinningError(`${service} ${what} failed: ${(err as Error).message}`);
  const status = err.response?.status;
  let message = `${service} ${what} failed${status ? ` (${status})` : ''}: ${detailOf(err as AxiosError<ErrorBody>)}`;
  for (const secret of secrets.filter(Boolean)) message = message.split(secret).join('[credentials]');
  return new IpfsPinningError(message, status);
}
