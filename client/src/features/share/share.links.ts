/**
 * What the share modal makes: the piece's share URL, each site's share
 * intent for it, and the embed snippet of the player page from the option mask and a size.
 */

/** A piece as the share modal needs it. */
export interface SharedPiece {
  id: string;
  title: string;
  ownerUsername: string;
  /** The artist's name as shown (the username when they have none). */
  ownerName?: string;
  /** The share path from the API, `/{ownerUsername}-{title slug}`. */
  link: string;
  coverPath?: string;
}

/** The piece's share link: `{host}/{ownerUsername}-{title lowercased, spaces to hyphens}`. */
export const shareUrlOf = (origin: string, piece: Pick<SharedPiece, 'link'>) => `${origin}${piece.link}`;

export type ShareSite = 'twitter' | 'facebook' | 'tumblr' | 'pinterest' | 'email' | 'instagram';

export const SHARE_SITES: readonly { site: ShareSite; label: string }[] = [
  { site: 'twitter', label: 'Twitter' },
  { site: 'facebook', label: 'Facebook' },
  { site: 'tumblr', label: 'Tumblr' },
  { site: 'pinterest', label: 'Pinterest' },
  { site: 'email', label: 'Email' },
  { site: 'instagram', label: 'Instagram' },
];

const q = encodeURIComponent;

/**
 * The site's own share page for `url` (opened in a new tab), a mailto: for email; null for Instagram, which
 * has no share page on the web (the link is copied instead).
 */
export function shareIntent(site: ShareSite, url: string, piece: Pick<SharedPiece, 'title'>, imageUrl?: string): string | null {
  const text = `${piece.title} on Knack`;
  switch (site) {
    case 'twitter':
      return `https://twitter.com/intent/tweet?url=${q(url)}&text=${q(text)}`;
    case 'facebook':
      return `https://www.facebook.com/sharer/sharer.php?u=${q(url)}`;
    case 'tumblr':
      return `https://www.tumblr.com/widgets/share/tool?canonicalUrl=${q(url)}&title=${q(text)}`;
    case 'pinterest':
      return `https://www.pinterest.com/pin/create/button/?url=${q(url)}&description=${q(text)}${imageUrl ? `&media=${q(imageUrl)}` : ''}`;
    case 'email':
      return `mailto:?subject=${q(text)}&body=${q(`${text}: ${url}`)}`;
    case 'instagram':
      return null;
  }
}

/** Embed options, a bit mask: which parts the player page shows, and what each does, as the Embed tab says it. */
export const EMBED_OPTIONS = [
  { bit: 1, label: 'Header', help: 'The title and the artist’s name above the player.' },
  { bit: 2, label: 'Footer', help: 'Knack’s name and a link to the piece on Knack below the player.' },
  { bit: 4, label: 'Slideshow', help: 'While a song plays, the artist’s other pieces’ pictures take turns with its cover.' },
  { bit: 8, label: 'Quintos', help: 'Up next: the artist’s next five songs, which the player plays one after another.' },
] as const;
export const DEFAULT_EMBED_MASK = 7;

export const EMBED_SIZES = [
  { key: 'large', label: 'Large', width: 1024, height: 768 },
  { key: 'medium', label: 'Medium', width: 640, height: 480 },
  { key: 'small', label: 'Small', width: 400, height: 300 },
] as const;
export type EmbedSizeKey = (typeof EMBED_SIZES)[number]['key'];

/** The player page's address: `{host}/music-player.html?userName={ownerUsername}&contentId={id}&options={mask}`. */
export const embedUrlOf = (origin: string, piece: Pick<SharedPiece, 'id' | 'ownerUsername'>, mask: number) =>
  `${origin}/music-player.html?userName=${q(piece.ownerUsername)}&contentId=${q(piece.id)}&options=${mask}`;

const attribute = (value: string) => value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The iframe to paste into another site. */
export function embedSnippet(origin: string, piece: Pick<SharedPiece, 'id' | 'ownerUsername' | 'title'>, mask: number, size: EmbedSizeKey): string {
  const { width, height } = EMBED_SIZES.find((s) => s.key === size)!;
  return (
    `<iframe src="${embedUrlOf(origin, piece, mask)}" width="${width}" height="${height}" ` +
    `title="${attribute(`${piece.title} on Knack`)}" frameborder="0" allow="autoplay; encrypted-media" loading="lazy"></iframe>`
  );
}
