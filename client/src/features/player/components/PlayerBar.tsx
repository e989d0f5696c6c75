import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { shallowEqual } from 'react-redux';
import CaretRightFilled from '@ant-design/icons/es/icons/CaretRightFilled';
import CloseOutlined from '@ant-design/icons/es/icons/CloseOutlined';
import CommentOutlined from '@ant-design/icons/es/icons/CommentOutlined';
import EyeInvisibleOutlined from '@ant-design/icons/es/icons/EyeInvisibleOutlined';
import EyeOutlined from '@ant-design/icons/es/icons/EyeOutlined';
import MutedOutlined from '@ant-design/icons/es/icons/MutedOutlined';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import RetweetOutlined from '@ant-design/icons/es/icons/RetweetOutlined';
import SoundOutlined from '@ant-design/icons/es/icons/SoundOutlined';
import StepBackwardOutlined from '@ant-design/icons/es/icons/StepBackwardOutlined';
import StepForwardOutlined from '@ant-design/icons/es/icons/StepForwardOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { useAppDispatch, useAppSelector } from '../../../lib/storeHooks';
import { compactCount, formatDuration } from '../../../components/format';
import { HIDDEN_FROM_OTHERS, shownCount } from '../../../lib/content';
import { detailOpened } from '../../../lib/contentEvents';
import { selectIsPhone } from '../../../lib/ui';
import { selectCurrentTrack, selectHasNext, selectHasPrevious, selectPlayer } from '../player.selectors';
import { playerClosed } from '../player.slice';
import { playerOwnerName } from '../playerText';
import { usePlayerControls } from '../usePlayerControls';
import { positionAfterKey, positionText } from '../seekKeys';
import './player.css';

/** The title scrolls every 10 s when it does not fit. */
export const TITLE_SCROLL_SECONDS = 10;

function ScrollingTitle({ title, onClick }: { title: string; onClick: () => void }) {
  const box = useRef<HTMLButtonElement>(null);
  const [overflow, setOverflow] = useState(0);
  useLayoutEffect(() => {
    const node = box.current;
    if (!node) return undefined;
    const measure = () => setOverflow(Math.max(0, node.scrollWidth - node.clientWidth));
    measure();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
    observer?.observe(node);
    return () => observer?.disconnect();
  }, [title]);
  const style = { '--kn-title-shift': `-${overflow}px`, '--kn-title-cycle': `${TITLE_SCROLL_SECONDS}s` } as CSSProperties;
  return (
    <button ref={box} type="button" className="kn-player__title" onClick={onClick} title={title}>
      <span className={overflow > 0 ? 'kn-player__title-text is-scrolling' : 'kn-player__title-text'} style={style}>
        {title}
      </span>
    </button>
  );
}

function Control({
  label,
  onClick,
  children,
  active,
  disabled,
  primary,
}: {
  label: string;
  onClick: () => void;
  children: ReactNode;
  active?: boolean;
  disabled?: boolean;
  primary?: boolean;
}) {
  const classes = ['kn-player__control', primary ? 'kn-player__control--primary' : '', active ? 'is-active' : ''].filter(Boolean).join(' ');
  return (
    <button type="button" className={classes} aria-label={label} aria-pressed={active} disabled={disabled} onClick={onClick}>
      {children}
    </button>
  );
}

/**
 * The bottom player bar: the current song's cover, title (scrolling when long) and owner, its
 * views and comments; repeat, previous, play/pause, next; the progress; mute and volume; close. A song that
 * could not be played shows as suspended, and play tries it again.
 */
