import { useId } from 'react';
import { Link } from 'react-router-dom';
import { PATHS } from '../lib/constants';

/** The Knack mark and wordmark, linking home. */
export function Logo({ inverse = false, className = '' }: { inverse?: boolean; className?: string }) {
  const gradientId = `kn-logo-${useId().replace(/:/g, '')}`;
  return (
    <Link to={PATHS.home} className={`kn-logo${inverse ? ' kn-logo--inverse' : ''} ${className}`.trim()} aria-label="Knack home">
      <svg className="kn-logo__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
        <defs>
          <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#6d4cff" />
            <stop offset="1" stopColor="#4526d9" />
          </linearGradient>
        </defs>
        <rect width="64" height="64" rx="16" fill={`url(#${gradientId})`} />
        <path d="M21 15h8v14.5L40.5 15H50L37.2 30.4 51 49h-9.8l-9.4-13.1L29 39.2V49h-8z" fill="#fff" />
        <circle cx="49" cy="15" r="5" fill="#f77f00" />
      </svg>
      <span className="kn-logo__word">knack</span>
    </Link>
  );
}
