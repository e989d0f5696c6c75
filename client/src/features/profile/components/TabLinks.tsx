import { Link } from 'react-router-dom';

export interface TabLink {
  key: string;
  label: string;
  to: string;
}

/** A row of links that act as tabs over a list (each its own address, so it can be shared and reloaded). */
export function TabLinks({ label, items, active }: { label: string; items: TabLink[]; active: string }) {
  return (
    <nav className="kn-tab-links" aria-label={label}>
      {items.map((item) => (
        <Link
          key={item.key}
          to={item.to}
          className={item.key === active ? 'kn-tab-links__item is-active' : 'kn-tab-links__item'}
          aria-current={item.key === active ? 'page' : undefined}
        >
          {item.label}
        </Link>
      ))}
    </nav>
  );
}
