/**
 * A Kubo node, through its RPC (`POST /api/v0/add`, multipart, answering one JSON line per file:
 * `{ Name, Hash, Size }`), with the settings of `ipfs add`'s defaults said out loud (the node's own Import
 * settings may differ): CIDv0, 256 KiB chunks, no raw leaves, pinned. The CID of the bytes is computed here as
 * well, and an answer naming another CID is refused. A node whose RPC asks for authorization (API.Authorizations)
 * gets the header its AuthSecret stands for (config.ts makes it from IPFS_KUBO_AUTH).
 */
import { cidOfFile, sameCid } from './cid';
import { IpfsPinningError, type IpfsPinning } from './ipfs.types';
import { filePart, UPLOAD_IDLE_TIMEOUT_MS, uploadClient, uploadFailure } from './upload';

export interface KuboOptions {
  /** The node's RPC address, e.g. http://127.0.0.1:5001. */
  url: string;
  /** The Authorization header its API.Authorizations expect, when they are set. */
  authorization?: string;
  /** Public URLs of pins start with it (`${gatewayUrl}${cid}`). */
  gatewayUrl: string;
  timeoutMs?: number;
}

interface KuboAddLine {
  Name?: string;
  Hash?: string;
  Size?: string;
}

const ADD_SETTINGS = 'pin=true&cid-version=0&raw-leaves=false&chunker=size-262144&trickle=false&wrap-with-directory=false&progress=false';

export function kuboPinning({ url, authorization, gatewayUrl, timeoutMs = UPLOAD_IDLE_TIMEOUT_MS }: KuboOptions): IpfsPinning {
  const http = uploadClient(url, timeoutMs);
  // The header, and the credentials in it, in case an error ever echoes either.
  const secrets = authorization ? [authorization, authorization.slice(authorization.indexOf(' ') + 1)] : [];
  return {
    kind: 'kubo',
    async pin({ path, name, contentType }) {
      const local = await cidOfFile(path);
      const form = new FormData();
      // Kubo reads the part's file name as a URL-escaped path, as its own clients send it.
      form.append('file', await filePart(path, contentType), encodeURIComponent(name));
      let body: string;
      try {
        ({ data: body } = await http.post<string>(`/api/v0/add?${ADD_SETTINGS}`, form, {
          headers: authorization ? { Authorization: authorization } : {},
          responseType: 'text',
        }));
      } catch (err) {
        throw uploadFailure('Kubo', `add of ${name}`, err, secrets);
      }
      let lines: KuboAddLine[];
      try {
        lines = String(body)
          .split('\n')
          .filter((line) => line.trim())
          .map((line) => JSON.parse(line) as KuboAddLine);
      } catch {
        throw new IpfsPinningError(`Kubo answered the add of ${name} with something other than JSON lines`);
      }
      const added = lines.at(-1)?.Hash;
      if (typeof added !== 'string') throw new IpfsPinningError(`Kubo answered the add of ${name} without a Hash`);
      if (!sameCid(added, local.cid)) throw new IpfsPinningError(`Kubo answered the CID ${added} for ${name}, but its bytes have the CID ${local.cid}`);
      return local;
    },
    urlOf: (cid) => `${gatewayUrl}${cid}`,
  };
}
