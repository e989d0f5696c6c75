import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export function isExternalLink(link: string): boolean {
  return /^(https?:)?\/\//i.test(link);
}

/**
 * A footer link: external URLs open in a new tab (rel noopener), mailto/tel and static .html pages are plain
 * anchors, product paths go through the router.
 */
export function FooterLink({ link, children, className, label }: { link: string; children: ReactNode; className?: string; label?: string }) {
  if (isExternalLink(link)) {
    return (
      <a href={link} target="_blank" rel="noopener noreferrer" className={className} aria-label={label}>
        {children}
      </a>
    );
  }
  if (/^(mailto|tel):/i.test(link) || /\.html?(\?|#|$)/i.test(link) || !link.startsWith('/')) {
    return (
      <a href={link} className={className} aria-label={label}>
        {children}
      </a>
    );
  }
  return (
    <Link to={link} className={className} aria-label={label}>
      {children}
    </Link>
  );
}
