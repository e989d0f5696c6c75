import mongoose from 'mongoose';
import { AppError, DATABASE_UNAVAILABLE_MESSAGE, RETRY_AFTER_OUTAGE_SECONDS, toAppError } from '../../server/lib/errors';

describe('toAppError: one error shape for every failure', () => {
  it('when the contract validator rejects a parameter, then 400 names the field in plain words', () => {
    const err = toAppError({ status: 400, message: 'request/params/id must match', errors: [{ path: '/params/id', message: 'must match pattern' }] });
    expect(err).toMatchObject({ status: 400, code: 'bad_request', message: 'id must match pattern', errors: [{ path: 'id', message: 'must match pattern' }] });
  });

  it('when a body field is nested, then its path is dotted', () => {
    const err = toAppError({ status: 400, message: 'x', errors: [{ path: '/body/user/email', message: 'must be email' }] });
    expect(err?.errors).toEqual([{ path: 'user.email', message: 'must be email' }]);
  });

  it('when the validator knows no such call, then 404 names the call', () => {
    const err = toAppError({ status: 404, message: 'not found', errors: [] }, { method: 'GET', originalUrl: '/api/v2/x?y=1' });
    expect(err).toMatchObject({ status: 404, code: 'not_found', message: 'No API call GET /api/v2/x' });
  });

  it('when mongoose cannot cast a value, then 400', () => {
    expect(toAppError({ name: 'CastError', path: '_id' })).toMatchObject({ status: 400, message: 'Invalid value for _id' });
  });

  it('when a unique key is hit twice, then 409', () => {
    expect(toAppError({ code: 11000 })).toMatchObject({ status: 409, code: 'conflict' });
  });

  it('when FerretDB refuses an update that would repeat a unique key (SQLite answers code 1, not 11000), then 409 as well', () => {
    const ferretDbUpdate = { code: 1, message: 'UNIQUE constraint failed: knack_probes_1a2b.name' };
    expect(toAppError(ferretDbUpdate)).toMatchObject({ status: 409, code: 'conflict', message: 'That already exists.' });
  });

  it('when the JSON body cannot be parsed, then 400', () => {
    expect(toAppError({ type: 'entity.parse.failed', status: 400 })).toMatchObject({ status: 400, message: 'The request body is not valid JSON.' });
  });

  it.each([
    ['a connection lost', new mongoose.mongo.MongoNetworkError('connection 3 to 127.0.0.1:27017 closed')],
    ['no server found in time', new mongoose.mongo.MongoServerSelectionError('connect ECONNREFUSED 127.0.0.1:27017', {} as never)],
    ['a client not connected', new mongoose.mongo.MongoNotConnectedError('Client must be connected before running operations')],
    ['a server shutting down', Object.assign(new mongoose.mongo.MongoServerError({ message: 'interrupted at shutdown' }), { code: 11600 })],
    [
      'a lost connection wrapped in another error',
      Object.assign(new Error('the write failed'), { cause: new mongoose.mongo.MongoNetworkTimeoutError('timed out') }),
    ],
    ['mongoose waiting in vain', new mongoose.Error('Operation `users.findOne()` buffering timed out after 10000ms')],
  ])('when the database cannot be reached (%s), then 503 unavailable with Retry-After, never a 500', (_what, err) => {
    expect(toAppError(err)).toMatchObject({
      status: 503,
      code: 'unavailable',
      message: DATABASE_UNAVAILABLE_MESSAGE,
      retryAfterSeconds: RETRY_AFTER_OUTAGE_SECONDS,
    });
  });

  it('when the database answers an error of its own (not an outage), then it is not taken for one', () => {
    expect(toAppError(Object.assign(new mongoose.mongo.MongoServerError({ message: 'bad query' }), { code: 2 }))).toBeUndefined();
  });

  it('when a service throws an AppError, then it passes through unchanged', () => {
    const original = new AppError(402, 'payment_required', 'Payment Failed');
    expect(toAppError(original)).toBe(original);
  });

  it('when something unexpected is thrown, then it is not mapped (the handler answers a generic 500)', () => {
    expect(toAppError(new TypeError('x is undefined'))).toBeUndefined();
    expect(toAppError({ status: 503, errors: [] })).toBeUndefined();
  });
});
