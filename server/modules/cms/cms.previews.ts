/**
 * What the HTML of the content pages and the blog carries before the app runs: the first paint (lib/firstPaint.ts)
 * of How It Works, Earn, the User Guide, the blog's list and a post, drawn as the app's pages draw them
 * (client/src/features/cms), and a post's link preview: the Open Graph and Twitter tags a chat app or social site
 * reads from the page's HTML. Only a published post is shown or described.
 */
import { escapeHtml, firstPaintPage, longDay, type Visitor } from '../../lib/firstPaint';
import { NativePostModel, type NativePostDoc } from './cms.model';
import { renderMarkdown } from './cms.markdown';
import { getPage, listPublishedPosts } from './cms.service';

/** A post's address: its slug is lower-case words joined by hyphens (the contract's Slug). */
const POST_LINK = /^\/blog\/([a-z0-9]+(?:-[a-z0-9]+)*)\/?$/;
const BLOG = /^\/blog\/?$/;
/** The content pages: the page's address, then the key of one of its sections. */
const PAGE_LINK = /^\/(become|earning|user-guide)(?:\/([a-z0-9-]+))?\/?$/;
/** The key that shows every section of a page at once (How It Works' "Everyone"). */
const ALL_KEYS: Partial<Record<string, string>> = { become: 'all' };

export interface BlogPostPreview {
  title: string;
  description: string;
  url: string;
  type: 'article';
}

export interface CmsPageHtml {
  firstPaint: string;
  /** A blog post's link preview. */
  preview?: BlogPostPreview;
}

const section = (key: string, title: string, html: string) =>
  `<section class="kn-cms__section" aria-labelledby="kn-fp-${escapeHtml(key)}"><h2 id="kn-fp-${escapeHtml(key)}" class="kn-cms__section-title">${escapeHtml(title)}</h2><div class="kn-article">${html}</div></section>`;

/** A content page with the section its address names (every section at the page's "all" key, or with none). */
async function contentPage(id: 'become' | 'earning' | 'user-guide', key: string | undefined): Promise<string> {
  const page = await getPage(id);
  const allKey = ALL_KEYS[id];
  const showAll = allKey !== undefined && (key === undefined || key === allKey);
  const chosen = showAll ? [] : [page.sections.find((candidate) => candidate.key === key) ?? page.sections[0]].filter((s) => s !== undefined);
  const tabs = [...(allKey ? [{ key: allKey, title: 'Everyone' }] : []), ...page.sections]
    .map((tab) => {
      const current = showAll ? tab.key === allKey : tab.key === chosen[0]?.key;
      return `<a class="kn-cms__tab${current ? ' is-active' : ''}" href="/${id}/${escapeHtml(tab.key)}"${current ? ' aria-current="page"' : ''}>${escapeHtml(tab.title)}</a>`;
    })
    .join('');
  return [
    '<div class="kn-cms"><header class="kn-cms__head">',
    `<h1 class="kn-page-title">${escapeHtml(page.title)}</h1>`,
    page.description ? `<p class="kn-page-sub">${escapeHtml(page.description)}</p>` : '',
    `</header><nav class="kn-cms__tabs" aria-label="${escapeHtml(page.title)}: sections">${tabs}</nav>`,
    ...(showAll ? page.sections : chosen).map((shown) => section(shown.key, shown.title, shown.html)),
    '</div>',
  ].join('');
}

async function blogList(): Promise<string> {
  const { posts } = await listPublishedPosts({ limit: 10 });
  const items = posts
    .map(
      (post) =>
        `<li class="kn-blog__item"><h2 class="kn-blog__item-title"><a href="/blog/${post.slug}">${escapeHtml(post.title)}</a></h2>` +
        `<time class="kn-cms__muted" datetime="${post.publishedAt}">${longDay(new Date(post.publishedAt))}</time>` +
        (post.excerpt ? `<p>${escapeHtml(post.excerpt)}</p>` : '') +
        '</li>',
    )
    .join('');
  return [
    '<div class="kn-cms"><header class="kn-cms__head"><h1 class="kn-page-title">The Knack blog</h1>',
    '<p class="kn-page-sub">News from Knack, and how creators of music, art and photos get paid for every play and view.</p></header>',
    `<ol class="kn-blog__list" aria-label="Posts">${items}</ol></div>`,
  ].join('');
}

async function blogPost(slug: string, publicUrl: string, visitor: Visitor, now: Date): Promise<CmsPageHtml | null> {
  const post = await NativePostModel.findOne({ slug, status: 'published' }).lean<NativePostDoc>();
  if (!post || !post.publishedAt || post.publishedAt > now) return null;
  const firstPaint = [
    '<article class="kn-cms"><a class="kn-back-link" href="/blog">← All posts</a>',
    `<header class="kn-cms__head"><h1 class="kn-page-title">${escapeHtml(post.title)}</h1>`,
    `<time class="kn-cms__muted" datetime="${post.publishedAt.toISOString()}">${longDay(post.publishedAt)}</time></header>`,
    `<div class="kn-article">${renderMarkdown(post.body)}</div></article>`,
  ].join('');
  return {
    firstPaint: firstPaintPage(firstPaint, visitor),
    preview: { title: `${post.title} | Knack`, description: post.excerpt || post.title, url: `${publicUrl}/blog/${slug}`, type: 'article' },
  };
}

/** The HTML of the content page or blog page at `pathname`, or null when the path is none of theirs. */
export async function cmsPageHtml(pathname: string, publicUrl: string, visitor: Visitor, now = new Date()): Promise<CmsPageHtml | null> {
  const slug = POST_LINK.exec(pathname)?.[1];
  if (slug) return blogPost(slug, publicUrl, visitor, now);
  if (BLOG.test(pathname)) return { firstPaint: firstPaintPage(await blogList(), visitor) };
  const page = PAGE_LINK.exec(pathname);
  if (!page) return null;
  return { firstPaint: firstPaintPage(await contentPage(page[1] as 'become' | 'earning' | 'user-guide', page[2]), visitor) };
}
