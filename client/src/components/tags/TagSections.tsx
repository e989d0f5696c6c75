import { memo } from 'react';
import { Link } from 'react-router-dom';
import { Button } from '../button';
import ArrowRightOutlined from '@ant-design/icons/es/icons/ArrowRightOutlined';
import ReloadOutlined from '@ant-design/icons/es/icons/ReloadOutlined';
import WarningOutlined from '@ant-design/icons/es/icons/WarningOutlined';
import { PATHS } from '../../lib/constants';
import { compactCount } from '../format';
import { typeStyle } from '../../lib/tagColors';
import { DEFAULT_KNACK_PRICE, formatKnackPrice, formatKnackPricePer, knackUnit } from '../../lib/formatKnackPrice';
import type { LoadStatus, Tag, TagGroup, TagType } from '../../lib/tags';
import { TypeIcon } from './TypeIcon';
import './tags.css';

export interface TagSectionsProps {
  status: LoadStatus;
  groups: TagGroup[];
  error?: string | null;
  onRetry: () => void;
}

const BLURB: Record<TagType, string> = {
  music: 'Songs, beats and instrumentals from independent artists.',
  art: 'Digital, A.I., pixel, fractal and fantasy art.',
  photos: 'Cars, travel, people, nature and everything in between.',
};

function SubTagCard({ tag, type }: { tag: Tag; type: TagType }) {
  const premium = tag.knackPrice > DEFAULT_KNACK_PRICE;
  const unit = knackUnit(type);
  return (
    <li>
      <Link className={premium ? 'kn-subtag kn-subtag--premium' : 'kn-subtag'} to={PATHS.exploreTag(tag.slug)}>
        {premium ? <span className="kn-subtag__badge">Top rate</span> : null}
        <span className="kn-subtag__name">{tag.name}</span>
        <span className="kn-subtag__meta">
          <span className="kn-type-pill kn-subtag__price">{formatKnackPricePer(tag.knackPrice, type)}</span>
          {tag.totalReactedCount > 0 ? (
            <span className="kn-subtag__count">
              {compactCount(tag.totalReactedCount)} {unit}s
            </span>
          ) : null}
        </span>
      </Link>
    </li>
  );
}

function TagSection({ group }: { group: TagGroup }) {
  const { type, main, subTags } = group;
  const headingId = `kn-tags-${main.slug}`;
  const lowest = subTags.length ? Math.min(...subTags.map((tag) => tag.knackPrice)) : main.knackPrice;
  return (
    <section className="kn-tag-section" style={typeStyle(type)} aria-labelledby={headingId} data-type={type}>
      <div className="kn-tag-section__head">
        <span className="kn-tag-section__icon">
          <TypeIcon type={type} />
        </span>
        <h2 id={headingId} className="kn-tag-section__title">
          {main.name}
        </h2>
        <p className="kn-tag-section__desc">
          {BLURB[type]}{' '}
          <strong>
            From {formatKnackPrice(lowest)} every {knackUnit(type)}.
          </strong>
        </p>
        <Link className="kn-type-pill kn-tag-section__more" to={PATHS.exploreTag(main.slug)}>
          Explore {main.name} <ArrowRightOutlined aria-hidden />
        </Link>
      </div>
      {subTags.length ? (
        <ul className="kn-subtag-grid" aria-label={`${main.name} sub-tags`}>
          {subTags.map((tag) => (
            <SubTagCard key={tag.id} tag={tag} type={type} />
          ))}
        </ul>
      ) : (
        <p className="kn-tag-section__empty">No {main.name.toLowerCase()} categories yet.</p>
      )}
    </section>
  );
}

function LoadingSections() {
  const types: TagType[] = ['music', 'art', 'photos'];
  return (
    <div className="kn-tags" role="status" aria-busy="true" aria-label="Loading tags">
      {types.map((type) => (
        <section key={type} className="kn-tag-section kn-tag-section--loading" style={typeStyle(type)}>
          <div className="kn-tag-section__head">
            <span className="kn-tag-section__icon">
              <TypeIcon type={type} />
            </span>
            <span className="kn-tag-section__skeleton" aria-hidden>
              <span className="kn-skeleton-line kn-skeleton-line--title" />
              <span className="kn-skeleton-line" />
            </span>
          </div>
          <div className="kn-subtag-grid">
            {Array.from({ length: type === 'art' ? 5 : 8 }, (_, index) => (
              <span key={index} className="kn-subtag-skeleton" />
            ))}
          </div>
        </section>
      ))}
    </div>
  );
}

function TagSectionsView({ status, groups, error, onRetry }: TagSectionsProps) {
  if (status === 'failed') {
    return (
      <div className="kn-tags-error" role="alert">
        <WarningOutlined className="kn-tags-error__icon" aria-hidden />
        <div>
          <h2>We couldn’t load the categories</h2>
          <p>{error || 'Something went wrong while loading Music, Art and Photos.'}</p>
        </div>
        <Button kind="primary" icon={<ReloadOutlined />} onClick={onRetry}>
          Retry
        </Button>
      </div>
    );
  }
  if (status !== 'loaded') return <LoadingSections />;
  if (!groups.length) {
    return (
      <div className="kn-tags-error" role="status">
        <div>
          <h2>No categories yet</h2>
          <p>Music, Art and Photos will show here as soon as they are set up.</p>
        </div>
      </div>
    );
  }
  return (
    <div className="kn-tags">
      {groups.map((group) => (
        <TagSection key={group.main.id} group={group} />
      ))}
    </div>
  );
}

/**
 * Music, Art and Photos with their sub-tags and knack prices; skeletons while loading, retry on failure. Memoized:
 * a page re-rendering with the same props (the landing, before its deferred copy of the tags catches up) skips it.
 */
export const TagSections = memo(TagSectionsView);
