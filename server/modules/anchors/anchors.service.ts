/**
 * The ledger's daily roots, their anchors on Stellar, and the proofs of single entries.
 *
 * Each closed UTC day gets one root document (`ledger_roots`, `_id` the day), inserted once: the Merkle root
 * (lib/merkle.ts) of the day's entries in their canonical encoding (ledger/ledger.canonical.ts), in `_id` order.
 * With an anchor account (STELLAR_ANCHOR_SECRET), each root of a day with entries is then written on Stellar: one
 * transaction from that account whose memo hash is the root's 32 bytes, with one manageData operation naming the
 * day (`knack ledger root` = `2026-11-26`), which overwrites the same data entry every day (one subentry in all).
 * A member then downloads the proof of any of their entries and checks it against that transaction on Horizon.
 */
import type { AuthContext } from '../../lib/auth-context';
import { isDuplicateKey } from '../../lib/duplicate-key';
import { AppError, notFound } from '../../lib/errors';
import type { Logger } from '../../lib/logger';
import { inclusionPath } from '../../lib/merkle';
import { withLease } from '../../lib/mutex';
import type { Schemas } from '../../lib/openapi-types';
import { insertWhole, ours, updateById } from '../../lib/query';
import { consumeLimit, type Limit } from '../../lib/rate-limit';
import { isSelfOrAdmin } from '../../lib/permissions';
import { HorizonRefusedError, HorizonUnavailableError, loadStellarSdk, type HorizonDriver, type StellarConfig } from '../../integrations/horizon';
import { canonicalEntry, entryById, firstListedDay, isDaySettled, syncLedgerDays, userAccount } from '../ledger';
import { dayAfter, dayOf, treeOfDay } from './anchors.days';
import { LedgerRootModel, ledgerRootReads, type LedgerRootDoc } from './anchors.model';

export const ANCHOR_MESSAGES = {
  notFound: 'This ledger entry does not exist.',
  dayOpen: "This entry's day is not over yet: its proof can be had once the day's root is made, within an hour after midnight UTC.",
  rootNotMade: "The root of this entry's day is not made yet. Please try again in an hour.",
  tooMany: 'Too many proofs asked for. Please wait a minute and try again.',
} as const;

export const PROOF_LIMIT: Limit = { max: 30, windowMs: 60_000 };

/** The data entry each anchoring transaction sets to the day it anchors (manageData names are at most 64 bytes). */
export const ANCHOR_DATA_NAME = 'knack ledger root';
/** How long an anchoring transaction may take to reach a ledger; after it, it never can, and another is built. */
const ANCHOR_SECONDS = 300;
/** At most this many days are rooted, and this many anchored, per run: a long gap is caught up over a few runs. */
export const MAX_DAYS_PER_RUN = 31;
/** The anchor account's sequence number is one resource: one run at a time sends its transactions. */
const ANCHOR_LEASE_MS = 30 * 60_000;

export interface AnchorsDeps {
  horizon: HorizonDriver;
  stellar: Pick<StellarConfig, 'network' | 'anchorSecret'>;
  logger: Logger;
}

export interface AnchorsRun {
  /** The days whose roots this run made. */
  rooted: string[];
  /** The days this run anchored. */
  anchored: string[];
  /** The days it tried to anchor and could not (they are tried again next run). */
  notAnchored: string[];
}

/** Whether the caller may see the entry's proof: they made it, a leg is on their balance, or they are an admin. */
function tookPart(caller: AuthContext, entry: { actorId: unknown; accounts?: string[] }): boolean {
  if (isSelfOrAdmin(caller, String(entry.actorId))) return true;
  return entry.accounts?.includes(userAccount(caller.userId)) ?? false;
}

function anchorView(doc: LedgerRootDoc, network: StellarConfig['network']): Schemas['LedgerRootAnchor'] {
  const anchored = doc.status === 'anchored';
  return {
    status: doc.status,
    network: (doc.network ?? network.name) as Schemas['LedgerRootAnchor']['network'],
    networkPassphrase: doc.networkPassphrase ?? network.passphrase,
    account: doc.account,
    transactionHash: doc.status === 'not-anchored' ? null : doc.transactionHash,
    ledger: anchored ? doc.ledger : null,
    anchoredAt: anchored && doc.anchoredAt ? doc.anchoredAt.toISOString() : null,
  };
}

