/**
 * Instagram's API with Instagram Login, the calls Knack makes to post a piece's image to a member's professional
 * account:
 * - the consent page (`/oauth/authorize`), which sends the member back with a one-time code;
 * - the code exchanged for a short-lived token (`api.instagram.com/oauth/access_token`), then for a long-lived one
 *   (60 days, `graph.instagram.com/access_token`, grant `ig_exchange_token`), which is refreshed before it ends;
 * - publishing, in two steps: a media container made from a public JPEG address and a caption (`/{user}/media`),
 *   then published (`/{user}/media_publish`); Instagram fetches the image itself between the two.
 * Errors come back as `{ error: { message, type, code, error_subcode } }`; `InstagramError` keeps the code, so a
 * caller can tell an ended token (190) from a refused image.
 */
import axios, { AxiosError } from 'axios';
import type { InstagramConfig } from '../../config';

/** Scopes a professional account grants Knack: reading who it is, and publishing to it. */
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish'] as const;

/** Graph API error codes that mean the token no longer works (ended, revoked, or the app removed by the member). */
const TOKEN_ENDED_CODES = new Set([190, 102]);

export class InstagramError extends Error {
  constructor(
    message: string,
    readonly code: number | null,
    readonly subcode: number | null,
  ) {
    super(message);
    this.name = 'InstagramError';
  }

  /** The member must connect their account again. */
  get tokenEnded(): boolean {
    return this.code !== null && TOKEN_ENDED_CODES.has(this.code);
  }
}

interface GraphErrorBody {
  error?: { message?: string; code?: number; error_subcode?: number } | string;
  error_message?: string;
  code?: number;
}

const TIMEOUT_MS = 15_000;

/** Any failure of a call in one shape: Instagram's own error when it sent one, else what went wrong on the way. */
function asInstagramError(err: unknown): InstagramError {
  if (err instanceof InstagramError) return err;
  if (err instanceof AxiosError) {
    const body = err.response?.data as GraphErrorBody | undefined;
    const inner = typeof body?.error === 'object' ? body.error : undefined;
    if (inner) return new InstagramError(inner.message ?? 'Instagram refused the call.', inner.code ?? null, inner.error_subcode ?? null);
    // The token exchange answers errors in an older, flat shape.
    if (body?.error_message) return new InstagramError(body.error_message, body.code ?? null, null);
    return new InstagramError(
      err.response ? `Instagram answered ${err.response.status}.` : `Instagram could not be reached (${err.code ?? err.message}).`,
      null,
      null,
    );
  }
  return new InstagramError(err instanceof Error ? err.message : String(err), null, null);
}

const call = async <T>(request: () => Promise<{ data: T }>): Promise<T> => {
  try {
    return (await request()).data;
  } catch (err) {
    throw asInstagramError(err);
  }
};

export interface InstagramToken {
  accessToken: string;
  /** When it ends. */
  expiresAt: Date;
}

export type ContainerStatus = 'FINISHED' | 'IN_PROGRESS' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';

