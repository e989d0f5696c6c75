import type { MetaItem, PageMeta } from './cms.types';

const MANAGED = 'data-knack-meta';

/**
 * Applies page metadata to the document: the title, `meta` and `twitter` items as <meta name=...>,
 * `facebook` (Open Graph) items as <meta property=...>. Tags from a previous page are replaced.
 */
export function applyPageMeta(pageMeta: PageMeta, doc: Document = document): void {
  if (pageMeta.title) doc.title = pageMeta.title;
  doc.head.querySelectorAll(`meta[${MANAGED}]`).forEach((node) => node.remove());
  const write = (attribute: 'name' | 'property', items: readonly MetaItem[]) => {
    for (const item of items) {
      if (!item.property) continue;
      const selector = `meta[${attribute}="${cssEscape(item.property)}"]`;
      let node = doc.head.querySelector<HTMLMetaElement>(selector);
      if (!node) {
        node = doc.createElement('meta');
        node.setAttribute(attribute, item.property);
        node.setAttribute(MANAGED, '');
        doc.head.appendChild(node);
      }
      node.setAttribute('content', item.content);
    }
  };
  write('name', pageMeta.meta);
  write('property', pageMeta.facebook);
  write('name', pageMeta.twitter);
}

function cssEscape(value: string): string {
  return typeof CSS !== 'undefined' && typeof CSS.escape === 'function' ? CSS.escape(value) : value.replace(/["\\]/g, '\\$&');
}