export function createAnchorsService({ horizon, stellar, logger }: AnchorsDeps) {
  const log = logger.child({ module: 'anchors' });
  const { network, anchorSecret } = stellar;

  /** The first day without a root: the day after the latest root, or the day of the ledger's first entry. */
  async function firstDayToRoot(): Promise<string | null> {
    const [latest] = await LedgerRootModel.find({}, { _id: 1 }).sort({ _id: -1 }).limit(1).lean<Pick<LedgerRootDoc, '_id'>[]>();
    if (latest) return dayAfter(latest._id);
    return firstListedDay();
  }

  /**
   * Roots every settled day not rooted yet, oldest first; a day another run rooted meanwhile is left as it is. The
   * ledger's lists of days are brought up to date first (what arrived in the journal since), and a day is rooted only
   * once it is settled: over for the journal's grace period, with every slot written until then listed.
   */
  async function makeRoots(now: Date): Promise<string[]> {
    await syncLedgerDays();
    const rooted: string[] = [];
    for (let day = await firstDayToRoot(); day && rooted.length < MAX_DAYS_PER_RUN; day = dayAfter(day)) {
      const { settled, throughSeq } = await isDaySettled(day, now);
      if (!settled) break;
      const tree = await treeOfDay(day, throughSeq);
      const doc: LedgerRootDoc = {
        _id: day,
        root: tree.root.toString('hex'),
        count: tree.leaves.length,
        madeAt: now,
        throughSeq,
        status: 'not-anchored',
        network: network.name,
        networkPassphrase: network.passphrase,
        account: null,
        transactionHash: null,
        envelope: null,
        expiresAt: null,
        ledger: null,
        anchoredAt: null,
        lastError: null,
      };
      try {
        await insertWhole(LedgerRootModel, doc);
        rooted.push(day);
        log.info({ day, root: doc.root, count: doc.count }, 'ledger root made');
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    }
    return rooted;
  }

  const change = (day: string, fields: Partial<LedgerRootDoc>) => updateById(LedgerRootModel, day, { $set: fields });

  /**
   * Anchors one day's root: looks a pending transaction up by its hash first (it may be in a ledger already, or
   * still able to reach one: then the same envelope is sent again), else builds, records and sends a new one.
   * True when anchored; false when not (the reason kept in `lastError`). Horizon unreachable is thrown.
   */
  async function anchorDay(doc: LedgerRootDoc, now: Date): Promise<boolean> {
    const sdk = await loadStellarSdk();
    const keypair = sdk.Keypair.fromSecret(anchorSecret!);
    const anchored = (ledger: number) => change(doc._id, { status: 'anchored', ledger, anchoredAt: now, envelope: null, lastError: null }).then(() => true);
    const refused = (err: HorizonRefusedError) =>
      change(doc._id, { status: 'not-anchored', transactionHash: null, envelope: null, expiresAt: null, lastError: err.message }).then(() => false);

    let envelope: string | null = null;
    if (doc.status === 'pending' && doc.transactionHash) {
      const seen = await horizon.findTransaction(doc.transactionHash);
      if (seen?.successful) return anchored(seen.ledger);
      if (!seen && doc.envelope && doc.expiresAt && now.getTime() <= doc.expiresAt.getTime()) envelope = doc.envelope;
    }
    if (!envelope) {
      const [account, baseFee] = await Promise.all([horizon.loadAccount(keypair.publicKey()), horizon.baseFee()]);
      if (!account) {
        const lastError = `The anchor account ${keypair.publicKey()} does not exist on the ${network.name} network: fund it with a few XLM.`;
        await change(doc._id, { status: 'not-anchored', lastError });
        log.warn({ day: doc._id, account: keypair.publicKey() }, 'the anchor account does not exist');
        return false;
      }
      const tx = new sdk.TransactionBuilder(account, { fee: String(baseFee), networkPassphrase: network.passphrase })
        .addOperation(sdk.Operation.manageData({ name: ANCHOR_DATA_NAME, value: doc._id }))
        .addMemo(sdk.Memo.hash(doc.root))
        .setTimeout(ANCHOR_SECONDS)
        .build();
      tx.sign(keypair);
      envelope = tx.toXDR();
      // Recorded before it is sent: a run that dies after sending finds it by its hash instead of anchoring twice.
      await change(doc._id, {
        status: 'pending',
        network: network.name,
        networkPassphrase: network.passphrase,
        account: keypair.publicKey(),
        transactionHash: tx.hash().toString('hex'),
        envelope,
        expiresAt: new Date(Number(tx.timeBounds!.maxTime) * 1000),
        lastError: null,
      });
    }
    try {
      const { ledger } = await horizon.submit(sdk.TransactionBuilder.fromXDR(envelope, network.passphrase));
      log.info({ day: doc._id, ledger }, 'ledger root anchored');
      return await anchored(ledger);
    } catch (err) {
      if (err instanceof HorizonRefusedError) {
        log.warn({ day: doc._id, resultCodes: err.resultCodes }, 'the anchoring transaction was refused');
        return refused(err);
      }
      throw err;
    }
  }

  /** Anchors the roots of days with entries that are not anchored yet, oldest first. */
  async function anchorRoots(now: Date): Promise<Pick<AnchorsRun, 'anchored' | 'notAnchored'>> {
    const result = { anchored: [] as string[], notAnchored: [] as string[] };
    if (!anchorSecret) return result;
    const outcome = await withLease('anchor-account', ANCHOR_LEASE_MS, async () => {
      // A scan of ledger_roots on FerretDB: one small document a day.
      const open = await LedgerRootModel.find(ours({ status: { $ne: 'anchored' }, count: { $gt: 0 } }))
        .sort({ _id: 1 })
        .limit(MAX_DAYS_PER_RUN)
        .lean<LedgerRootDoc[]>();
      for (const doc of open) {
        try {
          const list = (await anchorDay(doc, now)) ? result.anchored : result.notAnchored;
          list.push(doc._id);
        } catch (err) {
          if (!(err instanceof HorizonUnavailableError)) throw err;
          // Kept as it is (pending or not): the next run looks again.
          await change(doc._id, { lastError: err.message });
          log.warn({ day: doc._id, err }, 'Horizon cannot be reached: the anchor is tried again next run');
          result.notAnchored.push(doc._id);
          break;
        }
      }
    });
    if (!outcome.taken) log.debug('another run holds the anchor account');
    return result;
  }

  return {
    /** The public key of the account that anchors the roots (null when STELLAR_ANCHOR_SECRET is unset): published so a verifier knows it. */
    async anchorAccount(): Promise<string | null> {
      if (!anchorSecret) return null;
      return (await loadStellarSdk()).Keypair.fromSecret(anchorSecret).publicKey();
    },

    /** One run of the daily job: roots the closed days, then anchors what is not anchored yet. */
    async run(now = new Date()): Promise<AnchorsRun> {
      const rooted = await makeRoots(now);
      return { rooted, ...(await anchorRoots(now)) };
    },

    /** The proof of one entry the caller took part in (see the contract's getLedgerProof). */
    async proofOf(caller: AuthContext, entryId: string, now = new Date()): Promise<Schemas['LedgerProof']> {
      await consumeLimit(`ledger-proof:${caller.userId}`, PROOF_LIMIT, ANCHOR_MESSAGES.tooMany, now);
      const entry = await entryById(entryId);
      if (!entry || !tookPart(caller, entry)) throw notFound(ANCHOR_MESSAGES.notFound);
      const day = dayOf(entry.at);
      if (day >= dayOf(now)) throw new AppError(409, 'conflict', ANCHOR_MESSAGES.dayOpen);
      const rootDoc = await ledgerRootReads.byId<LedgerRootDoc>(day);
      if (!rootDoc) throw new AppError(409, 'conflict', ANCHOR_MESSAGES.rootNotMade);
      const tree = await treeOfDay(day, rootDoc.throughSeq);
      const leafIndex = tree.ids.indexOf(entryId);
      if (leafIndex === -1) {
        // Stamped on the day but listed after its root was made (its post stalled past the journal's grace period).
        log.error({ day, entryId, throughSeq: rootDoc.throughSeq }, "an entry of a rooted day is not in the day's root");
        throw new AppError(409, 'conflict', ANCHOR_MESSAGES.rootNotMade);
      }
      if (tree.root.toString('hex') !== rootDoc.root) {
        // The proof is still answered: it will not verify, which is what a member should learn.
        log.error({ day, recorded: rootDoc.root, now: tree.root.toString('hex'), count: tree.leaves.length }, "a closed day's entries no longer give its root");
      }
      return {
        version: 1,
        tree: 'rfc6962-sha256',
        entryId,
        day,
        entry: canonicalEntry(entry),
        leafIndex,
        treeSize: tree.leaves.length,
        path: inclusionPath(tree.leaves, leafIndex).map((node) => node.toString('hex')),
        root: rootDoc.root,
        anchor: anchorView(rootDoc, network),
      };
    },
  };
}

export type AnchorsService = ReturnType<typeof createAnchorsService>;
