/**
 * A write that repeats a unique key answers 409 through the one error mapping (lib/errors.ts), in whichever form the
 * database reports it: MongoDB's code 11000, or FerretDB's for an update (SQLite's "UNIQUE constraint failed").
 */
import { Schema, model } from 'mongoose';
import { toAppError } from '../../server/lib/errors';
import { isDuplicateKey } from '../../server/lib/duplicate-key';
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
