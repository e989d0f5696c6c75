/**
 * A stand-in for Instagram's API with Instagram Login on loopback, speaking the calls Knack makes as Instagram
 * answers them:
 * - `GET /oauth/authorize` (the consent page): checks the app id, `response_type=code` and the two scopes, then sends
 *   the browser back to `redirect_uri` with a one-time `code` and the `state` (or, when the test says the member
 *   declines, with `error=access_denied`, `error_reason=user_denied` and `error_description`);
 * - `POST /oauth/access_token` (form): the app's id and secret, the same `redirect_uri`, a code used once; answers
 *   `{ data: [{ access_token, user_id, permissions }] }`;
 * - `GET /access_token?grant_type=ig_exchange_token` and `GET /refresh_access_token?grant_type=ig_refresh_token`:
 *   long-lived tokens of 60 days;
 * - under `/v19.0`: `GET /me`, `POST /{user}/media` (it fetches `image_url` as Instagram does and refuses anything
 *   but a JPEG within a feed post's shapes, 4:5 to 1.91:1, with error 9004 or 36003), `GET /{container}`
 *   (`status_code`), `POST /{user}/media_publish` (once per container) and `GET /{media}?fields=permalink`.
 * A token it did not issue, or one the test revoked, answers Graph's error 190. Errors have Graph's shape:
 * `{ error: { message, type: 'OAuthException', code, error_subcode, fbtrace_id } }`.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import axios from 'axios';
import sharp from 'sharp';
import { loadConfig } from '../../server/config';
import { TEST_JWT_SECRET } from './app';

export const STANDIN_APP = { appId: '1234567890123', appSecret: 'standin-app-secret' };
const SCOPES = ['instagram_business_basic', 'instagram_business_content_publish'];

export interface PublishedPost {
  mediaId: string;
  userId: string;
  caption: string;
  image: Buffer;
  width: number;
  height: number;
}

export async function startInstagramStandIn(account = { userId: '17841400000000001', username: 'nora.vale.art' }) {
  const codes = new Map<string, { redirectUri: string }>();
  const tokens = new Map<string, { userId: string; long: boolean }>();
  const containers = new Map<string, { userId: string; caption: string; image: Buffer; width: number; height: number; published: boolean }>();
  const posts: PublishedPost[] = [];
  let decline = false;

  const graphError = (res: http.ServerResponse, status: number, message: string, code: number, subcode?: number) => {
    res.writeHead(status, { 'Content-Type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { message, type: 'OAuthException', code, ...(subcode && { error_subcode: subcode }), fbtrace_id: randomBytes(6).toString('hex') },
      }),
    );
  };
  const json = (res: http.ServerResponse, body: unknown) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const issue = (userId: string, long: boolean) => {
    const token = `IG${long ? 'AA' : 'QQ'}${randomBytes(24).toString('base64url')}`;
    tokens.set(token, { userId, long });
    return token;
  };

  async function fetchImage(imageUrl: string) {
    const got = await axios.get<ArrayBuffer>(imageUrl, { responseType: 'arraybuffer', validateStatus: () => true, timeout: 10_000 });
    const image = Buffer.from(got.data);
    if (got.status !== 200 || !String(got.headers['content-type']).startsWith('image/jpeg') || image[0] !== 0xff || image[1] !== 0xd8) return null;
    const { width = 0, height = 0, format } = await sharp(image).metadata();
    return format === 'jpeg' ? { image, width, height } : null;
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse, raw: string) {
    const url = new URL(req.url ?? '/', 'http://standin');
    const form = new URLSearchParams(raw);
    const param = (name: string) => form.get(name) ?? url.searchParams.get(name) ?? '';
    const tokenOf = () => tokens.get(param('access_token'));

    if (req.method === 'GET' && url.pathname === '/oauth/authorize') {
      const redirect = new URL(param('redirect_uri'));
      const scopes = param('scope').split(',');
      if (param('client_id') !== STANDIN_APP.appId || param('response_type') !== 'code' || !SCOPES.every((scope) => scopes.includes(scope))) {
        return graphError(res, 400, 'Invalid platform app', 100);
      }
      if (decline) {
        redirect.search = new URLSearchParams({
          error: 'access_denied',
          error_reason: 'user_denied',
          error_description: 'The user denied your request.',
        }).toString();
      } else {
        const code = randomBytes(20).toString('base64url');
        codes.set(code, { redirectUri: param('redirect_uri') });
        redirect.search = new URLSearchParams({ code, state: param('state') }).toString();
      }
      res.writeHead(302, { Location: `${redirect.toString()}#_` });
      return res.end();
    }
    if (req.method === 'POST' && url.pathname === '/oauth/access_token') {
      const code = codes.get(param('code'));
      codes.delete(param('code'));
      if (param('client_id') !== STANDIN_APP.appId || param('client_secret') !== STANDIN_APP.appSecret || param('grant_type') !== 'authorization_code') {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error_type: 'OAuthException', code: 400, error_message: 'Invalid client_secret' }));
      }
      if (!code || code.redirectUri !== param('redirect_uri')) {
        res.writeHead(400, { 'Content-Type': 'application/json' });
        return res.end(JSON.stringify({ error_type: 'OAuthException', code: 400, error_message: 'Error validating verification code.' }));
      }
      return json(res, { data: [{ access_token: issue(account.userId, false), user_id: account.userId, permissions: SCOPES.join(',') }] });
    }
    if (req.method === 'GET' && url.pathname === '/access_token') {
      const token = tokenOf();
      if (param('grant_type') !== 'ig_exchange_token' || param('client_secret') !== STANDIN_APP.appSecret)
        return graphError(res, 400, 'Unsupported grant type', 100);
      if (!token || token.long) return graphError(res, 400, 'Invalid OAuth access token - Cannot parse access token', 190);
      return json(res, { access_token: issue(token.userId, true), token_type: 'bearer', expires_in: 5_184_000 });
    }
    if (req.method === 'GET' && url.pathname === '/refresh_access_token') {
      const token = tokenOf();
      if (param('grant_type') !== 'ig_refresh_token') return graphError(res, 400, 'Unsupported grant type', 100);
      if (!token?.long) return graphError(res, 400, 'Invalid OAuth access token - Cannot parse access token', 190);
      return json(res, { access_token: issue(token.userId, true), token_type: 'bearer', expires_in: 5_184_000 });
    }

    const graph = /^\/v19\.0\/([^/]+)(?:\/([a-z_]+))?$/.exec(url.pathname);
    if (!graph) return graphError(res, 404, 'Unknown path components', 2500);
    const token = tokenOf();
    if (!token?.long) return graphError(res, 400, 'Invalid OAuth access token - Cannot parse access token', 190);
    const [, node, edge] = graph;
    if (req.method === 'GET' && node === 'me' && !edge) return json(res, { user_id: account.userId, username: account.username, id: account.userId });
    if (req.method === 'POST' && edge === 'media') {
      if (node !== token.userId) return graphError(res, 400, 'Unsupported post request', 100, 33);
      const caption = param('caption');
      if (caption.length > 2200) return graphError(res, 400, 'The caption is too long', 100, 2207008);
      const fetched = await fetchImage(param('image_url'));
      if (!fetched) return graphError(res, 400, 'Only photo or video can be accepted as media type.', 9004, 2207052);
      const ratio = fetched.width / fetched.height;
      if (ratio < 0.8 - 1e-3 || ratio > 1.91 + 1e-3) return graphError(res, 400, 'The aspect ratio is not supported.', 36003, 2207009);
      const id = String(18_000_000_000_000_000n + BigInt(containers.size + 1));
      containers.set(id, { userId: node, caption, ...fetched, published: false });
      return json(res, { id });
    }
    if (req.method === 'POST' && edge === 'media_publish') {
      const container = containers.get(param('creation_id'));
      if (!container || container.userId !== node) return graphError(res, 400, 'The media is not found', 9007, 2207027);
      if (container.published) return graphError(res, 400, 'The media has already been published', 9007, 2207006);
      container.published = true;
      const mediaId = String(17_900_000_000_000_000n + BigInt(posts.length + 1));
      posts.push({ mediaId, userId: node, caption: container.caption, image: container.image, width: container.width, height: container.height });
      return json(res, { id: mediaId });
    }
    if (req.method === 'GET' && !edge) {
      const container = containers.get(node!);
      if (container) return json(res, { status_code: container.published ? 'PUBLISHED' : 'FINISHED', id: node });
      const post = posts.find((p) => p.mediaId === node);
      if (post) return json(res, { permalink: `https://www.instagram.com/p/${Buffer.from(post.mediaId).toString('base64url').slice(0, 11)}/`, id: node });
    }
    return graphError(res, 400, `Unsupported ${req.method} request`, 100);
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      answer(req, res, Buffer.concat(chunks).toString('utf8')).catch((err: unknown) => graphError(res, 500, String(err), 1));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    /** The app's Instagram configuration pointed at this stand-in, made by loadConfig from the INSTAGRAM_* variables. */
    appConfig: () =>
      loadConfig({
        NODE_ENV: 'test',
        JWT_SECRET: TEST_JWT_SECRET,
        DATA_DIR: os.tmpdir(),
        INSTAGRAM_APP_ID: STANDIN_APP.appId,
        INSTAGRAM_APP_SECRET: STANDIN_APP.appSecret,
        INSTAGRAM_AUTHORIZE_URL: `${url}/oauth/authorize`,
        INSTAGRAM_API_URL: url,
        INSTAGRAM_GRAPH_URL: `${url}/v19.0`,
      }).instagram!,
    account,
    posts,
    /** Every token issued so far (to look for them where they must not be). */
    issuedTokens: () => [...tokens.keys()],
    /** The member declines on the consent page (or accepts again). */
    setDecline(value: boolean) {
      decline = value;
    },
    /** Every token stops working, as when the member removes the app from their Instagram settings. */
    revokeAll() {
      tokens.clear();
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type InstagramStandIn = Awaited<ReturnType<typeof startInstagramStandIn>>;
