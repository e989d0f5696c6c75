import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { Content } from '../../lib/content';
import type { NftDetails, NftMint, NftStep, NftToken, NftToml, NftWork } from './nft.types';

/** A refusal shown on the step it happened at. */
export interface NftProblem {
  step: NftStep;
  message: string;
  /** What the member can do about it: link a wallet, or prepare an expired transaction again. */
  remedy?: 'link-wallet' | 'prepare-again';
}

/**
 * NFT mode on /nft: the step, what was entered at each step, the mint the server started (its issuer) and prepared
 * (its pinned file and transaction), what is in flight, the last refusal, and the piece once published. The files
 * are the upload feature's (its file slots and transfers). `session` changes each time the form starts, so it
 * starts empty.
 */
export interface NftState {
  session: number;
  step: NftStep;
  details: NftDetails | null;
  /** The TOML step's fields; null when skipped. */
  toml: NftToml | null;
  token: NftToken | null;
  mint: NftMint | null;
  working: NftWork | null;
  problem: NftProblem | null;
  published: Content | null;
}

export const initialNftState: NftState = {
  session: 0,
  step: 1,
  details: null,
  toml: null,
  token: null,
  mint: null,
  working: null,
  problem: null,
  published: null,
};

/** Whether the mint started can be kept for this token (same code and amount): else a new one is started. */
const sameToken = (mint: NftMint | null, token: NftToken) => Boolean(mint && mint.tokenCode === token.tokenCode && mint.tokenAmount === token.tokenAmount);

const nftSlice = createSlice({
  name: 'nft',
  initialState: initialNftState,
  reducers: {
    /** The page opened, or the save mode switched: a fresh form at step 1. */
    nftFormOpened(state) {
      return { ...initialNftState, session: state.session + 1 };
    },
    /** Back one step (the steps keep what was entered). */
    nftStepBack(state) {
      if (state.working) return;
      state.problem = null;
      if (state.step > 1) state.step = (state.step - 1) as NftStep;
    },
    nftDetailsEntered(state, action: PayloadAction<NftDetails>) {
      state.details = action.payload;
      state.problem = null;
      state.step = 2;
    },
    /** The TOML step: its fields, or null when skipped. */
    nftTomlEntered(state, action: PayloadAction<NftToml | null>) {
      state.toml = action.payload;
      state.problem = null;
      state.step = 3;
    },
    /** The token step's Next: the flow starts the mint (unless the one started has the same token). */
    nftTokenEntered(state, action: PayloadAction<NftToken>) {
      state.token = action.payload;
      state.problem = null;
      if (!sameToken(state.mint, action.payload)) state.mint = null;
      state.working = 'start';
    },
    nftMintStarted(state, action: PayloadAction<NftMint>) {
      state.mint = action.payload;
    },
    /** Moving to step 4: the flow pins the file and builds the transaction. */
    nftPrepareRequested(state) {
      state.step = 4;
      state.problem = null;
      state.working = 'prepare';
    },
    nftMintPrepared(state, action: PayloadAction<NftMint>) {
      state.mint = action.payload;
      state.working = null;
    },
    /** "Sign and save": the wallet signs, then the piece is published. */
    nftSignRequested(state) {
      state.problem = null;
      state.working = 'sign';
    },
    nftSubmitting(state) {
      state.working = 'submit';
    },
    nftPublished(state, action: PayloadAction<Content>) {
      state.published = action.payload;
      state.working = null;
    },
    nftFailed(state, action: PayloadAction<NftProblem>) {
      state.problem = action.payload;
      state.working = null;
    },
  },
});

export const {
  nftFormOpened,
  nftStepBack,
  nftDetailsEntered,
  nftTomlEntered,
  nftTokenEntered,
  nftMintStarted,
  nftPrepareRequested,
  nftMintPrepared,
  nftSignRequested,
  nftSubmitting,
  nftPublished,
  nftFailed,
} = nftSlice.actions;
export const nftReducer = nftSlice.reducer;
