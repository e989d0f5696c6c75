/**
 * NFT mode's flows, loaded with the page: the token step starts the mint (the server checks the wallet's account and
 * chooses the issuer), moving to step 4 prepares it (the file pinned to IPFS, the transaction built and signed by the
 * issuer), and "Sign and save" has the member's wallet sign it, then submits it with the piece's details. Each call's
 * refusal is shown on its step; a form started again meanwhile drops what was in flight.
 */
import type { PayloadAction } from '@reduxjs/toolkit';
import type { SagaIterator } from 'redux-saga';
import { call, put, race, select, take, takeLeading } from 'redux-saga/effects';
import {
  prepareNftMint,
  startNftMint,
  submitNftMint,
  type PrepareNftMintResult,
  type StartNftMintResult,
  type SubmitNftMintResult,
} from '../../api/generated/operations';
import { knackApi } from '../../api/generated/endpoints';
import { toApiError } from '../../api/http';
import { notify } from '../../components/notify';
import { detailOpened } from '../../lib/contentEvents';
import { isExpired, NFT_MESSAGES } from './nft.rules';
import { selectNft } from './nft.selectors';
import {
  nftFailed,
  nftFormOpened,
  nftMintPrepared,
  nftMintStarted,
  nftPrepareRequested,
  nftPublished,
  nftSignRequested,
  nftSubmitting,
  nftTokenEntered,
  type NftState,
} from './nft.slice';
import type { NftDetails, NftToken, NftToml } from './nft.types';

const QUIET = 'the NFT page shows the refusal on its step';

/**
 * The wallet's code, loaded when the member signs. Imported here statically, the bundler's shared-code grouping (this
 * file is in it) drew the wallet list and modal of the Stellar feature, and the antd they draw with, onto the landing page.
 */
const loadWallet = () => import('../stellar');
/** When the wallet failed in a way it did not put in words (its code did not load). */
const WALLET_FAILED = 'Your wallet could not sign the transaction. Please try again.';

/** The piece's files as the server takes them: the song only with Music (one chosen before another tag stays out). */
function filesOf(details: NftDetails | null) {
  return {
    photoPath: details?.photoPath,
    audioPath: details?.mainTag === 'Music' ? details.audioPath : undefined,
  };
}

/** The TOML fields given (blank ones left out); undefined when none is. */
function tomlOf(toml: NftToml | null): NftToml | undefined {
  if (!toml) return undefined;
  const given = Object.fromEntries(
    Object.entries(toml)
      .map(([key, value]) => [key, typeof value === 'string' ? value.trim() : value])
      .filter(([, value]) => Boolean(value)),
  ) as NftToml;
  return Object.keys(given).length ? given : undefined;
}

/** A saga that stops when the form starts again (the page opened anew, or the save mode switched). */
function untilReset<A>(saga: (action: A) => SagaIterator) {
  return function* (action: A): SagaIterator {
    yield race({ done: call(saga, action), reset: take(nftFormOpened.type) });
  };
}

export function* startMint(action: PayloadAction<NftToken>): SagaIterator {
  const nft: NftState = yield select(selectNft);
  try {
    // The mint started for this same token is kept: going back a step and on again starts no second issuer.
    if (!nft.mint) {
      const mint: StartNftMintResult = yield call(startNftMint, { body: action.payload }, { quiet: QUIET });
      yield put(nftMintStarted(mint));
    }
    yield put(nftPrepareRequested());
  } catch (error) {
    const { message } = toApiError(error);
    yield put(nftFailed({ step: 3, message, remedy: message === NFT_MESSAGES.linkWalletFirst ? 'link-wallet' : undefined }));
  }
}

export function* prepareMint(): SagaIterator {
  const nft: NftState = yield select(selectNft);
  if (!nft.mint) return;
  try {
    const prepared: PrepareNftMintResult = yield call(
      prepareNftMint,
      { path: { id: nft.mint.id }, body: { ...filesOf(nft.details), toml: tomlOf(nft.toml) } },
      { quiet: QUIET },
    );
    yield put(nftMintPrepared(prepared));
  } catch (error) {
    yield put(nftFailed({ step: 4, message: toApiError(error).message }));
  }
}

export function* signAndSave(): SagaIterator {
  const { mint, details }: NftState = yield select(selectNft);
  if (!mint?.transaction || !mint.networkPassphrase || !details) return;
  if (isExpired(mint.expiresAt, Date.now())) {
    yield put(nftFailed({ step: 4, message: NFT_MESSAGES.expired, remedy: 'prepare-again' }));
    return;
  }
  let signed: string;
  let wallet: Awaited<ReturnType<typeof loadWallet>> | undefined;
  try {
    wallet = yield call(loadWallet);
    signed = yield call(wallet!.signWithFreighter, mint.transaction, mint.networkPassphrase, mint.ownerAddress);
  } catch (error) {
    // The wallet's own failure is logged by the wallet code ('Freighter error'); the member reads a plain sentence.
    const plain = wallet && error instanceof wallet.WalletError;
    if (!plain) console.error('Freighter error', error);
    yield put(nftFailed({ step: 4, message: plain ? error.message : WALLET_FAILED }));
    return;
  }
  yield put(nftSubmitting());
  try {
    const mainTag = details.mainTag ?? '';
    const result: SubmitNftMintResult = yield call(
      submitNftMint,
      {
        path: { id: mint.id },
        body: {
          transaction: signed,
          title: details.title.trim(),
          description: details.description.trim(),
          tags: mainTag ? [{ name: mainTag }] : [],
          subTag: details.subTag ?? '',
          ...filesOf(details),
        },
      },
      { quiet: QUIET },
    );
    yield put(nftPublished(result.content));
    // The lists the new piece belongs in and its owner's count of pieces load again.
    yield put(knackApi.util.invalidateTags(['Content', 'User', 'NFT']));
    yield call(notify, 'success', result.message || NFT_MESSAGES.published);
    yield put(detailOpened({ content: result.content }));
  } catch (error) {
    const { message } = toApiError(error);
    yield put(nftFailed({ step: 4, message, remedy: /expired/i.test(message) ? 'prepare-again' : undefined }));
  }
}

export function* nftFlows(): SagaIterator {
  yield takeLeading(nftTokenEntered.type, untilReset(startMint));
  yield takeLeading(nftPrepareRequested.type, untilReset(prepareMint));
  yield takeLeading(nftSignRequested.type, untilReset(signAndSave));
}
