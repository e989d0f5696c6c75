/**
 * A stand-in for the Freighter browser extension, for Chromium (Playwright) and jsdom: it answers the window messages
 * `@stellar/freighter-api` sends, as Freighter's content script and background do, and signs with a test keypair.
 *
 * The protocol (read from freighter-api 6.0.1's build): the library posts `{ source: 'FREIGHTER_EXTERNAL_MSG_REQUEST',
 * messageId, type, ...fields }` to its own window and waits for a message from the same window `{ source:
 * 'FREIGHTER_EXTERNAL_MSG_RESPONSE', messagedId: <the messageId>, ...answer }` (the extension spells it `messagedId`).
 * A call answers `apiError` ({ code, message }) when it failed; the member declining is code -4. Only
 * `REQUEST_CONNECTION_STATUS` and `REQUEST_PUBLIC_KEY` give up by themselves (after two seconds, as "not
 * installed"); the others wait for ever, as with the real extension when the member leaves its window open.
 *
 * The page side is a small script (`freighterStandInScript`) that forwards each request to a function the test
 * exposes; the wallet itself (`createFreighterWallet`) runs in Node with the Stellar SDK, so the secret key never
 * enters the page. It answers:
 * - REQUEST_CONNECTION_STATUS: `{ isConnected: true }` (the content script answers it itself);
 * - REQUEST_ACCESS and SET_ALLOWED_STATUS: the address, once the member allows the site (or declined);
 * - REQUEST_PUBLIC_KEY, REQUEST_ALLOWED_STATUS: the address once allowed (else ''), whether allowed;
 * - REQUEST_NETWORK_DETAILS and REQUEST_NETWORK: the wallet's network;
 * - SUBMIT_TRANSACTION `{ transactionXdr, networkPassphrase?, accountToSign? }`: the transaction signed with the
 *   keypair for the wallet's network, `{ signedTransaction, signerAddress }`. As in Freighter, where a transaction
 *   for another network or another account can only be rejected, those are declined; so is any call while the
 *   member declines, and signing before the site was allowed.
 * Anything else (messages, auth entries, tokens) answers Freighter's internal error and is kept in `unsupported`.
 */
import { Keypair, Networks, TransactionBuilder } from '@stellar/stellar-sdk';
import type { BrowserContext, Page } from 'playwright-core';

export const FREIGHTER_DECLINED = { code: -4, message: 'The user rejected this request.' } as const;
export const FREIGHTER_INTERNAL_ERROR = {
  code: -1,
  message: 'The wallet encountered an internal error. Please try again or contact the wallet if the problem persists.',
} as const;

/** The name of the function the page script calls (exposed on the page's window). */
export const FREIGHTER_STANDIN_BINDING = '__knackFreighterStandIn';

/** A request as freighter-api posts it. */
export interface FreighterRequest {
  type: string;
  [field: string]: unknown;
}

export interface FreighterWalletOptions {
  /** The test keypair's secret (S…). */
  secret: string;
  /** The network the wallet is set to (Testnet by default). */
  networkPassphrase?: string;
  /** Whether the site is already allowed (the member connected it before). */
  allowed?: boolean;
}

export interface FreighterWallet {
  address: string;
  networkPassphrase: string;
  /** What the member does when Freighter asks: allow and sign (the default), or decline. */
  respond(choice: 'approve' | 'decline'): void;
  /** Every request the page sent, in order. */
  requests: FreighterRequest[];
  /** The transactions the wallet signed (base64 XDR), in order. */
  signed: string[];
  /** Requests of a kind the stand-in does not answer. */
  unsupported: FreighterRequest[];
  /** Answers one request (what the page script forwards). */
  answer(request: FreighterRequest): Record<string, unknown>;
}

const NETWORK_NAMES: Record<string, { network: string; networkName: string; networkUrl: string }> = {
  [Networks.TESTNET]: { network: 'TESTNET', networkName: 'Test Net', networkUrl: 'https://horizon-testnet.stellar.org' },
  [Networks.PUBLIC]: { network: 'PUBLIC', networkName: 'Main Net', networkUrl: 'https://horizon.stellar.org' },
  [Networks.FUTURENET]: { network: 'FUTURENET', networkName: 'Future Net', networkUrl: 'https://horizon-futurenet.stellar.org' },
};

