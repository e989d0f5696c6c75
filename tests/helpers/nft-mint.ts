/**
 * A piece minted as an NFT through the real calls, as the four steps on /nft make them: the mint started with its
 * token code, the photo uploaded, the mint prepared (the file pinned, the transaction built and signed by the issuer),
 * the transaction signed by the member's wallet (here in Node, with its key) and submitted with the piece's details.
 */
import { Keypair, Networks, Transaction } from '@stellar/stellar-sdk';
import request from 'supertest';

export interface NftPieceDetails {
  title: string;
  description: string;
  tags: { name: string }[];
  subTag: string;
}

export interface MintedPiece {
  id: string;
  title: string;
  link: string;
  nft: { tokenCode: string; tokenIssuer: string; asset: string; tokenAmount: number; transactionHash: string };
}

/** Mints `photo` (a PNG) for the member with `headers`, whose linked wallet is `wallet`, and answers the published piece. */
export async function mintNftPiece(
  app: Parameters<typeof request>[0],
  headers: Record<string, string>,
  wallet: Keypair,
  { tokenCode, photo, details, passphrase = Networks.TESTNET }: { tokenCode: string; photo: Buffer; details: NftPieceDetails; passphrase?: string },
): Promise<MintedPiece> {
  const fail = (step: string, res: request.Response) => new Error(`${step} refused (${res.status}): ${res.text}`);
  const started = await request(app).post('/api/v2/nft/mints').set(headers).send({ tokenCode });
  if (started.status !== 201) throw fail('starting the mint', started);
  const uploaded = await request(app).post('/api/v2/content/upload-photo').set(headers).attach('file', photo, 'photo.png');
  if (uploaded.status !== 201) throw fail('the photo upload', uploaded);
  const photoPath = uploaded.body.path as string;
  const prepared = await request(app).post(`/api/v2/nft/mints/${started.body.id}/prepare`).set(headers).send({ photoPath });
  if (prepared.status !== 200) throw fail('preparing the mint', prepared);
  const transaction = new Transaction(prepared.body.transaction, passphrase);
  transaction.sign(wallet);
  const submitted = await request(app)
    .post(`/api/v2/nft/mints/${started.body.id}/submit`)
    .set(headers)
    .send({ ...details, photoPath, transaction: transaction.toXDR() });
  if (submitted.status !== 201) throw fail('submitting the mint', submitted);
  return submitted.body.content as MintedPiece;
}
