import { useEffect, useMemo, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { shallowEqual } from 'react-redux';
import CaretRightFilled from '@ant-design/icons/es/icons/CaretRightFilled';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { useAppSelector } from '../../../lib/storeHooks';
import { formatDuration } from '../../../components/format';
import { Button } from '../../../components/button';
import { positionAfterKey, positionText, selectTrackProgress, usePlayerControls } from '../../player';
import { TYPE_COLORS } from '../../../lib/tagColors';
import type { Content } from '../../../lib/content';
import { drawWaveform, fetchPeaks } from '../../../lib/waveform';
import { usePieceComments } from '../../comments';

const STYLE = { played: TYPE_COLORS.music.color, rest: TYPE_COLORS.music.soft, bar: 3, gap: 2 };
const HEIGHT = 72;

/** The stored peaks of the song: null while loading, [] when there are none (or they failed to load). */
function usePeaks(path: string | undefined): number[] | null {
  const [peaks, setPeaks] = useState<number[] | null>(path ? null : []);
  useEffect(() => {
    if (!path) return undefined;
    const controller = new AbortController();
    setPeaks(null);
    fetchPeaks(mediaUrl(path), controller.signal).then(setPeaks, () => {
      if (!controller.signal.aborted) setPeaks([]);
    });
    return () => controller.abort();
  }, [path]);
  return peaks;
}

/** The width of an element in CSS px, kept current. */
function useWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const node = ref.current;
    if (!node) return undefined;
    setWidth(node.clientWidth);
    const observer = new ResizeObserver(() => setWidth(node.clientWidth));
    observer.observe(node);
    return () => observer.disconnect();
  }, [ref]);
  return width;
}

/** The song's timed comments loaded so far, one marker per second of the track (the latest comment on top). */
function useCommentMarkers(contentId: string, duration: number) {
  const { items } = usePieceComments(contentId);
  return useMemo(() => {
    if (!duration) return [];
    const bySecond = new Map<number, { id: string; atSeconds: number; name: string }>();
    for (const comment of items) {
      if (comment.atSeconds === null || comment.atSeconds > duration) continue;
      const second = Math.floor(comment.atSeconds);
      if (!bySecond.has(second)) bySecond.set(second, { id: comment.id, atSeconds: comment.atSeconds, name: comment.commentorName });
    }
    return [...bySecond.values()];
  }, [items, duration]);
}

/**
 * A song in the detail modal, as a view of the bottom player: play starts it in the player with
 * the songs around it as the queue; the waveform is drawn from the stored peaks, the played part in the music
 * colour; a click on it seeks. Comments written at a time in the song are markers on it that play from there.
 * The song goes on playing in the bar when the modal closes.
 */
export function WaveformPlayer({ content }: { content: Content }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const peaks = usePeaks(content.waveformPath);
  const width = useWidth(frame);
  const siblings = useAppSelector((state) => state.contentDetail.siblings);
  const current = useAppSelector((state) => selectTrackProgress(state, content.id), shallowEqual);
  const controls = usePlayerControls();
  const playing = current?.status === 'playing';
  const time = current?.position ?? 0;
  const duration = current?.duration || content.duration || 0;
  const progress = duration > 0 ? Math.min(1, time / duration) : 0;
  const markers = useCommentMarkers(content.id, duration);

  useEffect(() => {
    const node = canvas.current;
    if (!node || !peaks || !width) return;
    const ratio = window.devicePixelRatio || 1;
    node.width = Math.round(width * ratio);
    node.height = Math.round(HEIGHT * ratio);
    const context = node.getContext('2d');
    if (!context) return;
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    drawWaveform(context, peaks, progress, width, HEIGHT, STYLE);
  }, [peaks, progress, width]);

  const toggle = () => {
    if (playing) controls.pause();
    else if (current) controls.resume();
    else controls.playTrack(content, siblings);
  };

  const playFrom = (seconds: number) => {
    if (!current) controls.playTrack(content, siblings);
    controls.seek(seconds);
  };

  const seek = (event: MouseEvent<HTMLDivElement>) => {
    if (!duration) return;
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = box.width ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0;
    playFrom(fraction * duration);
  };

  return (
    <div className="kn-wave">
      <Button
        className="kn-wave__toggle"
        kind="primary"
        size="large"
        aria-label={playing ? 'Pause' : 'Play'}
        icon={playing ? <PauseOutlined /> : <CaretRightFilled />}
        onClick={toggle}
      />
      <div className="kn-wave__track">
        <div
          ref={frame}
          className={peaks === null ? 'kn-wave__frame is-loading' : 'kn-wave__frame'}
          role="slider"
          tabIndex={duration ? 0 : -1}
          aria-label="Position in the song"
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.floor(Math.min(time, duration))}
          aria-valuetext={positionText(Math.min(time, duration), duration)}
          onClick={seek}
          onKeyDown={(event) => {
            const target = positionAfterKey(event.key, time, duration);
            if (target === null || !duration) return;
            event.preventDefault();
            playFrom(target);
          }}
        >
          {peaks?.length ? (
            <canvas ref={canvas} style={{ width: '100%', height: HEIGHT }} aria-hidden="true" />
          ) : (
            <span className="kn-wave__line" style={{ width: `${progress * 100}%` }} />
          )}
        </div>
        {markers.length ? (
          <ul className="kn-wave__markers" aria-label="Comments in the song">
            {markers.map((marker) => (
              <li key={marker.id} style={{ left: `${(marker.atSeconds / duration) * 100}%` }}>
                <button
                  type="button"
                  className="kn-wave__marker"
                  aria-label={`Comment by ${marker.name} at ${formatDuration(marker.atSeconds)}: play from there`}
                  title={`${marker.name} at ${formatDuration(marker.atSeconds)}`}
                  onClick={() => playFrom(marker.atSeconds)}
                />
              </li>
            ))}
          </ul>
        ) : null}
        <span className="kn-wave__time" aria-hidden="true">
          {formatDuration(time)} / {formatDuration(duration)}
        </span>
      </div>
    </div>
  );
}