/** The wallet: the keypair, the member's choices, and the answers to each request. */
export function createFreighterWallet({
  secret,
  networkPassphrase = Networks.TESTNET,
  allowed: allowedAtStart = false,
}: FreighterWalletOptions): FreighterWallet {
  const keypair = Keypair.fromSecret(secret);
  const address = keypair.publicKey();
  let allowed = allowedAtStart;
  let choice: 'approve' | 'decline' = 'approve';
  const network = NETWORK_NAMES[networkPassphrase] ?? { network: 'CUSTOM', networkName: 'Custom', networkUrl: 'http://localhost:8000' };

  const wallet: FreighterWallet = {
    address,
    networkPassphrase,
    requests: [],
    signed: [],
    unsupported: [],
    respond(next) {
      choice = next;
    },
    answer(request) {
      wallet.requests.push(request);
      switch (request.type) {
        case 'REQUEST_CONNECTION_STATUS':
          return { isConnected: true };
        case 'REQUEST_ACCESS':
        case 'SET_ALLOWED_STATUS':
          if (choice === 'decline') return { apiError: FREIGHTER_DECLINED };
          allowed = true;
          return request.type === 'REQUEST_ACCESS' ? { publicKey: address } : { isAllowed: true };
        case 'REQUEST_PUBLIC_KEY':
          return { publicKey: allowed ? address : '' };
        case 'REQUEST_ALLOWED_STATUS':
          return { isAllowed: allowed };
        case 'REQUEST_NETWORK_DETAILS':
          return { networkDetails: { ...network, networkPassphrase, sorobanRpcUrl: undefined } };
        case 'REQUEST_NETWORK':
          return { network: network.network, networkPassphrase };
        case 'SUBMIT_TRANSACTION': {
          const asked = request as FreighterRequest & { transactionXdr: string; networkPassphrase?: string; accountToSign?: string };
          if (choice === 'decline' || !allowed) return { apiError: FREIGHTER_DECLINED };
          if (asked.networkPassphrase && asked.networkPassphrase !== networkPassphrase) return { apiError: FREIGHTER_DECLINED };
          if (asked.accountToSign && asked.accountToSign !== address) return { apiError: FREIGHTER_DECLINED };
          const transaction = TransactionBuilder.fromXDR(asked.transactionXdr, networkPassphrase);
          transaction.sign(keypair);
          const signedTransaction = transaction.toXDR();
          wallet.signed.push(signedTransaction);
          return { signedTransaction, signerAddress: address };
        }
        default:
          wallet.unsupported.push(request);
          return { apiError: FREIGHTER_INTERNAL_ERROR };
      }
    },
  };
  return wallet;
}

/**
 * The page side: listens to the window's messages as Freighter's content script does, hands each request to
 * `window[binding]` (which may answer a promise), and posts the answer back to the page's own origin. Without that
 * function the page has no Freighter: nothing answers.
 */
export function freighterStandInScript(binding = FREIGHTER_STANDIN_BINDING): string {
  return `(() => {
  const REQUEST = 'FREIGHTER_EXTERNAL_MSG_REQUEST';
  const RESPONSE = 'FREIGHTER_EXTERNAL_MSG_RESPONSE';
  window.addEventListener('message', async (event) => {
    if (event.source !== window) return;
    const data = event.data;
    if (!data || data.source !== REQUEST || typeof data.type !== 'string') return;
    const wallet = window[${JSON.stringify(binding)}];
    if (typeof wallet !== 'function') return;
    const { source, messageId, ...request } = data;
    const answer = await wallet(request);
    window.postMessage({ ...answer, source: RESPONSE, messagedId: messageId || 0 }, window.location.origin);
  }, false);
})();`;
}

/**
 * Installs Freighter on a Playwright page or context, before its next navigation: every page opened there has the
 * extension, with this one wallet.
 */
export async function installFreighterStandIn(target: Page | BrowserContext, options: FreighterWalletOptions): Promise<FreighterWallet> {
  const wallet = createFreighterWallet(options);
  await target.exposeFunction(FREIGHTER_STANDIN_BINDING, (request: FreighterRequest) => wallet.answer(request));
  await target.addInitScript({ content: freighterStandInScript() });
  return wallet;
}
