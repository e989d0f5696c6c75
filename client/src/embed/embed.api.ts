/**
 * The player's calls to the public API, with `fetch` (no HTTP library: the page stays a few KB). Each play and knack
 * carries the address of the page that framed the player (its `document.referrer`: the frame's own calls carry the
 * player's address, not the host page's), from which the server keeps the site the play is counted under.
 */
import type { components } from '../../../generated/openapi';
import type { Content } from '../lib/content';

const JSON_HEADERS = { Accept: 'application/json', 'Content-Type': 'application/json' };

/** The framing page's address, as the host page's referrer policy lets the browser tell it ('' when withheld). */
const framingPage = () => document.referrer;

/** A call's failure: the server's message and status. */
export class CallFailed extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

async function call<T>(path: string, init: RequestInit & { token?: string } = {}): Promise<T> {
  const { token, ...rest } = init;
  const response = await fetch(`/api/v2${path}`, {
    ...rest,
    headers: { ...JSON_HEADERS, ...(token ? { Authorization: `Bearer ${token}` } : {}) },
  });
  const body = (await response.json().catch(() => null)) as (T & { message?: string }) | null;
  if (!response.ok || body === null) throw new CallFailed(body?.message ?? 'Something went wrong. Please try again.', response.status);
  return body;
}

/** The piece, when it exists, is public and belongs to `userName` (the API refuses private pieces). */
export async function loadPiece(contentId: string, userName: string): Promise<Content | null> {
  const { content } = await call<{ content: Content }>(`/content/get-by-id/${contentId}`);
  return content.ownerUsername.toLowerCase() === userName.toLowerCase() ? content : null;
}

/**
 * The artist's public pieces, newest first: one page of the public feed (`new`, by owner), which the server keeps and
 * answers in front of the app for every visitor alike. `songs` keeps to Music.
 */
export async function artistPieces(ownerId: string, { songs, limit }: { songs: boolean; limit: number }): Promise<Content[]> {
  const query = new URLSearchParams({ ownerId, limit: String(limit), ...(songs ? { tag: 'Music' } : {}) });
  return (await call<{ contents: Content[] }>(`/content/get-by-kind/new?${query.toString()}`)).contents;
}

/** One embed play of the piece (once per visitor and day on the server); the play count as this visitor may see it. */
export const countPlay = (contentId: string, token?: string) =>
  call<{ playCount: number | null; counted: boolean }>('/content/react', {
    method: 'POST',
    token,
    body: JSON.stringify({ contentId, embedReferrer: framingPage() }),
  });

/** A signed-in member starts a song: the server measures half of it from now. */
export const startPlay = (contentId: string, token: string) =>
  call<{ playId: string; minSeconds: number }>('/knack/play', { method: 'POST', token, body: JSON.stringify({ contentId }) });

export interface KnackAnswer {
  message: string;
  earnedMicros: number;
}

/** The member's knack of the piece (a song's with its play session), as any knack on Knack. */
export const addKnack = (member: { token: string; userId: string }, contentId: string, playId?: string) =>
  call<KnackAnswer>('/knack/add', {
    method: 'POST',
    token: member.token,
    body: JSON.stringify({ contentId, userId: member.userId, ...(playId ? { playId } : {}), embedReferrer: framingPage() }),
  });

/** The member's session renewed with Knack's refresh cookie (only a Knack window, not a frame on another site, has it). */
export const renewSession = () => call<components['schemas']['AuthResponse']>('/auth/check-loggedin', { method: 'POST', body: '{}' });
