/**
 * Pinata, through its upload endpoint (`POST /pinning/pinFileToIPFS`, multipart, `Authorization: Bearer <JWT>`,
 * answering `{ IpfsHash, PinSize, Timestamp }`): the IPFS Pinning Service API, which Pinata also speaks, pins a CID
 * that some node already provides, and cannot take a file's bytes. The file is sent as a CIDv0 upload, the CID of
 * its bytes is computed here as well, and an answer naming another CID is refused.
 */
import { cidOfFile, sameCid } from './cid';
import { IpfsPinningError, type IpfsPinning } from './ipfs.types';
import { filePart, UPLOAD_IDLE_TIMEOUT_MS, uploadClient, uploadFailure } from './upload';

export interface PinataOptions {
  /** The JWT of a Pinata API key allowed to pinFileToIPFS. */
  jwt: string;
  /** https://api.pinata.cloud, or a stand-in in tests. */
  apiUrl: string;
  /** Public URLs of pins start with it (`${gatewayUrl}${cid}`). */
  gatewayUrl: string;
  timeoutMs?: number;
}

interface PinataAnswer {
  IpfsHash?: string;
  PinSize?: number;
  Timestamp?: string;
}

export function pinataPinning({ jwt, apiUrl, gatewayUrl, timeoutMs = UPLOAD_IDLE_TIMEOUT_MS }: PinataOptions): IpfsPinning {
  const http = uploadClient(apiUrl, timeoutMs);
  return {
    kind: 'pinning-service',
    async pin({ path, name, contentType }) {
      const local = await cidOfFile(path);
      const form = new FormData();
      form.append('file', await filePart(path, contentType), name);
      form.append('pinataMetadata', JSON.stringify({ name }));
      // CIDv0 as `ipfs add` makes it, the CID computed here (Pinata's default too, said so it stays so).
      form.append('pinataOptions', JSON.stringify({ cidVersion: 0 }));
      let answer: PinataAnswer;
      try {
        ({ data: answer } = await http.post<PinataAnswer>('/pinning/pinFileToIPFS', form, { headers: { Authorization: `Bearer ${jwt}` } }));
      } catch (err) {
        throw uploadFailure('Pinata', `upload of ${name}`, err, [jwt]);
      }
      if (typeof answer?.IpfsHash !== 'string') throw new IpfsPinningError(`Pinata answered the upload of ${name} without an IpfsHash`);
      if (!sameCid(answer.IpfsHash, local.cid)) {
        throw new IpfsPinningError(`Pinata answered the CID ${answer.IpfsHash} for ${name}, but its bytes have the CID ${local.cid}`);
      }
      return local;
    },
    urlOf: (cid) => `${gatewayUrl}${cid}`,
  };
}
