import type { ReactNode } from 'react';

/** A page's head: its icon and title (the page's one h1), and an optional line under it. */
export function PageHead({ icon, title, sub }: { icon: ReactNode; title: string; sub?: ReactNode }) {
  return (
    <header className="kn-page-head">
      <h1 className="kn-page-title">
        {icon} {title}
      </h1>
      {sub ? <p className="kn-page-sub">{sub}</p> : null}
    </header>
  );
}
