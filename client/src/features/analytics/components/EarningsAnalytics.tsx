import { useMemo, useState } from 'react';
import { Link } from 'react-router-dom';
import AutoComplete from 'antd/es/auto-complete';
import Select from 'antd/es/select';
import Skeleton from 'antd/es/skeleton';
import { useGetEarningsAnalyticsQuery } from '../../../api/generated/endpoints';
import type { GetEarningsAnalyticsResult } from '../../../api/generated/operations';
import { formatUsd } from '../../../components/format';
import { PATHS } from '../../../lib/constants';
import type { TagType } from '../../../lib/tags';
import { useHasKnownPlan } from '../../subscriptions';
import { useTags } from '../../tags';
import { dayLabel, EarningsDonut, EarningsLine } from './EarningsCharts';
import { EmbedHostsTable } from './EmbedHostsTable';
import './earnings-analytics.css';

type Period = 'week' | 'month';
type AnalyticsTag = GetEarningsAnalyticsResult['topTags'][number];

const CATEGORIES: { value: TagType; label: string }[] = [
  { value: 'music', label: 'Music' },
  { value: 'photos', label: 'Photos' },
  { value: 'art', label: 'Art' },
];
const PERIODS: { value: Period; label: string }[] = [
  { value: 'week', label: 'PAST WEEK' },
  { value: 'month', label: 'PAST MONTH' },
];

/** A price's last daily move, as the market shows it: ▲ up, ▼ down, or unchanged. */
function Rate({ rate }: { rate: number }) {
  const direction = rate > 0 ? 'up' : rate < 0 ? 'down' : 'flat';
  const text = `${rate > 0 ? '+' : ''}${rate.toFixed(2)}%`;
  return (
    <span className={`kn-rate kn-rate--${direction}`} aria-label={`${direction === 'flat' ? 'unchanged' : direction} ${Math.abs(rate).toFixed(2)}% today`}>
      {direction === 'up' ? '▲' : direction === 'down' ? '▼' : '–'} {text}
    </span>
  );
}

/** The category's tags, most knacked first: what one knack is worth in each now, its price and its last move. */
function TopTags({ tags, chosen, onChoose }: { tags: AnalyticsTag[]; chosen: string | undefined; onChoose: (tag: AnalyticsTag) => void }) {
  return (
    <section className="kn-earnings__tags" aria-labelledby="kn-earnings-tags">
      <h3 id="kn-earnings-tags" className="kn-earnings__subtitle">
        Top tags
      </h3>
      <ol className="kn-earnings__tag-list">
        {tags.map((tag) => (
          <li key={tag.id}>
            <button type="button" className="kn-earnings__tag" aria-pressed={tag.id === chosen} onClick={() => onChoose(tag)}>
              <span className="kn-earnings__tag-name">{tag.label}</span>
              <span className="kn-earnings__tag-price">{formatUsd(tag.knackPrice)} a knack</span>
              <Rate rate={tag.rate} />
            </button>
          </li>
        ))}
      </ol>
    </section>
  );
}

/**
 * The earnings analytics: a search box over the tags (with suggestions), the category (Music, Photos, Art) and the
 * period (the past week or month), the category's top tags with their prices and moves, a donut of the member's
 * earnings by tag (the three that earned most, then Other) and a line of their earnings by day beside the chosen
 * tag's price, then where their embeds earn (plays and earnings by embedding site) over the same period. For members on
 * a listed plan; others are told what a plan brings and where to get one.
 */
export function EarningsAnalytics({ userId }: { userId: string }) {
  const onPlan = useHasKnownPlan();
  const [period, setPeriod] = useState<Period>('week');
  const [type, setType] = useState<TagType>('music');
  const [tagId, setTagId] = useState<string | undefined>();
  const [search, setSearch] = useState('');
  const { tags } = useTags();
  const figures = useGetEarningsAnalyticsQuery({ path: { id: userId }, query: { period, type, ...(tagId ? { tagId } : {}) } }, { skip: !onPlan });
  const suggestions = useMemo(() => {
    const text = search.trim().toLowerCase();
    return tags
      .filter((tag) => !text || tag.label.toLowerCase().includes(text))
      .slice(0, 8)
      .map((tag) => ({ value: tag.id, label: `${tag.label} · ${CATEGORIES.find((one) => one.value === tag.type)?.label ?? tag.type}` }));
  }, [tags, search]);

  if (onPlan === undefined) return <Skeleton active paragraph={{ rows: 6 }} />;
  if (!onPlan) {
    return (
      <div className="kn-earnings kn-earnings--locked">
        <p>
          Earnings analytics come with a plan: see what each of your tags earns, how its price moves with plays and views, and when a listing fee pays back.{' '}
          <Link to={PATHS.pricing}>See the plans</Link>.
        </p>
      </div>
    );
  }

  // The labels follow the figures shown (the last answer stays while the next question loads), not the dropdown.
  const labelOf = (value: TagType) => CATEGORIES.find((one) => one.value === value)?.label ?? value;
  /** A tag chosen for the line: from the search (any category: the category follows it) or from the top tags. */
  const chooseTag = (id: string, label: string, ofType: TagType) => {
    setType(ofType);
    setTagId(id);
    setSearch(label);
  };
  const chooseFound = (id: string) => {
    const tag = tags.find((one) => one.id === id);
    if (tag) chooseTag(tag.id, tag.label, tag.type);
  };
  const data = figures.data;
  const categoryLabel = labelOf(data?.type ?? type);
  return (
    <div className="kn-earnings">
      <div className="kn-earnings__controls">
        <AutoComplete
          className="kn-earnings__search"
          value={search}
          options={suggestions}
          onSearch={setSearch}
          onChange={(value: string) => setSearch(tags.find((tag) => tag.id === value)?.label ?? value)}
          onSelect={(value: string) => chooseFound(value)}
          placeholder="Search a tag"
          aria-label="Search a tag"
          allowClear
          onClear={() => setTagId(undefined)}
        />
        <Select
          className="kn-earnings__select"
          value={type}
          options={CATEGORIES}
          aria-label="Category"
          onChange={(value: TagType) => {
            setType(value);
            setTagId(undefined);
            setSearch('');
          }}
        />
        <Select className="kn-earnings__select" value={period} options={PERIODS} aria-label="Period" onChange={(value: Period) => setPeriod(value)} />
      </div>
      {!data ? (
        <Skeleton active paragraph={{ rows: 8 }} />
      ) : (
        <>
          <p className="kn-earnings__total" aria-live="polite" aria-busy={figures.isFetching}>
            <strong>{formatUsd(data.earned)}</strong> from {data.knacks} {data.knacks === 1 ? 'knack' : 'knacks'} in {categoryLabel}, {dayLabel(data.from)} to{' '}
            {dayLabel(data.to)}
            {data.countedAt ? (
              <span className="kn-earnings__counted">
                {' '}
                · counted {new Date(data.countedAt).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })}
              </span>
            ) : null}
          </p>
          <div className="kn-earnings__grid">
            <TopTags tags={data.topTags} chosen={data.tag?.id} onChoose={(tag) => chooseTag(tag.id, tag.label, type)} />
            <EarningsDonut figures={data} categoryLabel={categoryLabel} />
          </div>
          <EarningsLine figures={data} categoryLabel={categoryLabel} />
          <EmbedHostsTable userId={userId} period={period} headingLevel={3} />
        </>
      )}
    </div>
  );
}
