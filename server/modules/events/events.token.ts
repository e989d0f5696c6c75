/**
 * Events tokens: what a page's beacon carries in place of the Authorization header, which `navigator.sendBeacon`
 * cannot send. A short-lived HS256 token naming the member, signed with a key of its own (so an access token is
 * never one, nor one an access token) and for an audience of its own. It can do one thing: say whose events a
 * batch holds, for an hour.
 */
import { createSecretKey, type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { Types } from 'mongoose';

const ALGORITHM = 'HS256';
const AUDIENCE = 'knack-events';
export const EVENTS_TOKEN_TTL_SECONDS = 3600;

export interface EventsTokenKey {
  /** The HS256 key (config.auth.keys.eventsTokens). */
  secret: string;
  issuer: string;
}

const keys = new Map<string, KeyObject>();
const keyOf = (secret: string) => keys.get(secret) ?? keys.set(secret, createSecretKey(Buffer.from(secret))).get(secret)!;

export function signEventsToken({ secret, issuer }: EventsTokenKey, memberId: string): string {
  return jwt.sign({}, keyOf(secret), { algorithm: ALGORITHM, issuer, audience: AUDIENCE, subject: memberId, expiresIn: EVENTS_TOKEN_TTL_SECONDS });
}

/** The member the token names, or null when it is not one of ours, was changed, or has expired. */
export function memberOfEventsToken({ secret, issuer }: EventsTokenKey, token: string): string | null {
  try {
    const payload = jwt.verify(token, keyOf(secret), { algorithms: [ALGORITHM], issuer, audience: AUDIENCE });
    return typeof payload !== 'string' && payload.sub && Types.ObjectId.isValid(payload.sub) ? payload.sub : null;
  } catch {
    return null;
  }
}
