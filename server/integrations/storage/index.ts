import path from 'node:path';
import type { Config } from '../../config';
import { localStorage } from './local.driver';
import type { Storage } from './storage.types';

export type { Storage, StoredStat } from './storage.types';
export { localStorage, assertSafeKey } from './local.driver';

/** Local disk under DATA_DIR/uploads by default; S3 when S3_BUCKET is set (see s3.driver.ts). */
export function createStorage(config: Pick<Config, 'dataDir'>): Storage {
  return localStorage(path.join(config.dataDir, 'uploads'));
}
