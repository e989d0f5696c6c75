/**
 * The signed links to a pending sale in a bidder's inbox (`/approve?token=…`, `/cancel?token=…`): the token names
 * the bid and the bidder, signed with HMAC-SHA-256 under a key of its own (lib/signed-token.ts), so that nobody can
 * make one for a bid that is not theirs. It acts only for the bidder it names (the calls check the caller).
 */
import { readSignedToken, signedToken } from '../../lib/signed-token';

const PURPOSE = 'bid-link';

export const bidLinkToken = (key: string, bidId: string, biderId: string) => signedToken(key, PURPOSE, [bidId, biderId]);

/** The bid and bidder a token names, or null when it was not signed by us. */
export function readBidLinkToken(key: string, token: string): { bidId: string; biderId: string } | null {
  const values = readSignedToken(key, PURPOSE, token, 2, (id) => id.toLowerCase());
  return values ? { bidId: values[0]!, biderId: values[1]! } : null;
}
