/**
 * The default payout driver: no money moves, each payout is written as one JSON file under `dir`
 * (DATA_DIR/payouts), named after its payoutId. The file is created exclusively, so the same payoutId sent
 * twice, even at once, answers the first file's ref.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { centsString, type PayoutProvider } from './payouts.types';

export interface SandboxPayoutRecord {
  providerRef: string;
  payoutId: string;
  email: string;
  amount: string;
  currency: 'USD';
  note: string;
  sentAt: string;
}

export const sandboxPayoutFile = (dir: string, payoutId: string) => path.join(dir, `${payoutId.replace(/[^A-Za-z0-9_-]/g, '_')}.json`);

export function sandboxPayoutProvider(dir: string): PayoutProvider {
  return {
    kind: 'sandbox',
    async send({ payoutId, email, amountMicros, note }) {
      const record: SandboxPayoutRecord = {
        providerRef: `SANDBOX-${randomBytes(8).toString('hex').toUpperCase()}`,
        payoutId,
        email,
        amount: centsString(amountMicros),
        currency: 'USD',
        note,
        sentAt: new Date().toISOString(),
      };
      const file = sandboxPayoutFile(dir, payoutId);
      await mkdir(dir, { recursive: true });
      try {
        await writeFile(file, JSON.stringify(record, null, 2), { flag: 'wx' });
        return { providerRef: record.providerRef };
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const first = JSON.parse(await readFile(file, 'utf8')) as SandboxPayoutRecord;
        return { providerRef: first.providerRef };
      }
    },
  };
}