export default function PlayerBar() {
  const dispatch = useAppDispatch();
  const track = useAppSelector(selectCurrentTrack);
  const { status, position, duration, volume, muted, repeat, commentsCount, queue } = useAppSelector(selectPlayer, shallowEqual);
  const hasPrevious = useAppSelector(selectHasPrevious);
  const hasNext = useAppSelector(selectHasNext);
  const isPhone = useAppSelector(selectIsPhone);
  const controls = usePlayerControls();
  if (!track) return null;

  const playing = status === 'playing';
  const owner = playerOwnerName(track.ownerName || track.ownerUsername);
  const progress = duration > 0 ? Math.min(100, (position / duration) * 100) : 0;
  // The bar's views are the song's knacks (reactedCount), hidden as its owner chose.
  const views = shownCount(track);

  return (
    <section className={isPhone ? 'kn-player kn-player--phone' : 'kn-player'} aria-label="Player" data-status={status}>
      <div className="kn-player__track">
        <img className="kn-player__cover" src={mediaUrl(track.thumbPath)} alt="" width={48} height={48} />
        <div className="kn-player__text">
          <ScrollingTitle title={track.title} onClick={() => dispatch(detailOpened({ content: track, siblings: queue }))} />
          <Link className="kn-player__owner" to={`/${track.ownerUsername}`}>
            {owner}
          </Link>
          <span className="kn-player__stats">
            {views ? (
              <span aria-label={`${views.count} views${views.hiddenFromOthers ? `, ${HIDDEN_FROM_OTHERS}` : ''}`}>
                {views.hiddenFromOthers ? <EyeInvisibleOutlined aria-hidden /> : <EyeOutlined aria-hidden />} {compactCount(views.count)}
              </span>
            ) : null}
            <span aria-label={`${commentsCount ?? 0} comments`}>
              <CommentOutlined aria-hidden /> {compactCount(commentsCount ?? 0)}
            </span>
          </span>
        </div>
      </div>

      <div className="kn-player__center">
        <div className="kn-player__controls">
          <Control label="Repeat" active={repeat} onClick={controls.toggleRepeat}>
            <RetweetOutlined />
          </Control>
          <Control label="Previous" disabled={!hasPrevious} onClick={controls.previous}>
            <StepBackwardOutlined />
          </Control>
          <Control label={playing ? 'Pause' : 'Play'} primary onClick={playing ? controls.pause : controls.play}>
            {playing ? <PauseOutlined /> : <CaretRightFilled />}
          </Control>
          <Control label="Next" disabled={!hasNext} onClick={controls.next}>
            <StepForwardOutlined />
          </Control>
        </div>
        <div className="kn-player__progress">
          <span className="kn-player__time">{formatDuration(position)}</span>
          <input
            type="range"
            className="kn-player__range"
            aria-label="Progress"
            aria-valuetext={positionText(Math.min(position, duration), duration)}
            min={0}
            max={Math.max(duration, 0.001)}
            step={0.1}
            value={Math.min(position, duration)}
            style={{ '--kn-range-fill': `${progress}%` } as CSSProperties}
            onChange={(event) => controls.seekFromBar(Number(event.target.value))}
            onKeyDown={(event) => {
              const target = positionAfterKey(event.key, position, duration);
              if (target === null || !duration) return;
              event.preventDefault();
              controls.seekFromBar(target);
            }}
          />
          <span className="kn-player__time">{formatDuration(duration)}</span>
        </div>
        {status === 'suspended' ? (
          <p className="kn-player__suspended" role="alert">
            This song could not be played. Press play to try again.
          </p>
        ) : null}
      </div>

      <div className="kn-player__side">
        <Control label={muted ? 'Unmute' : 'Mute'} active={muted} onClick={controls.toggleMute}>
          {muted ? <MutedOutlined /> : <SoundOutlined />}
        </Control>
        {isPhone ? null : (
          <input
            type="range"
            className="kn-player__range kn-player__volume"
            aria-label="Volume"
            aria-valuetext={`${Math.round((muted ? 0 : volume) * 100)}%`}
            min={0}
            max={1}
            step={0.05}
            value={muted ? 0 : volume}
            style={{ '--kn-range-fill': `${(muted ? 0 : volume) * 100}%` } as CSSProperties}
            onChange={(event) => controls.setVolume(Number(event.target.value))}
          />
        )}
        <Control label="Close the player" onClick={() => dispatch(playerClosed())}>
          <CloseOutlined />
        </Control>
      </div>
    </section>
  );
}
