import path from 'node:path';
import type { Config } from '../../config';
import { localStorage } from './local.driver';
import { s3Storage } from './s3.driver';
import type { Storage } from './storage.types';

export type { Storage, StoredStat } from './storage.types';
export { PUBLIC_CACHE_CONTROL } from './storage.types';
export { localStorage, assertSafeKey } from './local.driver';
export { s3Storage, type S3StorageOptions } from './s3.driver';

/** Local disk under DATA_DIR/uploads by default; S3 when S3_BUCKET is set (see s3.driver.ts). */
export function createStorage(config: Pick<Config, 'dataDir' | 'storage'>): Storage {
  const s3 = config.storage.s3;
  if (!s3) return localStorage(path.join(config.dataDir, 'uploads'));
  return s3Storage({
    bucket: s3.bucket,
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    publicBaseUrl: s3.publicBaseUrl,
  });
}
