/**
 * Local stand-ins for the sign-in providers, on loopback, speaking their real formats:
 * Google's federated-signon key set ({ kid: PEM }) for RS256 ID tokens, and Facebook's Graph API
 * (`/debug_token`, `/me`).
 */
import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import jwt from 'jsonwebtoken';

async function serve(handler: http.RequestListener) {
  const server = http.createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

export async function startGoogleStandIn(clientId: string) {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const kid = 'knack-test-key-1';
  const pem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const server = await serve((req, res) => {
    if (req.url?.startsWith('/oauth2/v1/certs')) {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'public, max-age=3600' });
      res.end(JSON.stringify({ [kid]: pem }));
      return;
    }
    res.writeHead(404).end();
  });
  return {
    certsUrl: `${server.url}/oauth2/v1/certs`,
    stop: server.stop,
    /** An ID token as Google Identity Services hands it to the browser. */
    idToken(claims: Record<string, unknown>, options: { audience?: string; key?: typeof privateKey; expiresIn?: number } = {}) {
      return jwt.sign(
        { iss: 'https://accounts.google.com', email_verified: true, ...claims },
        (options.key ?? privateKey).export({ type: 'pkcs8', format: 'pem' }),
        { algorithm: 'RS256', keyid: kid, audience: options.audience ?? clientId, expiresIn: options.expiresIn ?? 3600 },
      );
    },
    otherKey: () => generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey,
  };
}

export interface FacebookUser {
  id: string;
  email?: string;
  first_name: string;
  last_name: string;
  appId: string;
}

export async function startFacebookStandIn(appId: string, appSecret: string) {
  const tokens = new Map<string, FacebookUser>();
  const server = await serve((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (url.pathname === '/v19.0/debug_token') {
      if (url.searchParams.get('access_token') !== `${appId}|${appSecret}`)
        return send(400, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      const user = tokens.get(url.searchParams.get('input_token') ?? '');
      return send(200, {
        data: user
          ? { app_id: user.appId, type: 'USER', is_valid: true, user_id: user.id }
          : { is_valid: false, error: { code: 190, message: 'Invalid token' } },
      });
    }
    if (url.pathname === '/v19.0/me') {
      const user = tokens.get(url.searchParams.get('access_token') ?? '');
      if (!user) return send(400, { error: { message: 'Invalid OAuth access token.', type: 'OAuthException', code: 190 } });
      const { appId: _app, ...profile } = user;
      return send(200, { ...profile, name: `${user.first_name} ${user.last_name}`, picture: { data: { url: `https://graph.example/${user.id}.jpg` } } });
    }
    send(404, { error: { message: 'Unknown path' } });
  });
  return {
    graphUrl: `${server.url}/v19.0`,
    stop: server.stop,
    issueToken(user: FacebookUser): string {
      const token = `EAAB${Math.random().toString(36).slice(2)}${Date.now()}`;
      tokens.set(token, user);
      return token;
    },
  };
}
