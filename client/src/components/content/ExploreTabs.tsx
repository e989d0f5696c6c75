import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { EXPLORE_TABS, type FeedKind } from '../../lib/feeds';
import './content.css';

export interface ExploreTabsProps {
  active: FeedKind;
  onChange: (kind: FeedKind) => void;
  /** The active tab's panel (the feed). */
  children?: ReactNode;
  /** Shown at the end of the tab bar (a "View all" link). */
  extra?: ReactNode;
}

/** Keys that move between tabs (the WAI-ARIA tabs pattern): by one either way, or to either end. */
const STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

/**
 * Popular, Featured, Trending, On the Radar; the active tab's panel holds the feed. A tablist drawn by our own CSS
 * (it is on the pages a visit starts on, which load no antd): the arrow keys, Home and End move between the tabs and
 * choose them, and only the chosen tab is in the Tab order.
 */
export function ExploreTabs({ active, onChange, children, extra }: ExploreTabsProps) {
  const id = useId();
  const tabs = useRef<(HTMLButtonElement | null)[]>([]);
  const tabId = (kind: FeedKind) => `${id}-tab-${kind}`;
  const onKeyDown = (event: KeyboardEvent) => {
    const step = STEPS[event.key];
    if (!step) return;
    event.preventDefault();
    const next = step(
      EXPLORE_TABS.findIndex((tab) => tab.kind === active),
      EXPLORE_TABS.length,
    );
    tabs.current[next]?.focus();
    onChange(EXPLORE_TABS[next]!.kind);
  };
  return (
    <div className="kn-explore-tabs">
      <div className="kn-explore-tabs__bar">
        <div className="kn-explore-tabs__list" role="tablist" aria-label="Feeds" onKeyDown={onKeyDown}>
          {EXPLORE_TABS.map(({ kind, label }, index) => (
            <button
              key={kind}
              ref={(element) => {
                tabs.current[index] = element;
              }}
              type="button"
              role="tab"
              id={tabId(kind)}
              className="kn-explore-tabs__tab"
              aria-selected={kind === active}
              aria-controls={`${id}-panel`}
              tabIndex={kind === active ? 0 : -1}
              onClick={() => onChange(kind)}
            >
              {label}
            </button>
          ))}
        </div>
        {extra ? <div className="kn-explore-tabs__extra">{extra}</div> : null}
      </div>
      <div className="kn-explore-tabs__panel" role="tabpanel" id={`${id}-panel`} aria-labelledby={tabId(active)}>
        {children}
      </div>
    </div>
  );
}
