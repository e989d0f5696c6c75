/**
 * A Knack member in the player. Their knacks made here count and pay as any other (the same calls, the server's same
 * rules), and carry the site that framed the player. A frame on another site cannot use the member's Knack session:
 * browsers keep a third-party frame's storage apart from Knack's own and send it no SameSite cookie. So the player
 * borrows it: "Sign in to knack" opens a small Knack window (this page with `?connect=1`), a first-party page that has
 * the session, which renews it (alone among Knack's pages: the refresh token rotates), keeps it as the app does, posts
 * the access token to the player that opened it (to Knack's own origin only, so no other page can receive it) and
 * closes. Where the frame does see Knack's storage (the share modal's preview, a page on Knack's own site), the account
 * kept there is used at once.
 */
import type { components } from '../../../generated/openapi';
import { loadAccount, saveAccount, withSessionLock } from '../lib/storedAccount';
import { renewSession } from './embed.api';

export interface EmbedMember {
  token: string;
  userId: string;
  /** What the player calls them: their first name, else their username. */
  name: string;
}

const MEMBER_MESSAGE = 'knack:embed-member';
const WINDOW_NAME = 'knack-member';
const WINDOW_FEATURES = 'popup,width=480,height=640';

const memberOf = (user: components['schemas']['User'], token: string): EmbedMember | null =>
  user.isActive ? { token, userId: user.id, name: user.firstName || user.username } : null;

/** The member whose account this page can read (same-site frames and Knack's own pages), or null. */
export function storedMember(): EmbedMember | null {
  const account = loadAccount();
  return account ? memberOf(account.user, account.token) : null;
}

let listening: ((event: MessageEvent) => void) | null = null;

/**
 * Opens the Knack window that hands the member's session back; `onMember` gets it. False when the window could not open
 * (a host page may forbid pop-ups to its frames).
 */
export function borrowSession(onMember: (member: EmbedMember) => void): boolean {
  const popup = window.open(`${window.location.pathname}?connect=1`, WINDOW_NAME, WINDOW_FEATURES);
  if (!popup) return false;
  if (listening) window.removeEventListener('message', listening);
  listening = (event: MessageEvent) => {
    if (event.origin !== window.location.origin || event.source !== popup) return;
    const data = event.data as Partial<EmbedMember & { type: string }> | null;
    if (data?.type !== MEMBER_MESSAGE || typeof data.token !== 'string' || typeof data.userId !== 'string' || typeof data.name !== 'string') return;
    window.removeEventListener('message', listening!);
    listening = null;
    onMember({ token: data.token, userId: data.userId, name: data.name });
  };
  window.addEventListener('message', listening);
  return true;
}

/** What the Knack window shows: a line, and a link to follow when there is one. */
export type WindowNote = (message: string, link?: { href: string; label: string }) => void;

/** The Knack window's work (see above): renews the session and hands it to the player that opened it. */
export async function handBackSession(show: WindowNote): Promise<void> {
  const player = window.opener as Window | null;
  if (!player) return show('Open this window from a Knack player.');
  const answer = await withSessionLock(renewSession).catch(() => null);
  const member = answer?.user && answer.token ? memberOf(answer.user, answer.token) : null;
  if (!answer?.user || !answer.token || !member) {
    return show('You are not signed in on Knack. Sign in, then press “Sign in to knack” in the player again.', {
      href: '/auth/login',
      label: 'Sign in on Knack',
    });
  }
  saveAccount({ user: answer.user, token: answer.token });
  player.postMessage({ type: MEMBER_MESSAGE, ...member }, window.location.origin);
  show(`Signed in as ${member.name}: your plays in the player knack now. You can close this window.`);
  window.close();
}
