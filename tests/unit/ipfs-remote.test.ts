/**
 * The Pinata and Kubo drivers against stand-ins on loopback that speak those services' upload APIs: the file goes
 * up as multipart with the credentials and the settings of `ipfs add`, the CID answered is checked against the
 * bytes, and every failure says what failed without the credentials.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { IpfsPinningError, kuboPinning, pinataPinning, type IpfsPinning } from '../../server/integrations/ipfs';
import { independentCid, pseudoRandomBytes, sha256Of, writeBytes } from '../helpers/ipfs';
import { OTHER_CID, startKuboStandIn, startPinataStandIn } from '../helpers/ipfs-standins';
import { mp3, png } from '../helpers/media';

const work = mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-remote-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJrbmFjay1waW5hdGEifQ.UGluYXRhU2VjcmV0U2lnbmF0dXJl';
const KUBO_TOKEN = 'kubo-rpc-s3cret-token';
const GATEWAY = 'https://knack.mypinata.cloud/ipfs/';

/** The message of the pin's refusal, which must be an IpfsPinningError. */
async function refusal(pinning: IpfsPinning, file: { path: string; name: string; contentType: string }): Promise<string> {
  const err: unknown = await pinning.pin(file).then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(err).toBeInstanceOf(IpfsPinningError);
  return (err as Error).message;
}

describe('Pinata (pinFileToIPFS)', () => {
  let standIn: Awaited<ReturnType<typeof startPinataStandIn>>;
  let image: { path: string; name: string; contentType: string };
  beforeAll(async () => {
    standIn = await startPinataStandIn(JWT);
    image = { path: writeBytes(path.join(work, 'cover.png'), await png(500, 400)), name: 'cover.png', contentType: 'image/png' };
  });
  afterAll(() => standIn.stop());
  beforeEach(() => standIn.answerWith('ok'));

  const pinata = (jwt = JWT, timeoutMs?: number) => pinataPinning({ jwt, apiUrl: standIn.url, gatewayUrl: GATEWAY, timeoutMs });

  it('when a file is pinned, then it goes up as multipart with the JWT, its name and CIDv0, and the CID answered is that of its bytes', async () => {
    const pinning = pinata();
    expect(pinning.kind).toBe('pinning-service');
    const pinned = await pinning.pin(image);
    expect(pinned).toEqual({ cid: independentCid(image.path), bytes: standIn.calls.at(-1)!.size });
    expect(standIn.calls.at(-1)).toEqual({
      authorization: `Bearer ${JWT}`,
      query: {},
      fileName: 'cover.png',
      contentType: 'image/png',
      size: pinned.bytes,
      sha256: sha256Of(image.path),
      fields: { pinataMetadata: JSON.stringify({ name: 'cover.png' }), pinataOptions: JSON.stringify({ cidVersion: 0 }) },
    });
    expect(pinning.urlOf(pinned.cid)).toBe(`${GATEWAY}${pinned.cid}`);
  });

  it('when a file of several chunks is pinned, then its whole bytes arrive and the CID matches', async () => {
    const big = {
      path: writeBytes(path.join(work, 'big.bin'), pseudoRandomBytes(1024 * 1024 + 3, 'pinata')),
      name: 'big.bin',
      contentType: 'application/octet-stream',
    };
    const pinned = await pinata().pin(big);
    expect(pinned).toEqual({ cid: independentCid(big.path), bytes: 1024 * 1024 + 3 });
    expect(standIn.calls.at(-1)!.sha256).toBe(sha256Of(big.path));
  });

  it('when the JWT is refused, then the error says Pinata refused it (401) and does not hold the token', async () => {
    const wrong = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJvdGhlciJ9.V3JvbmdTaWduYXR1cmVIZXJl';
    const message = await refusal(pinata(wrong), image);
    expect(message).toBe('Pinata upload of cover.png failed (401): Invalid/expired credentials');
  });

  it('when Pinata fails (5xx), then the error says so with its words', async () => {
    standIn.answerWith('server-error');
    expect(await refusal(pinata(), image)).toBe('Pinata upload of cover.png failed (500): Pinning failed, try again later');
  });

  it('when an answer would repeat the token, then the error holds [credentials] in its place', async () => {
    standIn.answerWith('echo-credentials');
    const message = await refusal(pinata(), image);
    expect(message).toBe('Pinata upload of cover.png failed (502): upstream refused Bearer [credentials]');
    expect(message).not.toContain(JWT);
  });

  it('when Pinata does not answer in time, then the upload gives up and says how long it waited', async () => {
    standIn.answerWith('silent');
    expect(await refusal(pinata(JWT, 300), image)).toBe('Pinata upload of cover.png failed: no answer within 0.3 s');
  });

  it('when Pinata answers a CID other than that of the bytes, then the pin is refused', async () => {
    standIn.answerWith('other-cid');
    expect(await refusal(pinata(), image)).toBe(`Pinata answered the CID ${OTHER_CID} for cover.png, but its bytes have the CID ${independentCid(image.path)}`);
  });

  it('when nothing listens at the API address, then the error says the connection was refused', async () => {
    const closed = await startPinataStandIn(JWT);
    await closed.stop();
    const message = await refusal(pinataPinning({ jwt: JWT, apiUrl: closed.url, gatewayUrl: GATEWAY }), image);
    expect(message).toBe('Pinata upload of cover.png failed: ECONNREFUSED');
  });
});

