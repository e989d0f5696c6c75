/** Verifies a provider's token on the server and answers the profile it vouches for. */
import axios from 'axios';
import { OAuth2Client } from 'google-auth-library';
import type { AuthConfig } from '../../config';
import { AppError } from '../../lib/errors';

export interface SocialProfile {
  provider: 'google' | 'facebook';
  providerId: string;
  /** Only an address the provider says is verified. */
  email: string | undefined;
  firstName: string;
  lastName: string;
  fullName: string;
  picture: string | undefined;
}

// Nothing is down: this server does not offer the provider at all (auth/providers says which buttons to show).
const notConfigured = (name: string) => new AppError(404, 'not_configured', `${name} sign-in is not offered on this server.`);
const rejected = (name: string) => new AppError(401, 'unauthorized', `${name} did not accept this sign-in. Please try again.`);

const googleClients = new Map<string, OAuth2Client>();

/** Checks the ID token's signature against Google's keys, its audience (our client id), issuer and expiry. */
export async function verifyGoogleCredential(config: AuthConfig, credential: string): Promise<SocialProfile> {
  const google = config.google;
  if (!google) throw notConfigured('Google');
  const key = `${google.clientId}|${google.certsUrl ?? ''}`;
  let client = googleClients.get(key);
  if (!client) {
    client = new OAuth2Client({
      clientId: google.clientId,
      // Node's own fetch, instead of gaxios loading node-fetch through a dynamic import.
      transporterOptions: { fetchImplementation: fetch },
      ...(google.certsUrl ? { endpoints: { oauth2FederatedSignonPemCertsUrl: google.certsUrl } } : {}),
    });
    googleClients.set(key, client);
  }
  let payload;
  try {
    payload = (await client.verifyIdToken({ idToken: credential, audience: google.clientId })).getPayload();
  } catch {
    throw rejected('Google');
  }
  if (!payload?.sub) throw rejected('Google');
  const firstName = payload.given_name ?? '';
  const lastName = payload.family_name ?? '';
  return {
    provider: 'google',
    providerId: payload.sub,
    email: payload.email && payload.email_verified ? payload.email.toLowerCase() : undefined,
    firstName,
    lastName,
    fullName: payload.name ?? `${firstName} ${lastName}`.trim(),
    picture: payload.picture,
  };
}

interface DebugToken {
  data?: { app_id?: string; is_valid?: boolean; user_id?: string };
}
interface GraphMe {
  id: string;
  name?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  picture?: { data?: { url?: string } };
}

/** Asks the Graph API whether the token was issued to our app and is valid, then reads the profile. */
export async function verifyFacebookToken(config: AuthConfig, accessToken: string, claimedUserId?: string): Promise<SocialProfile> {
  const facebook = config.facebook;
  if (!facebook) throw notConfigured('Facebook');
  let me: GraphMe;
  try {
    const { data: debug } = await axios.get<DebugToken>(`${facebook.graphUrl}/debug_token`, {
      params: { input_token: accessToken, access_token: `${facebook.appId}|${facebook.appSecret}` },
      timeout: 10_000,
    });
    if (!debug.data?.is_valid || debug.data.app_id !== facebook.appId || !debug.data.user_id) throw rejected('Facebook');
    if (claimedUserId && claimedUserId !== debug.data.user_id) throw rejected('Facebook');
    ({ data: me } = await axios.get<GraphMe>(`${facebook.graphUrl}/me`, {
      params: { fields: 'id,name,first_name,last_name,email,picture', access_token: accessToken },
      timeout: 10_000,
    }));
    if (me.id !== debug.data.user_id) throw rejected('Facebook');
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw rejected('Facebook');
  }
  return {
    provider: 'facebook',
    providerId: me.id,
    email: me.email?.toLowerCase(),
    firstName: me.first_name ?? '',
    lastName: me.last_name ?? '',
    fullName: me.name ?? `${me.first_name ?? ''} ${me.last_name ?? ''}`.trim(),
    picture: me.picture?.data?.url,
  };
}
