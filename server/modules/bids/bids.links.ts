/**
 * The signed links to a pending sale in a bidder's inbox (`/approve?token=…`, `/cancel?token=…`): the token names
 * the bid and the bidder, signed with HMAC-SHA-256 under a key of its own, so that nobody can make one for a bid
 * that is not theirs. It acts only for the bidder it names (the calls check the caller).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

const signatureOf = (key: string, bidId: string, biderId: string) => createHmac('sha256', key).update(`bid-link:${bidId}:${biderId}`).digest('base64url');

export const bidLinkToken = (key: string, bidId: string, biderId: string) => `${bidId}.${biderId}.${signatureOf(key, bidId, biderId)}`;

/** The bid and bidder a token names, or null when it was not signed by us. */
export function readBidLinkToken(key: string, token: string): { bidId: string; biderId: string } | null {
  const [bidId, biderId, signature, ...rest] = token.split('.');
  if (!bidId || !biderId || !signature || rest.length) return null;
  const expected = Buffer.from(signatureOf(key, bidId.toLowerCase(), biderId.toLowerCase()));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return { bidId: bidId.toLowerCase(), biderId: biderId.toLowerCase() };
}
