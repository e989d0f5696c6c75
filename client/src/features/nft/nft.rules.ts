/**
 * NFT mode's rules and messages. The token's messages are the server's (nft/mints answers the same ones); the
 * client checks first so the member sees them under the field without a round trip.
 */

export const NFT_MESSAGES = {
  tokenCodeRequired: 'Token Code should not be empty',
  tokenCodeFormat: 'Token Code must be 1 to 12 letters A–Z and digits 0–9.',
  tokenAmountRange: 'The amount is a whole number of units from 1 to 1,000,000,000.',
  tomlImageUrl: 'The image must be an https:// address.',
  /** The server's answer when the member has no linked wallet: the page offers a way to link one. */
  linkWalletFirst: 'Link a Stellar wallet first.',
  expired: 'This transaction has expired. Prepare it again, then sign it.',
  published: 'Your piece is published as an NFT.',
} as const;

export const TOKEN_CODE_PATTERN = /^[A-Z0-9]{1,12}$/;
export const TOKEN_CODE_MAX = 12;
export const TOKEN_AMOUNT_MAX = 1_000_000_000;
/** The supply when none is given: one unit. */
export const DEFAULT_TOKEN_AMOUNT = 1;
/** Stellar amounts have seven decimals: one unit of the supply is 0.0000001 of the asset. */
const UNIT_DECIMALS = 7;
/** The SEP-1 `name` field's limit. */
export const TOML_NAME_MAX = 20;
export const TOML_DESCRIPTION_MAX = 500;
/** What the member's wallet sends the new issuer account (it pays the network fees too). */
export const ISSUER_STARTING_XLM = 2;
/** The balance the account check asks of the member's wallet before a mint. */
export const MINIMUM_BALANCE_XLM = 3;

/** The supply as an amount of the asset: 1 unit → '0.0000001', 12 345 678 units → '1.2345678'. */
export function unitsToAmount(units: number): string {
  if (!Number.isSafeInteger(units) || units < 0) return '';
  const text = String(units).padStart(UNIT_DECIMALS + 1, '0');
  const whole = text.slice(0, -UNIT_DECIMALS);
  const fraction = text.slice(-UNIT_DECIMALS).replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : whole;
}

/** An optional image URL of the TOML step: empty, or https. */
export function isHttpsUrl(value: string | undefined): boolean {
  if (!value || !value.trim()) return true;
  try {
    return new URL(value.trim()).protocol === 'https:';
  } catch {
    return false;
  }
}

/** Whether a prepared transaction's time is up (its upper time bound), at `now`. */
export const isExpired = (expiresAt: string | undefined, now: number) => Boolean(expiresAt) && Date.parse(expiresAt!) <= now;
