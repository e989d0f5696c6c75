/**
 * The first paint (lib/firstPaint.ts) of the feeds' public pages, drawn as the app draws them
 * (client/src/features/explore, features/profile, features/content-detail): Explore's first pieces, a member's
 * profile with theirs, and a shared piece. A card is drawn with its image, title and owner: the image is what a
 * phone shows largest, at the size the app's grid gives it.
 */
import type { Schemas } from '../../lib/openapi-types';
import { escapeHtml, firstPaintPage, type Visitor } from '../../lib/firstPaint';
import { publicPages } from '../../lib/public-pages';
import type { FeedsService } from './feeds.service';

/** As many pieces as the first screens show: the phone's first three rows, a wide screen's first row. */
const FIRST_CARDS = 6;
/** The first row loads its images at once and first, as the app's grid does (ContentGrid's FIRST_ROW). */
const EAGER_CARDS = 2;
/** The page size the app asks Explore's feed for (client lib/feeds.ts FEED_PAGE_SIZE): the same cached page. */
const FEED_PAGE_SIZE = 24;
/** The card image's sizes, as the app's cards give them (components/content/ContentCard.tsx). */
const CARD_SIZES = '(max-width: 599.98px) 50vw, (max-width: 767.98px) 33vw, 240px';

const ownerName = (piece: Schemas['Content']) => piece.ownerName || piece.ownerUsername.replace(/_/g, ' ');

function card(piece: Schemas['Content'], eager: boolean): string {
  const medium = piece.mthumbPath || piece.thumbPath;
  const srcset = piece.thumbPath && piece.mthumbPath ? ` srcset="${escapeHtml(piece.thumbPath)} 240w, ${escapeHtml(piece.mthumbPath)} 640w"` : '';
  const loading = eager ? 'fetchpriority="high"' : 'loading="lazy"';
  return [
    `<li><article class="kn-card" data-type="${piece.type}">`,
    `<a class="kn-card__media" href="${escapeHtml(piece.link)}" tabindex="-1" aria-hidden="true">`,
    `<img src="${escapeHtml(medium)}"${srcset} sizes="${CARD_SIZES}" alt="" width="640" height="640" ${loading}></a>`,
    `<div class="kn-card__body"><h3 class="kn-card__title"><a href="${escapeHtml(piece.link)}">${escapeHtml(piece.title)}</a></h3>`,
    `<a class="kn-card__owner" href="/${escapeHtml(piece.ownerUsername)}">${escapeHtml(ownerName(piece))}</a></div>`,
    '</article></li>',
  ].join('');
}

function cardGrid(pieces: readonly Schemas['Content'][], label: string): string {
  if (!pieces.length) return '';
  return `<ul class="kn-grid" aria-label="${escapeHtml(label)}">${pieces.map((piece, index) => card(piece, index < EAGER_CARDS)).join('')}</ul>`;
}

/** Explore as it opens (no tag, tab or artist chosen): its heading and the first featured pieces. */
export async function exploreFirstPaint(feeds: FeedsService, visitor: Visitor): Promise<string> {
  const { contents } = await feeds.feed({ kind: 'featured', limit: FEED_PAGE_SIZE });
  return firstPaintPage(
    [
      '<div class="kn-explore"><header class="kn-page-head"><h1 class="kn-page-title">Explore</h1>',
      '<p class="kn-page-sub">Music, art and photos from independent creators, paid for every play and view.</p></header>',
      cardGrid(contents.slice(0, FIRST_CARDS), 'Featured pieces'),
      '</div>',
    ].join(''),
    visitor,
  );
}

/** A member's profile: their name, and their first public pieces (of the type the address names). */
export async function profileFirstPaint(
  feeds: FeedsService,
  member: { username: string; name: string; bio: string },
  type: Schemas['Content']['type'] | undefined,
  visitor: Visitor,
): Promise<string> {
  // What a visitor sees of the member's pieces is the same for every visitor: kept like the public feeds (cleared by
  // every write to a piece), so a profile's page does not read the member's pieces twice, here and in the app.
  const { contents } = await publicPages.get(`profile-first-paint:${member.username}:${type ?? ''}`, () =>
    feeds.byUsername(member.username, undefined, type, undefined, FIRST_CARDS),
  );
  return firstPaintPage(
    [
      '<div class="kn-first-paint__profile"><header class="kn-page-head">',
      `<h1 class="kn-page-title">${escapeHtml(member.name)}</h1><p class="kn-page-sub">@${escapeHtml(member.username)}</p>`,
      member.bio ? `<p>${escapeHtml(member.bio)}</p>` : '',
      '</header>',
      cardGrid(contents, `${member.name}: pieces`),
      '</div>',
    ].join(''),
    visitor,
  );
}

/** A shared piece before the app opens it: its cover as large as the piece's window shows it, its title, owner and description. */
export function pieceFirstPaint(piece: Schemas['Content'], visitor: Visitor): string {
  return firstPaintPage(
    [
      '<article class="kn-first-paint__piece">',
      `<img class="kn-first-paint__cover" src="${escapeHtml(piece.hthumbPath)}" alt="${escapeHtml(piece.title)}" fetchpriority="high">`,
      `<div class="kn-first-paint__about"><h1 class="kn-page-title">${escapeHtml(piece.title)}</h1>`,
      `<p class="kn-page-sub">by <a href="/${escapeHtml(piece.ownerUsername)}">${escapeHtml(ownerName(piece))}</a></p>`,
      piece.description ? `<p>${escapeHtml(piece.description)}</p>` : '',
      '</div></article>',
    ].join(''),
    visitor,
  );
}
