/** Gives each test file its own database on the run's real database server, dropped afterwards. */
import { randomBytes } from 'node:crypto';
import mongoose from 'mongoose';
import { ensureIndexes, withDatabaseName } from '../../server/db/connection';
import { forgetKnackWindows } from '../../server/modules/knacks/testing';
import { forgetMessageThreads } from '../../server/modules/messages';
import { forgetPieceChains, forgetProjectPieces, forgetSupportedPieces, forgetVersionChains, titleIndexState } from '../../server/modules/contents';
import { forgetProjectLists } from '../../server/modules/projects';
import { forgetCreditLists, nameIndexState } from '../../server/modules/users';
import { forgetPlanStarts } from '../../server/modules/subscriptions';
import { forgetLedgerChains } from '../../server/modules/ledger';
import { forgetCommentLists, forgetCommentThreads } from '../../server/modules/comments';
import { forgetFollowLists } from '../../server/modules/follows';
import { forgetCashOutLists } from '../../server/modules/wallet';
import { forgetBidLists } from '../../server/modules/bids';
import { forgetNftMintLists } from '../../server/modules/nft';
import { forgetProductEventLists } from '../../server/modules/events';
import { forgetPaymentOrderLists } from '../../server/modules/payments';

/**
 * `heartbeatFrequencyMS`: how often the driver checks the server (its default, 10 s, unless a test waits for one).
 * `monitorCommands`: the driver reports each command it sends, for tests/helpers/read-meter.ts.
 */
export function useTestDatabase({ heartbeatFrequencyMS, monitorCommands }: { heartbeatFrequencyMS?: number; monitorCommands?: boolean } = {}): void {
  beforeAll(async () => {
    const base = process.env.KNACK_TEST_DB_URI;
    if (!base) throw new Error('No test database: the jest globalSetup did not run');
    const name = `knack_test_${process.env.JEST_WORKER_ID ?? 0}_${randomBytes(4).toString('hex')}`;
    const url = new URL(base);
    url.pathname = '/';
    // No buffering: tests connect before anything runs, and mongoose's buffer only lets a call through when it
    // believes the connection is alive, a belief it takes from `Date`, which the test clock fakes. With it off
    // every call goes straight to the driver, whose own server selection knows the connection is up.
    await mongoose.connect(withDatabaseName(url.toString(), name), {
      serverSelectionTimeoutMS: 10_000,
      bufferCommands: false,
      ...(heartbeatFrequencyMS !== undefined && { heartbeatFrequencyMS }),
      ...(monitorCommands && { monitorCommands }),
    });
    await ensureIndexes();
  });

  afterAll(async () => {
    await mongoose.connection.dropDatabase();
    await mongoose.disconnect();
  });
}

/** Empties every collection (indexes stay), for tests that need a clean slate, and what the app remembers of them. */
export async function clearDatabase(): Promise<void> {
  await Promise.all(Object.values(mongoose.connection.collections).map((c) => c.deleteMany({})));
  forgetKnackWindows();
  forgetCommentThreads();
  forgetMessageThreads();
  titleIndexState.forget();
  nameIndexState.forget();
  forgetPieceChains();
  forgetProjectPieces();
  forgetSupportedPieces();
  forgetVersionChains();
  forgetProjectLists();
  forgetLedgerChains();
  forgetCommentLists();
  forgetFollowLists();
  forgetCreditLists();
  forgetPlanStarts();
  forgetCashOutLists();
  forgetBidLists();
  forgetNftMintLists();
  forgetProductEventLists();
  forgetPaymentOrderLists();
}

/** Every document of every collection, as stored, to be put back by `restoreDatabase`. */
export type DatabaseCopy = ReadonlyMap<string, readonly mongoose.mongo.Document[]>;

export async function copyDatabase(): Promise<DatabaseCopy> {
  const collections = Object.values(mongoose.connection.collections);
  return new Map(await Promise.all(collections.map(async (c) => [c.collectionName, await c.find({}).toArray()] as const)));
}

/**
 * Empties the database as `clearDatabase` does and puts back the documents of `copy`, as they were stored (the same
 * ids): the state a test starts from, made once through the real calls, for a fraction of making it again.
 */
export async function restoreDatabase(copy: DatabaseCopy): Promise<void> {
  await clearDatabase();
  await Promise.all(
    [...copy].map(async ([name, documents]) => {
      if (documents.length) await mongoose.connection.collection(name).insertMany(documents.map((document) => ({ ...document })));
    }),
  );
}
