import { useId, type MouseEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import EyeInvisibleOutlined from '@ant-design/icons/es/icons/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons/es/icons/EyeOutlined';
import PlayCircleOutlined from '@ant-design/icons/es/icons/PlayCircleOutlined';
import { PATHS } from '../../lib/constants';
import { mediaUrl } from '../../api/mediaUrl';
import { displayUsername } from '../../lib/userNames';
import { formatKnackPricePer } from '../../lib/formatKnackPrice';
import { typeStyle } from '../../lib/tagColors';
import { TypeIcon } from '../tags/TypeIcon';
import { HIDDEN_FROM_OTHERS, shownCount, type Content } from '../../lib/content';
import { compactCount, formatDuration } from '../format';
import { MonetizedIcon } from '../MonetizedIcon';
import './content.css';

/** A plain left click opens the modal; a modified click (new tab, new window) follows the share link. */
function isPlainClick(event: MouseEvent) {
  return event.button === 0 && !event.metaKey && !event.ctrlKey && !event.shiftKey && !event.altKey;
}

export interface ContentCardProps {
  content: Content;
  /** Opens the piece (the content detail modal). */
  onOpen: (content: Content) => void;
  /** Shown over the thumbnail's top-right corner (the owner's menu, a privacy badge). */
  extra?: ReactNode;
  /** In the first row of the page's main grid: its image loads at once and first (it is what the page shows first). */
  priority?: boolean;
}

/**
 * The card's image at the size it is shown: the 240 px square thumbnail where that is enough (desktop cards), the
 * 640 px one on phones' two columns and sharp screens.
 */
const CARD_SIZES = '(max-width: 599.98px) 50vw, (max-width: 767.98px) 33vw, 240px';
function cardSources(content: Content): { src: string; srcSet?: string } {
  const medium = content.mthumbPath || content.thumbPath;
  if (!content.thumbPath || !content.mthumbPath) return { src: mediaUrl(medium) };
  return { src: mediaUrl(medium), srcSet: `${mediaUrl(content.thumbPath)} 240w, ${mediaUrl(content.mthumbPath)} 640w` };
}

/** Plays (music) or views (art, photos), unless the owner hides them (the owner and admins see them marked). */
function ReactionCount({ content }: { content: Content }) {
  const shown = shownCount(content);
  if (!shown) return null;
  const { count, unit, hiddenFromOthers } = shown;
  const note = hiddenFromOthers ? `, ${HIDDEN_FROM_OTHERS}` : '';
  return (
    <span className="kn-card__count" title={`${count} ${unit}${note}`}>
      {hiddenFromOthers ? <EyeInvisibleOutlined aria-hidden /> : unit === 'plays' ? <PlayCircleOutlined aria-hidden /> : <EyeOutlined aria-hidden />}{' '}
      {compactCount(count)}
      <span className="kn-visually-hidden">
        {' '}
        {unit}
        {note}
      </span>
    </span>
  );
}

/**
 * One piece in a grid: the thumbnail (lazy, sized so nothing shifts), its type, title, owner (linking to the
 * profile), knack price, and whether it is monetized. Choosing the thumbnail or title opens the piece.
 */
export function ContentCard({ content, onOpen, extra, priority = false }: ContentCardProps) {
  const titleId = useId();
  const open = (event: MouseEvent) => {
    if (!isPlainClick(event)) return;
    event.preventDefault();
    onOpen(content);
  };
  const duration = content.isAudio && content.duration ? formatDuration(content.duration) : null;
  const ownerName = displayUsername(content.ownerName || content.ownerUsername);
  return (
    <article className="kn-card" style={typeStyle(content.type)} data-type={content.type} aria-labelledby={titleId}>
      <Link className="kn-card__media" to={content.link} onClick={open} tabIndex={-1} aria-hidden="true">
        <img
          {...cardSources(content)}
          sizes={CARD_SIZES}
          alt=""
          width={640}
          height={640}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
        />
        <span className="kn-card__type">
          <TypeIcon type={content.type} />
        </span>
        {duration ? <span className="kn-card__duration">{duration}</span> : null}
      </Link>
      {extra ? <div className="kn-card__extra">{extra}</div> : null}
      <div className="kn-card__body">
        <h3 className="kn-card__title" id={titleId}>
          <Link to={content.link} onClick={open}>
            {content.title}
          </Link>
        </h3>
        <Link className="kn-card__owner" to={PATHS.profile(content.ownerUsername)} title={ownerName}>
          {ownerName}
        </Link>
        <div className="kn-card__meta">
          <span className="kn-type-pill kn-card__price">{formatKnackPricePer(content.knackRate, content.type)}</span>
          <MonetizedIcon paidOut={content.isPaidOut} className="kn-card__money" unpaidLabel="Not monetized yet" />
          <ReactionCount content={content} />
        </div>
      </div>
    </article>
  );
}

/** A card's shape while the list loads. */
export function ContentCardSkeleton() {
  return (
    <div className="kn-card kn-card--skeleton" aria-hidden="true">
      <span className="kn-card__media kn-skeleton" />
      <div className="kn-card__body">
        <span className="kn-skeleton kn-skeleton--line" style={{ width: '80%' }} />
        <span className="kn-skeleton kn-skeleton--line" style={{ width: '50%' }} />
        <span className="kn-skeleton kn-skeleton--line" style={{ width: '35%' }} />
      </div>
    </div>
  );
}