describe('Kubo (RPC /api/v0/add)', () => {
  let standIn: Awaited<ReturnType<typeof startKuboStandIn>>;
  let song: { path: string; name: string; contentType: string };
  const authorization = `Bearer ${KUBO_TOKEN}`;
  beforeAll(async () => {
    standIn = await startKuboStandIn(authorization);
    song = { path: writeBytes(path.join(work, 'song.mp3'), mp3(2)), name: 'Mon morceau #1.mp3', contentType: 'audio/mpeg' };
  });
  afterAll(() => standIn.stop());
  beforeEach(() => standIn.answerWith('ok'));

  const kubo = (header: string | undefined = authorization, timeoutMs?: number) =>
    kuboPinning({ url: standIn.url, authorization: header, gatewayUrl: 'https://ipfs.io/ipfs/', timeoutMs });

  it("when a file is added, then it goes up with the node's authorization and the settings of ipfs add, pinned, and the CID answered is that of its bytes", async () => {
    const pinning = kubo();
    expect(pinning.kind).toBe('kubo');
    const pinned = await pinning.pin(song);
    expect(pinned).toEqual({ cid: independentCid(song.path), bytes: standIn.calls.at(-1)!.size });
    expect(standIn.calls.at(-1)).toEqual({
      authorization,
      query: {
        pin: 'true',
        'cid-version': '0',
        'raw-leaves': 'false',
        chunker: 'size-262144',
        trickle: 'false',
        'wrap-with-directory': 'false',
        progress: 'false',
      },
      fileName: 'Mon morceau #1.mp3',
      contentType: 'audio/mpeg',
      size: pinned.bytes,
      sha256: sha256Of(song.path),
      fields: {},
    });
    expect(pinning.urlOf(pinned.cid)).toBe(`https://ipfs.io/ipfs/${pinned.cid}`);
  });

  it('when the authorization is refused, then the error gives Kubo’s 403 and not the token', async () => {
    const message = await refusal(kubo('Bearer not-the-token'), song);
    expect(message).toBe(
      'Kubo add of Mon morceau #1.mp3 failed (403): Kubo RPC Access Denied: Please provide a valid authorization token as defined in the API.Authorizations configuration.',
    );
  });

  it('when the node fails (500), then the error gives its Message', async () => {
    standIn.answerWith('server-error');
    expect(await refusal(kubo(), song)).toBe('Kubo add of Mon morceau #1.mp3 failed (500): failed to get block: context canceled');
  });

  it('when an answer would repeat the authorization, then the error holds [credentials] in its place', async () => {
    standIn.answerWith('echo-credentials');
    const message = await refusal(kubo(), song);
    expect(message).toBe('Kubo add of Mon morceau #1.mp3 failed (500): refused [credentials]');
    expect(message).not.toContain(KUBO_TOKEN);
  });

  it('when the node does not answer in time, then the add gives up and says how long it waited', async () => {
    standIn.answerWith('silent');
    expect(await refusal(kubo(authorization, 300), song)).toBe('Kubo add of Mon morceau #1.mp3 failed: no answer within 0.3 s');
  });

  it('when the node answers a CID other than that of the bytes, then the pin is refused', async () => {
    standIn.answerWith('other-cid');
    expect(await refusal(kubo(), song)).toBe(
      `Kubo answered the CID ${OTHER_CID} for Mon morceau #1.mp3, but its bytes have the CID ${independentCid(song.path)}`,
    );
  });
});
