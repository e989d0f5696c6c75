import type { Schemas } from '../../lib/openapi-types';
import { renderMarkdown } from './cms.markdown';
import type { NativePostDoc, PageMetaDoc, PageUiDoc } from './cms.model';

const items = (list: { property: string; content: string }[]) => list.map(({ property, content }) => ({ property, content }));

export function toPageMetaDto(doc: PageMetaDoc): Schemas['PageMeta'] {
  return { page: doc.page, title: doc.title, meta: items(doc.meta), facebook: items(doc.facebook), twitter: items(doc.twitter) };
}

export function toPageUiDto(doc: PageUiDoc): Schemas['PageUi'] {
  return {
    name: doc.name,
    sections: doc.sections.map((s) => ({ title: s.title, entries: s.entries.map(({ name, link }) => ({ name, link })) })),
    updatedAt: doc.updatedAt.toISOString(),
  };
}

export function toNativePostDto(doc: NativePostDoc): Schemas['NativePost'] {
  return {
    id: String(doc._id),
    slug: doc.slug,
    title: doc.title,
    excerpt: doc.excerpt,
    body: doc.body,
    html: renderMarkdown(doc.body),
    publishedAt: (doc.publishedAt ?? new Date(0)).toISOString(),
  };
}
