/**
 * The calls that move money or credits, as the contract tells integrators: each is marked `x-idempotent`, takes the
 * shared Idempotency-Key header (optional, so older clients keep working), declares the 409 and 422 answers the
 * key can bring and the `Idempotent-Replayed` header of a repeated answer; and no call takes the header unmarked,
 * since the server acts on the mark alone. The generated client sends a key on exactly the marked calls.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CONTRACT_OPERATIONS, deref, type Parameter } from '../helpers/contract-operations';

const ROOT = path.resolve(__dirname, '../..');
const HEADER_REF = '#/components/parameters/IdempotencyKey';

type Marked = { 'x-idempotent'?: boolean; responses: Record<string, { $ref?: string; headers?: Record<string, unknown> }> };
const isMarked = ({ operation }: (typeof CONTRACT_OPERATIONS)[number]) => (operation as unknown as Marked)['x-idempotent'] === true;
const takesKey = ({ operation }: (typeof CONTRACT_OPERATIONS)[number]) =>
  (operation.parameters ?? []).some((parameter) => parameter.$ref === HEADER_REF || (parameter as Parameter).name === 'Idempotency-Key');
const MARKED = CONTRACT_OPERATIONS.filter(isMarked);

describe('the calls marked x-idempotent', () => {
  it('when a call moves money or credits, then it is marked', () => {
    expect(MARKED.map(({ operation }) => operation.operationId).sort()).toEqual(
      [
        'approveBid',
        'approveCashOut',
        'cancelBid',
        'cancelCashOut',
        'createSubscription',
        'declineCashOut',
        'payForContent',
        'redeemDiscountCode',
        'relistBid',
        'requestCashOut',
        'restoreCashOut',
        'sellBid',
        'updateBid',
        'updatePlan',
        'updatePremiumCredits',
        'updateStandardCredits',
        'updateSubscription',
      ].sort(),
    );
  });

  it('when a call is marked, then it takes the shared Idempotency-Key header, and declares 409, 422 and Idempotent-Replayed on its success', () => {
    const missing: string[] = [];
    for (const entry of MARKED) {
      const { operationId } = entry.operation;
      const { responses } = entry.operation as unknown as Marked;
      if (!(entry.operation.parameters ?? []).some((parameter) => parameter.$ref === HEADER_REF)) missing.push(`${operationId} header`);
      if (responses['409']?.$ref !== '#/components/responses/ConflictOrKeyInUse') missing.push(`${operationId} 409`);
      if (responses['422']?.$ref !== '#/components/responses/IdempotencyKeyReused') missing.push(`${operationId} 422`);
      for (const [status, response] of Object.entries(responses)) {
        if (/^2/.test(status) && !deref(response).headers?.['Idempotent-Replayed']) missing.push(`${operationId} ${status} Idempotent-Replayed`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('when a call takes the Idempotency-Key header, then it is marked (the server acts on the mark alone)', () => {
    expect(CONTRACT_OPERATIONS.filter((entry) => takesKey(entry) && !isMarked(entry)).map(({ operation }) => operation.operationId)).toEqual([]);
  });

  it('when an integrator reads the header, then it is optional, 1 to 255 characters, and says what it does', () => {
    const header = deref({ $ref: HEADER_REF } as Parameter);
    expect(header).toMatchObject({ name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', minLength: 1, maxLength: 255 } });
    expect((header as { description?: string }).description).toContain('older');
  });

  it('when the client is generated, then exactly the marked calls send a key', () => {
    const operations = readFileSync(path.join(ROOT, 'client/src/api/generated/operations.ts'), 'utf8');
    const sending = [
      ...operations.matchAll(/export function (\w+)\([^)]*\)[^{]*\{\n\s+return request<[^>]+>\([^;]*\{ idempotent: true, \.\.\.options \}\);/g),
    ].map((match) => match[1]!);
    expect(sending.sort()).toEqual(MARKED.map(({ operation }) => operation.operationId).sort());
  });
});
