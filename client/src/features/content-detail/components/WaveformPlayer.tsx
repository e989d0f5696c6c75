import { useEffect, useRef, useState, type MouseEvent, type RefObject } from 'react';
import Button from 'antd/es/button';
import CaretRightFilled from '@ant-design/icons/es/icons/CaretRightFilled';
import PauseOutlined from '@ant-design/icons/es/icons/PauseOutlined';
import { mediaUrl } from '../../../api/mediaUrl';
import { formatDuration } from '../../../components/format';
import { TYPE_COLORS } from '../../tags';
import type { Content } from '../contentDetail.types';
import { drawWaveform, fetchPeaks } from '../waveform';

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
 * A song in the detail modal: play/pause through an <audio> element and the waveform drawn from the stored
 * peaks, the played part in the music colour; a click on the waveform seeks. (The bottom player bar and
 * knack counting come with the player.)
 */
export function WaveformPlayer({ content }: { content: Content }) {
  const audio = useRef<HTMLAudioElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const frame = useRef<HTMLDivElement>(null);
  const peaks = usePeaks(content.waveformPath);
  const width = useWidth(frame);
  const [playing, setPlaying] = useState(false);
  const [time, setTime] = useState(0);
  const [duration, setDuration] = useState(content.duration ?? 0);
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
    const element = audio.current;
    if (!element) return;
    if (playing) element.pause();
    else void element.play().catch(() => setPlaying(false));
  };

  const seek = (event: MouseEvent<HTMLDivElement>) => {
    const element = audio.current;
    if (!element || !duration) return;
    const box = event.currentTarget.getBoundingClientRect();
    const fraction = box.width ? Math.min(1, Math.max(0, (event.clientX - box.left) / box.width)) : 0;
    element.currentTime = fraction * duration;
    setTime(element.currentTime);
  };

  return (
    <div className="kn-wave">
      <audio
        ref={audio}
        src={mediaUrl(content.filePath)}
        preload="metadata"
        onPlay={() => setPlaying(true)}
        onPause={() => setPlaying(false)}
        onEnded={() => setPlaying(false)}
        onTimeUpdate={(event) => setTime(event.currentTarget.currentTime)}
        onLoadedMetadata={(event) => {
          if (Number.isFinite(event.currentTarget.duration)) setDuration(event.currentTarget.duration);
        }}
      />
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
