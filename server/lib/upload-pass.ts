/**
 * A visitor's pass for one Top 50 upload: the upload session it names (the owner of the files sent with it, until
 * a piece is saved from them), the artist whose chart it is for, and when it ends, signed with the server's key.
 * The server keeps nothing: any process checks a pass with the key alone. A visitor cannot make one up, move it to
 * another artist, or use it on any call but the Top 50's three.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { Types } from 'mongoose';
import { AppError } from './errors';

/** How long a pass works: time to fill the form and send a large song on a slow line. */
export const UPLOAD_PASS_TTL_MS = 2 * 60 * 60_000;

/** The header a visitor sends the pass in. */
export const UPLOAD_PASS_HEADER = 'x-upload-pass';

export interface UploadPass {
  /** The upload session: the owner id of the files uploaded with the pass. */
  sessionId: string;
  artistId: string;
  expiresAt: Date;
}

const sign = (key: string, body: string) => createHmac('sha256', key).update(`upload-pass\n${body}`).digest('base64url');

export function issueUploadPass(key: string, artistId: string, now = Date.now()): { pass: string; expiresAt: Date } {
  const expiresAt = new Date(now + UPLOAD_PASS_TTL_MS);
  const body = `${new Types.ObjectId().toHexString()}.${artistId}.${expiresAt.getTime()}`;
  return { pass: `${body}.${sign(key, body)}`, expiresAt };
}

/** The pass, if it is one this server signed and it has not ended; else null. */
export function readUploadPass(key: string, pass: unknown, now = Date.now()): UploadPass | null {
  if (typeof pass !== 'string' || pass.length > 300) return null;
  const match = /^([0-9a-f]{24})\.([0-9a-f]{24})\.(\d{1,15})\.([A-Za-z0-9_-]+)$/.exec(pass);
  if (!match) return null;
  const [, sessionId, artistId, expires, signature] = match as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(key, `${sessionId}.${artistId}.${expires}`));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  if (Number(expires) <= now) return null;
  return { sessionId, artistId, expiresAt: new Date(Number(expires)) };
}

/** The pass the request carries, checked; 401 when it has none or one that is not valid (ended, or made up). */
export function requireUploadPass(key: string, header: string | string[] | undefined): UploadPass {
  const pass = readUploadPass(key, Array.isArray(header) ? header[0] : header);
  if (!pass) throw new AppError(401, 'unauthorized', UPLOAD_PASS_MESSAGES.passNeeded);
  return pass;
}

export const UPLOAD_PASS_MESSAGES = {
  passNeeded: 'Please log in, or open the upload form again.',
} as const;
