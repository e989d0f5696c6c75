/**
 * A write that repeats a unique key answers 409 through the one error mapping (lib/errors.ts), in whichever form the
 * database reports it: MongoDB's code 11000, or FerretDB's for an update (SQLite's "UNIQUE constraint failed").
 * Upserts of one new `_id` at once all land through `retryLostUpsert`, though the database refuses the insert of
 * every one but the first.
 */
import mongoose, { Schema, model } from 'mongoose';
import { toAppError } from '../../server/lib/errors';
import { isDuplicateKey, retryLostUpsert } from '../../server/lib/duplicate-key';
import { useTestDatabase } from '../helpers/db';

useTestDatabase();

const NamedModel = model('DuplicateKeyProbe', new Schema({ name: { type: String, required: true, unique: true } }), 'duplicate_key_probes');

beforeAll(async () => {
  await NamedModel.init();
});

const failureOf = async (write: () => Promise<unknown>) => {
  try {
    await write();
  } catch (err) {
    return err;
  }
  throw new Error('the write did not fail');
};

describe('a repeated unique key', () => {
  it('when a document is inserted with a name already taken, then the error is a duplicate key and answers 409', async () => {
    await NamedModel.create({ name: 'first' });
    const err = await failureOf(() => NamedModel.create({ name: 'first' }));
    expect(isDuplicateKey(err)).toBe(true);
    expect(toAppError(err)).toMatchObject({ status: 409, code: 'conflict', message: 'That already exists.' });
  });

  it('when a document is updated to a name another holds, then the error is a duplicate key and answers 409', async () => {
    await NamedModel.create({ name: 'taken' });
    const other = await NamedModel.create({ name: 'free' });
    const err = await failureOf(() => NamedModel.updateOne({ _id: other._id }, { $set: { name: 'taken' } }));
    expect(isDuplicateKey(err)).toBe(true);
    expect(toAppError(err)).toMatchObject({ status: 409, code: 'conflict', message: 'That already exists.' });
  });
});

describe('upserts of one new document at once', () => {
  const ROUNDS = 20;
  const WRITERS = 6;
  const upserts = mongoose.connection.collection('duplicate_key_upserts');

  it(`when ${WRITERS} replacements and ${WRITERS} updates of one new _id run at once, ${ROUNDS} times, then no write fails and each _id has one document`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const replaced = `replaced:${round}`;
      const updated = `updated:${round}`;
      const writes = Array.from({ length: WRITERS }, (_, writer) => [
        retryLostUpsert(() => upserts.replaceOne({ _id: replaced as never }, { writer }, { upsert: true })),
        retryLostUpsert(() => upserts.updateOne({ _id: updated as never }, { $set: { [`by${writer}`]: true } }, { upsert: true })),
      ]).flat();
      const outcomes = await Promise.allSettled(writes);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      // The document holds one writer's replacement whole. (Which updates' fields survive is the engine's: on
      // FerretDB an update rewrites the whole document, so of updates at once the last write wins.)
      expect([...Array(WRITERS).keys()]).toContain((await upserts.findOne({ _id: replaced as never }))?.writer);
      expect(Object.keys((await upserts.findOne({ _id: updated as never })) ?? {}).some((key) => key.startsWith('by'))).toBe(true);
    }
    expect(await upserts.countDocuments({})).toBe(2 * ROUNDS);
  });

  it('when a write fails for another reason, then it is not tried again and its error stands', async () => {
    let tries = 0;
    const refused = new Error('the server is down');
    await expect(
      retryLostUpsert(async () => {
        tries++;
        throw refused;
      }),
    ).rejects.toBe(refused);
    expect(tries).toBe(1);
  });
});
