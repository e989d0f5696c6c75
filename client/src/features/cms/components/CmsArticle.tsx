import type { MouseEvent } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * HTML that the server rendered from an editor's Markdown and sanitised (only text, headings, lists, quotes, code,
 * tables, images and links). A link to a page of this site moves within the app instead of loading the page again.
 */
export function CmsArticle({ html, className }: { html: string; className?: string }) {
  const navigate = useNavigate();
  const followInApp = (event: MouseEvent<HTMLDivElement>) => {
    const link = (event.target as HTMLElement).closest('a');
    const href = link?.getAttribute('href');
    if (!href || !href.startsWith('/') || href.startsWith('//') || href.endsWith('.html')) return;
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    void navigate(href);
  };
  // Sanitised on the server as it was rendered (server/modules/cms/cms.markdown.ts).
  return <div className={['kn-article', className].filter(Boolean).join(' ')} onClick={followInApp} dangerouslySetInnerHTML={{ __html: html }} />;
}
