/**
 * Built-in page metadata, used when the CMS call fails. The only place these defaults live.
 */
import type { MetaPage, PageMeta } from './cms.types';

const SITE = 'Knack';
const DESCRIPTION = 'Knack pays creators of music, art and photos for every play and view: a knack from $0.05, 90% to the creator and 10% to the supporter.';

const TITLES: Record<MetaPage, string> = {
  meta: 'Knack: get paid for every play and view',
  home: 'Knack: get paid for every play and view',
  earn: 'Earn with Knack',
  become: 'How Knack works',
  explore: 'Explore music, art and photos on Knack',
};

export function defaultPageMeta(page: MetaPage): PageMeta {
  const title = TITLES[page];
  return {
    page,
    title,
    meta: [
      { property: 'description', content: DESCRIPTION },
      { property: 'keywords', content: 'knack, music, art, photos, creators, get paid per play, NFT, Stellar' },
    ],
    facebook: [
      { property: 'og:site_name', content: SITE },
      { property: 'og:type', content: 'website' },
      { property: 'og:title', content: title },
      { property: 'og:description', content: DESCRIPTION },
    ],
    twitter: [
      { property: 'twitter:card', content: 'summary_large_image' },
      { property: 'twitter:title', content: title },
      { property: 'twitter:description', content: DESCRIPTION },
    ],
  };
}