export function instagramGraph(config: Pick<InstagramConfig, 'appId' | 'appSecret' | 'authorizeUrl' | 'apiUrl' | 'graphUrl'>) {
  const form = (fields: Record<string, string>) => new URLSearchParams(fields);

  return {
    /** Where the member is sent to grant Knack its scopes; Instagram sends them back to `redirectUri` with `code` and `state`. */
    authorizeUrl(redirectUri: string, state: string): string {
      const url = new URL(config.authorizeUrl);
      url.search = new URLSearchParams({
        client_id: config.appId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: INSTAGRAM_SCOPES.join(','),
        state,
      }).toString();
      return url.toString();
    },

    /** The one-time code for a long-lived token, and the account it speaks for. */
    async exchangeCode(code: string, redirectUri: string): Promise<InstagramToken & { userId: string }> {
      const short = await call(() =>
        axios.post<{ access_token?: string; user_id?: string | number; data?: { access_token: string; user_id: string | number }[] }>(
          `${config.apiUrl}/oauth/access_token`,
          form({ client_id: config.appId, client_secret: config.appSecret, grant_type: 'authorization_code', redirect_uri: redirectUri, code }),
          { timeout: TIMEOUT_MS },
        ),
      );
      // Answered flat by the API's first versions, and inside `data` by later ones.
      const granted = short.data?.[0] ?? short;
      if (!granted.access_token || granted.user_id === undefined) throw new InstagramError('Instagram did not grant a token.', null, null);
      const long = await call(() =>
        axios.get<{ access_token: string; expires_in: number }>(`${originOf(config.graphUrl)}/access_token`, {
          params: { grant_type: 'ig_exchange_token', client_secret: config.appSecret, access_token: granted.access_token },
          timeout: TIMEOUT_MS,
        }),
      );
      return { userId: String(granted.user_id), accessToken: long.access_token, expiresAt: new Date(Date.now() + long.expires_in * 1000) };
    },

    /** A long-lived token renewed for another 60 days (allowed once it is a day old, and before it ends). */
    async refresh(accessToken: string): Promise<InstagramToken> {
      const long = await call(() =>
        axios.get<{ access_token: string; expires_in: number }>(`${originOf(config.graphUrl)}/refresh_access_token`, {
          params: { grant_type: 'ig_refresh_token', access_token: accessToken },
          timeout: TIMEOUT_MS,
        }),
      );
      return { accessToken: long.access_token, expiresAt: new Date(Date.now() + long.expires_in * 1000) };
    },

    /** The account's id and username. */
    async me(accessToken: string): Promise<{ userId: string; username: string }> {
      const me = await call(() =>
        axios.get<{ user_id?: string; id: string; username: string }>(`${config.graphUrl}/me`, {
          params: { fields: 'user_id,username', access_token: accessToken },
          timeout: TIMEOUT_MS,
        }),
      );
      return { userId: String(me.user_id ?? me.id), username: me.username };
    },

    /** Step one of a post: a container of the image at `imageUrl` (a public JPEG) with its caption. */
    async createImageContainer(userId: string, accessToken: string, imageUrl: string, caption: string): Promise<string> {
      const made = await call(() =>
        axios.post<{ id: string }>(
          `${config.graphUrl}/${encodeURIComponent(userId)}/media`,
          form({ image_url: imageUrl, caption, access_token: accessToken }),
          {
            timeout: TIMEOUT_MS,
          },
        ),
      );
      return made.id;
    },

    async containerStatus(containerId: string, accessToken: string): Promise<{ status: ContainerStatus; detail: string }> {
      const status = await call(() =>
        axios.get<{ status_code: ContainerStatus; status?: string }>(`${config.graphUrl}/${encodeURIComponent(containerId)}`, {
          params: { fields: 'status_code,status', access_token: accessToken },
          timeout: TIMEOUT_MS,
        }),
      );
      return { status: status.status_code, detail: status.status ?? '' };
    },

    /** Step two: the container published as a post; its media id, and the post's address when Instagram gives it. */
    async publish(userId: string, accessToken: string, containerId: string): Promise<{ mediaId: string; permalink: string | null }> {
      const published = await call(() =>
        axios.post<{ id: string }>(
          `${config.graphUrl}/${encodeURIComponent(userId)}/media_publish`,
          form({ creation_id: containerId, access_token: accessToken }),
          { timeout: TIMEOUT_MS },
        ),
      );
      // The address is a nicety: the post is made whether or not it can be read back.
      const permalink = await call(() =>
        axios.get<{ permalink?: string }>(`${config.graphUrl}/${encodeURIComponent(published.id)}`, {
          params: { fields: 'permalink', access_token: accessToken },
          timeout: TIMEOUT_MS,
        }),
      ).then(
        (media) => media.permalink ?? null,
        () => null,
      );
      return { mediaId: published.id, permalink };
    },
  };
}

export type InstagramGraph = ReturnType<typeof instagramGraph>;

/** The Graph host without its version: the token calls are not versioned. */
const originOf = (graphUrl: string) => new URL(graphUrl).origin;
