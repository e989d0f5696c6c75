/** IPFS pinning: the interface and its drivers (files kept and served by this app by default; Pinata or a Kubo node when configured). */
import path from 'node:path';
import { kuboPinning } from './kubo.driver';
import { localIpfsPinning, type LocalIpfsPinning } from './local.driver';
import { pinataPinning } from './pinata.driver';
import type { IpfsPinning, IpfsPinningConfig } from './ipfs.types';

export * from './ipfs.types';
export { cidOfFile, canonicalCid, sameCid } from './cid';
export { localIpfsPinning, type LocalIpfsPinning, type LocalPin } from './local.driver';
export { localIpfsRouter, IMMUTABLE_CACHE_CONTROL, PINNED_FILE_POLICY } from './local.routes';
export { pinataPinning, type PinataOptions } from './pinata.driver';
export { kuboPinning, type KuboOptions } from './kubo.driver';

/** Pinata when PINATA_JWT is set, a Kubo node when IPFS_KUBO_URL is, else the files kept under DATA_DIR/ipfs and served at /ipfs. */
export function createIpfsPinning(config: IpfsPinningConfig): IpfsPinning {
  const { pinata, kubo, gatewayUrl } = config.ipfs;
  if (pinata) return pinataPinning({ jwt: pinata.jwt, apiUrl: pinata.apiUrl, gatewayUrl });
  if (kubo) return kuboPinning({ url: kubo.url, authorization: kubo.authorization, gatewayUrl });
  return localIpfsPinning(path.join(config.dataDir, 'ipfs'), config.publicUrl);
}

/** The embedded default, whose files this app serves at /ipfs/{cid}. */
export const isLocalPinning = (pinning: IpfsPinning): pinning is LocalIpfsPinning => pinning.kind === 'local';
