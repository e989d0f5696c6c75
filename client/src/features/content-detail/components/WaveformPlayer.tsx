import { useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import { shallowEqual } from 'react-redux';
import Button from 'antd/es/button';
import CaretRightFilled from '@ant-design/icons/es/icons/CaretRightFilled';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { useAppSelector } from '../../../app/hooks';
import { formatDuration } from '../../../components/format';
import { selectTrackProgress, usePlayerControls } from '../../player';
import { TYPE_COLORS } from '../../../lib/tagColors';
import type { Content } from '../../../lib/content';
import { drawWaveform, fetchPeaks } from '../../../lib/waveform';

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

/**
 * A song in the detail modal, as a view of the bottom player: play starts it in the player with
 * the songs around it as the queue; the waveform is drawn from the stored peaks, the played part in the music
 * colour; a click on it seeks. The song goes on playing in the bar when the modal closes.
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

  const seek = (event: MouseEvent<HTMLDivElement>) => {
    if (!duration) return;
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = box.width ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0;
    if (!current) controls.playTrack(content, siblings);
    controls.seek(fraction * duration);
  };

  return (
    <div className="kn-wave">
      <Button
        className="kn-wave__toggle"
        type="primary"
        shape="circle"
        size="large"
        aria-label={playing ? 'Pause' : 'Play'}
        icon={playing ? <PauseOutlined /> : <CaretRightFilled />}
        onClick={toggle}
      />
      <div className="kn-wave__track">
        <div
          ref={frame}
          className={peaks === null ? 'kn-wave__frame is-loading' : 'kn-wave__frame'}
          role="progressbar"
          aria-label="Playback position"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(progress * 100)}
          onClick={seek}
        >
          {peaks?.length ? (
            <canvas ref={canvas} style={{ width: '100%', height: HEIGHT }} aria-hidden="true" />
          ) : (
            <span className="kn-wave__line" style={{ width: `${progress * 100}%` }} />
          )}
        </div>
        <span className="kn-wave__time">
          {formatDuration(time)} / {formatDuration(duration)}
        </span>
      </div>
    </div>
  );
}
