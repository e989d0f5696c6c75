/**
 * What a single-segment path names. Usernames never contain '-' (only letters, digits, '_' and
 * '.'), so: `{name}-music-top-50` is an artist's Top 50 chart; any other segment with a '-' is a content
 * share link `{ownerUsername}-{title slug}` (username before the first '-', slug after); a segment without
 * one is a public profile. The app's fixed screens (explore, pricing, …) are never read as one of these.
 */
import { PATTERNS } from '../../../generated/validation';
import { PATHS } from './constants';
import type { TagType } from './tags';

/** The one route pattern of the single-segment screens (profile, share link, Top 50), with an optional second segment. */
export const SEGMENT_PATH = '/:segment/:sub?';

export type SegmentTarget = { kind: 'top50'; name: string } | { kind: 'content'; username: string; slug: string } | { kind: 'profile'; username: string };

const TOP50_SUFFIX = '-music-top-50';

const USERNAME = /^[A-Za-z0-9_.]{1,30}$/;

const TAG_TYPES: readonly TagType[] = ['music', 'art', 'photos'];

export function isTagType(value: string | undefined): value is TagType {
  return TAG_TYPES.includes(value as TagType);
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Reads one path segment (decoded or not); null when it names none of the three. */
export function parseSegment(raw: string | undefined): SegmentTarget | null {
  if (!raw) return null;
  const segment = decode(raw);
  // The app's own screens (explore, pricing, …), never a profile or a share link, even before they are built.
  if (PATTERNS.appScreens.test(segment.toLowerCase())) return null;
  if (segment.endsWith(TOP50_SUFFIX)) {
    const name = segment.slice(0, -TOP50_SUFFIX.length);
    return USERNAME.test(name) ? { kind: 'top50', name } : null;
  }
  const dash = segment.indexOf('-');
  if (dash < 0) return USERNAME.test(segment) ? { kind: 'profile', username: segment } : null;
  const username = segment.slice(0, dash);
  const slug = segment.slice(dash + 1);
  return USERNAME.test(username) && slug ? { kind: 'content', username, slug } : null;
}

/** The segments of a path (`/a/b` → ['a', 'b']). */
const segmentsOf = (pathname: string) => pathname.split('/').filter(Boolean);

/** The target of a whole path of one or two segments, with the second one: a type, or the Top 50's user id. */
export function parsePath(pathname: string): (SegmentTarget & { sub?: string }) | null {
  const [first, sub, ...rest] = segmentsOf(pathname);
  if (rest.length) return null;
  const target = parseSegment(first);
  if (!target) return null;
  if (sub === undefined) return target;
  // Profiles and share links take a content type; the Top 50 takes a user id.
  if (target.kind !== 'top50' && !isTagType(sub)) return null;
  return { ...target, sub };
}

/** The public profile path, optionally filtered by type: `/{username}` or `/{username}/{type}`. */
export function profilePath(username: string, type?: TagType): string {
  return type ? `${PATHS.profile(username)}/${type}` : PATHS.profile(username);
}

/** Two paths are the same page (one may be percent-encoded, the other not). */
export function samePath(a: string, b: string): boolean {
  return decode(a).replace(/\/+$/, '') === decode(b).replace(/\/+$/, '');
}
