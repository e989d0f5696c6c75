/**
 * Stand-ins on loopback for the two upload APIs the IPFS drivers speak, answering as the real ones do:
 * - Pinata: `POST /pinning/pinFileToIPFS`, multipart (`file`, `pinataMetadata`, `pinataOptions`), `Authorization:
 *   Bearer <JWT>`; `{ IpfsHash, PinSize, Timestamp }`, 401 `{"error":{"reason":"INVALID_CREDENTIALS",…}}` for a
 *   bad token, 500 `{"error":{"reason":…,"details":…}}`.
 * - Kubo's RPC: `POST /api/v0/add`, multipart (`file`, its file name URL-escaped), one JSON line per file
 *   `{"Name","Hash","Size"}`; with API.Authorizations a wrong header gets 403 and Kubo's text; errors 500
 *   `{"Message","Code","Type":"error"}`.
 * The CID each answers is the independent tool's (tests/helpers/ipfs.ts), as a real node's would be. A stand-in can
 * also fail on purpose: answer 5xx, never answer, or name another CID than the bytes have.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import express, { type Request, type Response } from 'express';
import multer from 'multer';
import { independentCid, sha256Of } from './ipfs';

export type StandInMode = 'ok' | 'server-error' | 'echo-credentials' | 'silent' | 'other-cid';

export interface UploadCall {
  authorization: string | undefined;
  query: Record<string, unknown>;
  fileName: string;
  contentType: string;
  size: number;
  sha256: string;
  fields: Record<string, string>;
}

/** A CID of other bytes than any test sends. */
export const OTHER_CID = 'QmT78zSuBmuS4z925WZfrqQ1qHaJ56DQaTfyMUF7F8ff5o';

async function start(mount: (app: express.Express, upload: multer.Multer) => void) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'knack-ipfs-standin-'));
  const app = express();
  mount(app, multer({ dest: dir }));
  const server: Server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    async stop() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function recordCall(req: Request, fileName: string): UploadCall {
  const file = req.file!;
  return {
    authorization: req.headers.authorization,
    query: { ...req.query },
    fileName,
    contentType: file.mimetype,
    size: file.size,
    sha256: sha256Of(file.path),
    fields: { ...(req.body as Record<string, string>) },
  };
}

export async function startPinataStandIn(jwt: string) {
  const calls: UploadCall[] = [];
  let mode: StandInMode = 'ok';
  const server = await start((app, upload) => {
    app.post('/pinning/pinFileToIPFS', (req: Request, res: Response, next) => {
      if (req.headers.authorization !== `Bearer ${jwt}`) {
        return res.status(401).json({ error: { reason: 'INVALID_CREDENTIALS', details: 'Invalid/expired credentials' } });
      }
      next();
    });
    app.post('/pinning/pinFileToIPFS', upload.single('file'), (req: Request, res: Response) => {
      if (!req.file) return res.status(400).json({ error: { reason: 'INVALID_REQUEST', details: 'No file was sent' } });
      calls.push(recordCall(req, req.file.originalname));
      if (mode === 'silent') return;
      if (mode === 'server-error') return res.status(500).json({ error: { reason: 'INTERNAL_SERVER_ERROR', details: 'Pinning failed, try again later' } });
      if (mode === 'echo-credentials')
        return res.status(502).json({ error: { reason: 'BAD_GATEWAY', details: `upstream refused ${req.headers.authorization}` } });
      const cid = mode === 'other-cid' ? OTHER_CID : independentCid(req.file.path);
      res.json({ IpfsHash: cid, PinSize: req.file.size + 14, Timestamp: new Date().toISOString() });
    });
  });
  return {
    ...server,
    calls,
    answerWith(next: StandInMode) {
      mode = next;
    },
  };
}

const KUBO_DENIED = 'Kubo RPC Access Denied: Please provide a valid authorization token as defined in the API.Authorizations configuration.\n';

export async function startKuboStandIn(authorization?: string) {
  const calls: UploadCall[] = [];
  let mode: StandInMode = 'ok';
  const server = await start((app, upload) => {
    app.use('/api/v0', (req: Request, res: Response, next) => {
      if (authorization && req.headers.authorization !== authorization) return res.status(403).type('text/plain').send(KUBO_DENIED);
      if (req.method !== 'POST') return res.status(405).type('text/plain').send('405 - Method Not Allowed\n');
      next();
    });
    app.post('/api/v0/add', upload.single('file'), (req: Request, res: Response) => {
      if (!req.file) return res.status(400).json({ Message: 'file argument was nil', Code: 1, Type: 'error' });
      const name = decodeURIComponent(req.file.originalname);
      calls.push(recordCall(req, name));
      if (mode === 'silent') return;
      if (mode === 'server-error') return res.status(500).json({ Message: 'failed to get block: context canceled', Code: 0, Type: 'error' });
      if (mode === 'echo-credentials') return res.status(500).json({ Message: `refused ${req.headers.authorization ?? ''}`, Code: 0, Type: 'error' });
      const cid = mode === 'other-cid' ? OTHER_CID : independentCid(req.file.path);
      res.set({ 'Content-Type': 'application/json', 'X-Chunked-Output': '1' });
      res.send(`${JSON.stringify({ Name: name, Hash: cid, Size: String(req.file.size + 14) })}\n`);
    });
  });
  return {
    ...server,
    calls,
    answerWith(next: StandInMode) {
      mode = next;
    },
  };
}
