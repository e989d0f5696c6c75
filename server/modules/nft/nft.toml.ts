/**
 * Knack's stellar.toml (SEP-1), served at /.well-known/stellar.toml, which wallets and explorers read to describe the
 * tokens our issuers made: the network, the key that signs our wallet challenges, the accounts Knack controls (the
 * one that anchors the ledger's daily roots), and one [[CURRENCIES]] entry per
 * published NFT whose piece is public (code, issuer, fixed supply, 7 decimals, name, description, image and the
 * file's IPFS link). It reads at most the latest TOML_MINTS published mints, and the text is kept for a minute.
 */
import { Router } from 'express';
import { stringify } from 'smol-toml';
import { anyOf } from '../../lib/query';
import { createTtlCache } from '../../lib/ttl-cache';
import { canSee, contentReads, type ContentDoc } from '../contents';
import { NftMintModel, type NftMintDoc } from './nft.model';

/** The most published mints listed: the latest ones. */
export const TOML_MINTS = 1000;
/** How long the text is answered again before it is made anew. */
export const TOML_TTL_MS = 60_000;
/** SEP-1 caps a currency's name at 20 characters. */
const NAME_CHARACTERS = 20;

export interface StellarTomlDeps {
  networkPassphrase: string;
  /** The public key of the account that signs our wallet challenges (SEP-10), as SIGNING_KEY. */
  signingKey: () => Promise<string>;
  /** The accounts Knack controls besides, as ACCOUNTS: the one that anchors the ledger's daily roots, when set. */
  accounts: () => Promise<string[]>;
  publicUrl: string;
}

type Piece = Pick<ContentDoc, '_id' | 'title' | 'description' | 'ownerId' | 'setting' | 'takenDown'>;

function currencyOf(mint: NftMintDoc, piece: Piece) {
  const description = mint.toml?.description ?? piece.description;
  return {
    code: mint.tokenCode,
    issuer: mint.tokenIssuer,
    is_asset_anchored: false,
    fixed_number: mint.tokenAmount,
    display_decimals: 7,
    name: [...(mint.toml?.name ?? piece.title)].slice(0, NAME_CHARACTERS).join(''),
    desc: `${description}\n\nFile on IPFS: ipfs://${mint.ipfsHash} (${mint.ipfsUrl})`,
    image: mint.toml?.image ?? mint.imageIpfsUrl ?? mint.ipfsUrl,
  };
}

/** The stellar.toml text, from the latest published mints whose pieces anyone may see. */
export async function stellarTomlText({ networkPassphrase, signingKey, accounts, publicUrl }: StellarTomlDeps): Promise<string> {
  const mints = await NftMintModel.find({ status: 'published' }).sort({ _id: -1 }).limit(TOML_MINTS).lean<NftMintDoc[]>();
  const pieces = mints.length
    ? await contentReads.many<Piece>(
        { _id: anyOf(mints.map((mint) => mint._id)) },
        { projection: { title: 1, description: 1, ownerId: 1, setting: 1, takenDown: 1 } },
      )
    : [];
  const byId = new Map(pieces.map((piece) => [String(piece._id), piece]));
  const currencies = mints.flatMap((mint) => {
    const piece = byId.get(mint._id);
    return piece && canSee(piece, undefined) && mint.ipfsHash ? [currencyOf(mint, piece)] : [];
  });
  const controlled = await accounts();
  const document = {
    NETWORK_PASSPHRASE: networkPassphrase,
    SIGNING_KEY: await signingKey(),
    ...(controlled.length && { ACCOUNTS: controlled }),
    DOCUMENTATION: { ORG_NAME: 'Knack', ORG_URL: publicUrl },
    ...(currencies.length && { CURRENCIES: currencies }),
  };
  return `# Knack's Stellar tokens (SEP-1). Made from the latest ${TOML_MINTS} published NFTs; kept for a minute.\n${stringify(document)}\n`;
}

/** GET /.well-known/stellar.toml, to anyone, from any origin (SEP-1 asks for CORS). */
export function stellarTomlRouter(deps: StellarTomlDeps): Router {
  const router = Router();
  const cache = createTtlCache<string>(TOML_TTL_MS, { maxEntries: 1 });
  router.get('/.well-known/stellar.toml', async (_req, res) => {
    const text = await cache.get('toml', () => stellarTomlText(deps));
    res.set({ 'Access-Control-Allow-Origin': '*', 'Cache-Control': 'public, max-age=60' }).type('text/plain; charset=utf-8').send(text);
  });
  return router;
}
