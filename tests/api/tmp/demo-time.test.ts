import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { seedDemoContent } from '../../../server/db/demo';
import { seedReferenceData } from '../../../server/db/seed';
import { localStorage } from '../../../server/integrations/storage';
import { createLogger } from '../../../server/lib/logger';
import { useTestDatabase } from '../../helpers/db';
useTestDatabase();
it('times', async () => {
  await seedReferenceData();
  const t = Date.now();
  const n = await seedDemoContent({ storage: localStorage(mkdtempSync(path.join(os.tmpdir(), 'x-'))), signingSecret: 'x'.repeat(40), logger: createLogger('silent') });
  console.log('demo seconds', (Date.now() - t) / 1000, n);
  expect(n).toBe(30);
}, 120_000);
