/**
 * Each token's issuer account, derived rather than generated: its ed25519 seed is HMAC-SHA256 of the mint's id under
 * a key derived from JWT_SECRET (config.auth.keys.nftIssuers). Every process derives the same issuer for a mint, so
 * its secret key never has to be stored or sent anywhere: the server derives it for the moment it signs. Once the
 * mint's transaction is in a ledger the issuer's master weight is 0, and the key can sign nothing any more.
 */
import { createHmac } from 'node:crypto';
import type { Keypair } from '@stellar/stellar-sdk';
import { loadStellarSdk } from '../../integrations/horizon';

/** The 32-byte seed of the mint's issuer. */
export function issuerSeedOf(issuersKey: string, mintId: string): Buffer {
  return createHmac('sha256', Buffer.from(issuersKey, 'base64url')).update(`nft-issuer:${mintId}`).digest();
}

export async function issuerKeypairOf(issuersKey: string, mintId: string): Promise<Keypair> {
  const { Keypair } = await loadStellarSdk();
  return Keypair.fromRawEd25519Seed(issuerSeedOf(issuersKey, mintId));
}
