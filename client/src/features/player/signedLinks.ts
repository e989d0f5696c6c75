/**
 * Files of pieces that are not public (followers only, private) come through signed links that open the file for
 * a few minutes only, so that a listener who stops following an artist soon loses their files too. A song lasts
 * longer than that, and a queue or a grid may be older: the player renews a song's link through the piece's
 * detail call when it starts a song whose link has ended, and when the audio fails on a signed link (the browser
 * asks for more of the file as it plays or seeks), then goes on from where the song was.
 */

/** When a signed link (`…?exp={unix seconds}&sig=…`) stops opening its file, in ms; null for a link that does not end. */
export function linkEnd(url: string): number | null {
  const query = url.split('?')[1];
  if (!query) return null;
  const params = new URLSearchParams(query);
  const exp = params.get('exp');
  return exp && /^\d+$/.test(exp) && params.has('sig') ? Number(exp) * 1000 : null;
}

/** A link that ends within this margin is renewed before a song starts on it: its first bytes must come before the end. */
export const LINK_MARGIN_MS = 30_000;

/**
 * A renewed link that fails again within this time failed for another reason (the piece was made private, the
 * listener unfollowed): the player then reports the failure rather than renew again.
 */
export const RENEW_AGAIN_AFTER_MS = 60_000;

/** Whether the link needs renewing before a song starts on it. */
export const linkEnding = (url: string, now = Date.now()) => {
  const end = linkEnd(url);
  return end !== null && end - now <= LINK_MARGIN_MS;
};

/** The same file through either link (a renewed link of the loaded song is not another song). */
export const sameFile = (loaded: string | null, src: string) => loaded !== null && loaded.split('?')[0] === src.split('?')[0];
