/**
 * The CMS's Markdown as the pages show it: rendered on the server, so that visitors download no Markdown parser, and
 * sanitised as it is rendered, so that what an editor writes (or what reaches the database by any other way) can
 * only ever be text, headings, lists, quotes, code, tables, images and links.
 *
 * markdown-it (CommonMark) renders with raw HTML turned off and refuses `javascript:` and similar links itself;
 * sanitize-html then keeps an allow-list of elements and attributes whatever the renderer produced, and marks links
 * that leave the site to open apart and carry no referrer or endorsement.
 */
import MarkdownIt from 'markdown-it';
import sanitizeHtml from 'sanitize-html';

const markdown = new MarkdownIt({ html: false, linkify: true, typographer: false });

const ALLOWED: sanitizeHtml.IOptions = {
  allowedTags: [
    'h2',
    'h3',
    'h4',
    'p',
    'br',
    'hr',
    'strong',
    'em',
    's',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
  ],
  allowedAttributes: { a: ['href', 'title', 'target', 'rel'], img: ['src', 'alt', 'title'], th: ['align'], td: ['align'], ol: ['start'] },
  allowedSchemes: ['https', 'http', 'mailto'],
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  // A page's own title is its h1: a heading the editor starts with `#` reads as the next level.
  transformTags: {
    h1: 'h2',
    a: (tagName, attribs) => {
      const external = /^(https?:)?\/\//i.test(attribs.href ?? '');
      return { tagName, attribs: external ? { ...attribs, target: '_blank', rel: 'noopener noreferrer nofollow' } : attribs };
    },
  },
};

/** The HTML of `source` (Markdown), safe to put in a page as it is. */
export function renderMarkdown(source: string): string {
  return sanitizeHtml(markdown.render(source), ALLOWED);
}
