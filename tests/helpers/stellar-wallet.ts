/** A member's Stellar wallet linked through the real flow: a SEP-10 challenge asked, signed by the wallet's key, sent back. */
import { Keypair, Networks, Transaction } from '@stellar/stellar-sdk';
import request from 'supertest';

/** Asks `app` for a challenge for `wallet`'s address as the member with `headers`, signs it with the wallet and links it. */
export async function linkWallet(
  app: Parameters<typeof request>[0],
  headers: Record<string, string>,
  wallet: Keypair = Keypair.random(),
  passphrase: string = Networks.TESTNET,
): Promise<Keypair> {
  const asked = await request(app).post('/api/v2/stellar/wallet/challenge').set(headers).send({ address: wallet.publicKey(), wallet: 'freighter' });
  if (asked.status !== 200) throw new Error(`challenge refused (${asked.status}): ${asked.text}`);
  const challenge = new Transaction(asked.body.transaction, passphrase);
  challenge.sign(wallet);
  const linked = await request(app).post('/api/v2/stellar/wallet/link').set(headers).send({ transaction: challenge.toXDR() });
  if (linked.status !== 200) throw new Error(`link refused (${linked.status}): ${linked.text}`);
  return wallet;
}
