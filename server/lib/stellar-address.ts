/**
 * Whether a text is a Stellar account address (a "G…" public key in Stellar's StrKey form): 56 base32 characters
 * holding the version byte of an ed25519 public key, the 32-byte key and a CRC16-XModem checksum, so a mistyped
 * character is caught before anything is asked of the network.
 *
 * The Stellar SDK says the same (`StrKey.isValidEd25519PublicKey`, which tests/unit/stellar-address.test.ts checks
 * this against), but loading the SDK costs a process about 0.4 s of CPU: the configuration, read at every start,
 * and a request that only checks an address do not load it.
 */
/** What a member is told when a text they gave for a Stellar address is not one (the wallet link, the account check). */
export const NOT_A_STELLAR_ADDRESS = 'This is not a Stellar address. A Stellar address starts with G and has 56 letters and digits.';

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
const ACCOUNT_ID_VERSION = 6 << 3; // "G"
const ACCOUNT_ID = /^G[A-Z2-7]{55}$/;
const SECRET_SEED_VERSION = 18 << 3; // "S"
const SECRET_SEED = /^S[A-Z2-7]{55}$/;

function base32Bytes(text: string): Uint8Array {
  const bytes = new Uint8Array(Math.floor((text.length * 5) / 8));
  let buffer = 0;
  let bits = 0;
  let index = 0;
  for (const char of text) {
    buffer = (buffer << 5) | BASE32.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes[index++] = (buffer >> bits) & 0xff;
    }
  }
  return bytes;
}

function crc16XModem(bytes: Uint8Array): number {
  let crc = 0;
  for (const byte of bytes) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

/** Whether a 56-character StrKey carries this version byte, 32 bytes and a matching checksum. */
function isStrKey(text: string, version: number): boolean {
  // 56 characters are exactly 35 bytes: the version byte, the key, and the checksum (little-endian).
  const bytes = base32Bytes(text);
  if (bytes[0] !== version) return false;
  const checksum = bytes[33]! | (bytes[34]! << 8);
  return crc16XModem(bytes.subarray(0, 33)) === checksum;
}

export function isStellarAccountId(text: string): boolean {
  return ACCOUNT_ID.test(text) && isStrKey(text, ACCOUNT_ID_VERSION);
}

/** Whether a text is an account's secret seed ("S…", 56 characters, valid checksum), as the configuration takes one. */
export function isStellarSecretSeed(text: string): boolean {
  return SECRET_SEED.test(text) && isStrKey(text, SECRET_SEED_VERSION);
}
