import type { ReactNode } from 'react';
import Tabs from 'antd/es/tabs';
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

/** Popular, Featured, Trending, On the Radar; the active tab's panel holds the feed. */
export function ExploreTabs({ active, onChange, children, extra }: ExploreTabsProps) {
  return (
    <Tabs
      className="kn-explore-tabs"
      activeKey={active}
      onChange={(key) => onChange(key as FeedKind)}
      tabBarExtraContent={extra ? { right: extra } : undefined}
      items={EXPLORE_TABS.map(({ kind, label }) => ({ key: kind, label, children: kind === active ? children : null }))}
    />
  );
}
