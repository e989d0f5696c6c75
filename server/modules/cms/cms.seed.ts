/**
 * The CMS content Knack ships with: the footer, page metadata, the content pages and two posts. Seeding inserts what is
 * missing and never overwrites what an editor has changed since.
 */
import type { Model } from 'mongoose';
import { PAGE_META_DEFAULTS } from '../../../generated/page-meta';
import { CmsPageModel, NativePostModel, PageMetaModel, PageUiModel } from './cms.model';
import { CMS_PAGES } from './cms.pages.seed';

const FOOTER = {
  name: 'footer',
  sections: [
    {
      title: 'SUPPORT',
      entries: [
        { name: 'FAQ', link: '/earning/faq' },
        { name: 'How It Works', link: '/become/all' },
        { name: 'User Guide', link: '/user-guide/introduction' },
        { name: 'Blog', link: '/blog' },
        { name: 'Pricing', link: '/pricing' },
        { name: 'Contact us', link: 'mailto:support@knack.example' },
      ],
    },
    {
      title: 'SOCIAL',
      entries: [
        { name: 'Twitter', link: 'https://twitter.com/knackapp' },
        { name: 'Facebook', link: 'https://www.facebook.com/knackapp' },
        { name: 'Instagram', link: 'https://www.instagram.com/knackapp' },
        { name: 'Pinterest', link: 'https://www.pinterest.com/knackapp' },
        { name: 'Tumblr', link: 'https://knackapp.tumblr.com' },
      ],
    },
    {
      title: 'TRENDING',
      entries: [
        { name: 'Hip Hop', link: '/explore/hip-hop' },
        { name: 'Digital Art', link: '/explore/digital-art' },
        { name: 'A.I. Art', link: '/explore/a-i-art' },
        { name: 'Travel', link: '/explore/travel' },
      ],
    },
    {
      title: 'MOST VIEWED',
      entries: [
        { name: 'Music', link: '/explore/music' },
        { name: 'Art', link: '/explore/art' },
        { name: 'Photos', link: '/explore/photos' },
        { name: 'Nature', link: '/explore/nature' },
      ],
    },
  ],
};

/** The built-in metadata, the same the client falls back to when the CMS cannot answer. */
const PAGE_METAS = Object.values(PAGE_META_DEFAULTS);

const POSTS = [
  {
    slug: 'how-knack-works',
    title: 'How Knack works',
    excerpt: 'Every play and view of a listed piece earns knack for its creator and its supporter.',
    body: [
      '## Upload',
      'Share your songs, art and photos under Music, Art or Photos and pick the sub-tag that fits.',
      '',
      '## List',
      'Pay a small listing fee (from $0.65) to monetize a piece. A subscription credit or a discount code can cover it.',
      '',
      '## Earn',
      'From then on every play or view by another signed-in member earns knack, from $0.05: 90% goes to the creator and 10% to the supporter who paid the listing fee.',
      '',
      '## Get paid',
      'Balances of $10 or more are paid out on the 1st of each month; the payment provider fee is deducted from the payout.',
    ].join('\n'),
  },
  {
    slug: 'what-is-a-knack',
    title: 'What is a knack?',
    excerpt: 'The K in Knack stands for knack: the small amount a piece earns each time it is played or viewed.',
    body: [
      'A knack is one play of a song or one view of an image by a signed-in member who is not its owner.',
      '',
      'Each tag has a price; a knack is worth 8% of it, at least $0.05. Premium tags such as Digital Art and Music 2 earn $0.99 a knack.',
      '',
      'A song counts once more than half of it has played.',
    ].join('\n'),
  },
];

async function insertMissing<T extends object>(model: Model<T>, key: keyof T & string, docs: T[], extra: Partial<T> = {}) {
  for (const doc of docs) {
    // `_id` is never set by the update itself: an upsert takes it from the filter.
    const fields: Record<string, unknown> = { ...doc, ...extra };
    if (key === '_id') delete fields._id;
    await model.updateOne({ [key]: doc[key] } as never, { $setOnInsert: fields } as never, { upsert: true });
  }
}

export async function seedCms(now = new Date()): Promise<void> {
  await insertMissing(PageUiModel as never, 'name', [FOOTER]);
  await insertMissing(PageMetaModel as never, 'page', PAGE_METAS);
  await insertMissing(NativePostModel as never, 'slug', POSTS, { status: 'published', publishedAt: now } as never);
  await insertMissing(CmsPageModel as never, '_id', CMS_PAGES as never[]);
}
