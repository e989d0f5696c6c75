/**
 * Link previews: the Open Graph and Twitter tags a chat app or social site reads from the HTML of a shared
 * piece (`/{username}-{title slug}`) or profile (`/{username}`). A piece is described only when the API shows it to
 * a visitor who is not signed in (canView, the rule of the API's reads: public, and not taken down by an admin). A path with a
 * member's former username is answered with a permanent move to the same path under their name now, so that
 * crawlers and the links posted elsewhere follow the member.
 */
import { PATTERNS } from '../../../generated/validation';
import type { Schemas } from '../../lib/openapi-types';
import { canView, type ContentsService, pieceAtLink } from '../contents';
import { resolveUsername, type UserDoc } from '../users';
import { escapeHtml } from '../../lib/html';
import type { Visitor } from '../../lib/firstPaint';
import { pieceFirstPaint, profileFirstPaint } from './feeds.firstPaint';
import type { FeedsService } from './feeds.service';

export interface LinkPreview {
  title: string;
  description: string;
  url: string;
  type: 'music.song' | 'article' | 'profile';
  image?: string;
  audio?: { url: string; type: string };
  /** What the page shows before the app runs (lib/firstPaint.ts). */
  firstPaint?: string;
}

const CONTENT_LINK = /^\/([a-z0-9_.]+)-([^/]+)\/?$/;
const PROFILE_LINK = /^\/([a-z0-9_.]+)(?:\/(music|art|photos))?\/?$/;
const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Where a page has moved: the same page under the member's username now. */
export interface PageMoved {
  movedTo: string;
}

/**
 * `pathname` with its first segment's username (the whole segment, or the part before its first '-') replaced by
 * `username`; the rest is kept as it came.
 */
function withUsername(pathname: string, username: string): string {
  const [, first = '', ...rest] = pathname.split('/');
  const dash = first.indexOf('-');
  return ['', dash < 0 ? username : `${username}${first.slice(dash)}`, ...rest].join('/');
}

/**
 * The move of a path whose username (lower-cased) is a former name of `member`, or null when it is their name now.
 * The app's own screens (`/explore`, `/activity-history`) never move, whatever names members had.
 */
function moveOf(pathname: string, username: string, member: UserDoc): PageMoved | null {
  const firstSegment = decodeURIComponent(pathname).toLowerCase().split('/')[1] ?? '';
  if (member.username === username || PATTERNS.appScreens.test(firstSegment)) return null;
  return { movedTo: withUsername(pathname, member.username) };
}

export function createLinkPreviews(contents: ContentsService, feeds: FeedsService, publicUrl: string) {
  const absolute = (url: string) => (url.startsWith('/') ? `${publicUrl}${url}` : url);

  function ofContent(piece: Schemas['Content'], visitor: Visitor): LinkPreview {
    const owner = piece.ownerName || piece.ownerUsername.replace(/_/g, ' ');
    return {
      firstPaint: pieceFirstPaint(piece, visitor),
      title: `${piece.title} by ${owner} | Knack`,
      description: clip(piece.description, 200),
      url: absolute(piece.link),
      type: piece.isAudio ? 'music.song' : 'article',
      image: absolute(piece.hthumbPath),
      ...(piece.isAudio ? { audio: { url: absolute(piece.filePath), type: piece.fileType } } : {}),
    };
  }

  return async function previewFor(pathname: string, visitor: Visitor = { userAgent: '' }): Promise<LinkPreview | PageMoved | null> {
    const path = decodeURIComponent(pathname).toLowerCase();
    const link = CONTENT_LINK.exec(path);
    if (link && !path.endsWith('-music-top-50')) {
      // Only the piece whose link this is now gets a preview; a former name's link moves to the name now.
      const found = await pieceAtLink(link[1]!, link[2]!);
      const piece = found?.ownerUsername === link[1] ? found : null;
      if (piece) return (await canView(piece, undefined)) ? ofContent(await contents.dto(piece, null), visitor) : null;
      const owner = await resolveUsername(link[1]!);
      return owner && moveOf(pathname, link[1]!, owner);
    }
    const profile = PROFILE_LINK.exec(path);
    if (!profile) return null;
    const user = await resolveUsername(profile[1]!);
    if (!user) return null;
    const moved = moveOf(pathname, profile[1]!, user);
    if (moved) return moved;
    const name = user.fullName || user.username.replace(/_/g, ' ');
    const type = profile[2] as Schemas['Content']['type'] | undefined;
    return {
      firstPaint: await profileFirstPaint(feeds, { username: user.username, name, bio: user.bio ?? '' }, type, visitor),
      title: `${name} (@${user.username}) | Knack`,
      description: clip(user.bio || `${name} on Knack: ${user.contentsCount} pieces of music, art and photos.`, 200),
      url: absolute(`/${user.username}`),
      type: 'profile',
      ...(user.image ? { image: absolute(user.image) } : {}),
    };
  };
}

/** The `<head>` tags of a preview. */
export function previewTags(preview: LinkPreview): string {
  const tags: [string, string, string][] = [
    ['property', 'og:site_name', 'Knack'],
    ['property', 'og:type', preview.type],
    ['property', 'og:title', preview.title],
    ['property', 'og:description', preview.description],
    ['property', 'og:url', preview.url],
    ['name', 'twitter:card', preview.image ? 'summary_large_image' : 'summary'],
    ['name', 'twitter:title', preview.title],
    ['name', 'twitter:description', preview.description],
    ['name', 'description', preview.description],
  ];
  if (preview.image) tags.push(['property', 'og:image', preview.image], ['name', 'twitter:image', preview.image]);
  if (preview.audio) tags.push(['property', 'og:audio', preview.audio.url], ['property', 'og:audio:type', preview.audio.type]);
  return [`<title>${escapeHtml(preview.title)}</title>`, ...tags.map(([attr, key, value]) => `<meta ${attr}="${key}" content="${escapeHtml(value)}">`)].join(
    '\n    ',
  );
}
