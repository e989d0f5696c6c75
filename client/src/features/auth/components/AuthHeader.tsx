import type { ReactNode } from 'react';

/** The title block of an auth modal: the Knack mark (not when compact), a title and one line under it. */
export function AuthHeader({ title, subtitle, step, compact = false }: { title: string; subtitle?: ReactNode; step?: string; compact?: boolean }) {
  return (
    <header className={compact ? 'kn-auth__header kn-auth__header--compact' : 'kn-auth__header'}>
      {compact ? null : (
        <svg className="kn-auth__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">
          <rect width="64" height="64" rx="16" fill="#5b3cf5" />
          <path d="M21 15h8v14.5L40.5 15H50L37.2 30.4 51 49h-9.8l-9.4-13.1L29 39.2V49h-8z" fill="#fff" />
          <circle cx="49" cy="15" r="5" fill="#f77f00" />
        </svg>
      )}
      {step ? <p className="kn-auth__step">{step}</p> : null}
      <h2 className="kn-auth__title" id="kn-auth-title">
        {title}
      </h2>
      {subtitle ? <p className="kn-auth__subtitle">{subtitle}</p> : null}
    </header>
  );
}
