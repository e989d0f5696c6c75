import type { components } from '../../../../generated/openapi';

type Schemas = components['schemas'];

/** A mint as the server answers it: the token, its issuer, and once prepared the pinned file and the transaction. */
export type NftMint = Schemas['NftMint'];
/** The asset's SEP-1 currency fields (the optional second step). */
export type NftToml = Schemas['NftToml'];

/** NFT mode's four steps: 1 details, 2 the optional TOML, 3 the token, 4 sign and save. */
export type NftStep = 1 | 2 | 3 | 4;

/** What the flow is doing: starting the mint, pinning and building the transaction, the wallet signing, publishing. */
export type NftWork = 'start' | 'prepare' | 'sign' | 'submit';

/** The piece's details of the first step, with the paths of its files as the upload flows stored them. */
export interface NftDetails {
  title: string;
  description: string;
  mainTag?: string;
  subTag?: string;
  photoPath?: string;
  audioPath?: string;
}

/** The token of the third step. */
export interface NftToken {
  tokenCode: string;
  /** Units of 0.0000001 of the asset. */
  tokenAmount: number;
}
