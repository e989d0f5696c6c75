/**
 * The embeddable player: `/music-player.html?userName=…&contentId=…&options=…`, shown
 * inside an iframe on other sites. Plain TypeScript and the DOM (no React, no antd) so that it stays a few
 * KB: the piece from the public API, its cover, header and footer by the option mask, and for a song
 * play/pause, the waveform of its stored peaks with progress and seeking. The first play counts one play
 * (content/react), and the count shown goes up by one.
 */
import { mediaUrl } from '../api/mediaUrl';
import type { Content } from '../lib/content';
import { drawWaveform, fetchPeaks, type WaveformStyle } from '../lib/waveform';
import { clock, EMBED_BITS, has, readEmbedRequest, type EmbedRequest } from './embed.options';
import './embed.css';

const NOT_AVAILABLE = 'This piece is not available.';
const WAVE_STYLE: WaveformStyle = { played: '#e5383b', rest: 'rgba(255, 255, 255, 0.55)', bar: 3, gap: 2 };
const SEEK_STEP_SECONDS = 5;
const root = document.getElementById('player') as HTMLElement;

/** An element with attributes and children (text children are text nodes: never parsed as HTML). */
function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

function showNote(message: string): void {
  root.className = 'kp kp--note';
  root.replaceChildren(h('p', { class: 'kp-note' }, message));
}

/** The piece, when it exists, is public and belongs to `userName` (the API refuses private pieces). */
async function loadPiece({ contentId, userName }: EmbedRequest): Promise<Content | null> {
  const response = await fetch(`/api/v2/content/get-by-id/${contentId}`, { headers: { Accept: 'application/json' } });
  if (!response.ok) return null;
  const { content } = (await response.json()) as { content: Content };
  return content.ownerUsername.toLowerCase() === userName.toLowerCase() ? content : null;
}

const plays = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'play' : 'plays'}`;

/** The song's controls over the cover: play/pause, the waveform (click or arrow keys to seek), time, plays. */
function songControls(content: Content): HTMLElement {
  const audio = h('audio', { preload: 'metadata', src: mediaUrl(content.filePath) });
  const button = h('button', { type: 'button', class: 'kp-play', 'aria-label': 'Play' });
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  const wave = h('div', { class: 'kp-wave', role: 'slider', tabindex: '0', 'aria-label': 'Seek', 'aria-valuemin': '0' }, canvas);
  const time = h('span', { class: 'kp-time' });
  const count = h('span', { class: 'kp-count' });
  // Null when the owner hides it (the API tells the count only to the owner and admins): nothing is shown then.
  let playCount = content.playCount ?? null;
  let counted = false;
  let peaks: number[] = [];
  let frame = 0;

  const duration = () => (Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : (content.duration ?? 0));
  const showCount = () => {
    if (playCount !== null) count.textContent = plays(playCount);
  };

  function draw(): void {
    const width = wave.clientWidth;
    const height = wave.clientHeight;
    const context = canvas.getContext('2d');
    if (!width || !height || !context) return;
    const ratio = window.devicePixelRatio || 1;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
    }
    context.setTransform(ratio, 0, 0, ratio, 0, 0);
    const total = duration();
    const progress = total ? Math.min(1, audio.currentTime / total) : 0;
    drawWaveform(context, peaks.length ? peaks : new Array<number>(96).fill(0.12), progress, width, height, WAVE_STYLE);
    time.textContent = `${clock(audio.currentTime)} / ${clock(total)}`;
    wave.setAttribute('aria-valuemax', String(Math.round(total)));
    wave.setAttribute('aria-valuenow', String(Math.round(audio.currentTime)));
    wave.setAttribute('aria-valuetext', `${clock(audio.currentTime)} of ${clock(total)}`);
  }

  const tick = () => {
    draw();
    frame = audio.paused ? 0 : requestAnimationFrame(tick);
  };

  /** The first play of this page view counts one play on the server (once per visitor per day there). */
  function countPlay(): void {
    if (counted) return;
    counted = true;
    if (playCount !== null) playCount += 1;
    showCount();
    void fetch('/api/v2/content/react', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ contentId: content.id }) })
      .then((response) => (response.ok ? (response.json() as Promise<{ playCount: number | null }>) : null))
      .then((answer) => {
        if (answer) {
          playCount = answer.playCount;
          showCount();
        }
      })
      .catch(() => undefined);
  }

  const seekTo = (seconds: number) => {
    const total = duration();
    if (!total) return;
    audio.currentTime = Math.min(total, Math.max(0, seconds));
    draw();
  };

  button.addEventListener('click', () => {
    if (audio.paused) void audio.play().catch(() => showError());
    else audio.pause();
  });
  audio.addEventListener('play', () => {
    button.classList.add('kp-play--playing');
    button.setAttribute('aria-label', 'Pause');
    countPlay();
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(tick);
  });
  for (const event of ['pause', 'ended'] as const) {
    audio.addEventListener(event, () => {
      button.classList.remove('kp-play--playing');
      button.setAttribute('aria-label', 'Play');
      draw();
    });
  }
  audio.addEventListener('loadedmetadata', draw);
  audio.addEventListener('seeked', draw);
  const showError = () => {
    time.textContent = 'This song cannot be played right now.';
  };
  audio.addEventListener('error', showError);

  wave.addEventListener('pointerdown', (event) => {
    const box = wave.getBoundingClientRect();
    if (box.width) seekTo(((event.clientX - box.left) / box.width) * duration());
  });
  wave.addEventListener('keydown', (event) => {
    const moves: Record<string, number> = {
      ArrowLeft: -SEEK_STEP_SECONDS,
      ArrowDown: -SEEK_STEP_SECONDS,
      ArrowRight: SEEK_STEP_SECONDS,
      ArrowUp: SEEK_STEP_SECONDS,
    };
    if (event.key in moves) seekTo(audio.currentTime + moves[event.key]!);
    else if (event.key === 'Home') seekTo(0);
    else if (event.key === 'End') seekTo(duration());
    else return;
    event.preventDefault();
  });

  new ResizeObserver(draw).observe(wave);
  if (content.waveformPath) {
    fetchPeaks(mediaUrl(content.waveformPath)).then(
      (loaded) => {
        peaks = loaded;
        draw();
      },
      () => undefined,
    );
  }
  showCount();
  return h('div', { class: 'kp-controls' }, audio, button, h('div', { class: 'kp-track' }, wave, h('div', { class: 'kp-meta' }, time, count)));
}

function render(content: Content, mask: number): void {
  const shareUrl = `${window.location.origin}${content.link}`;
  const owner = content.ownerName || content.ownerUsername.replace(/_/g, ' ');
  const parts: HTMLElement[] = [];
  if (has(mask, EMBED_BITS.header)) {
    parts.push(
      h(
        'header',
        { class: 'kp-header' },
        h('a', { class: 'kp-title', href: shareUrl, target: '_blank', rel: 'noopener' }, content.title),
        h('span', { class: 'kp-owner' }, `by ${owner}`),
      ),
    );
  }
  const cover = mediaUrl(content.coverPath ?? content.hthumbPath);
  const stage = h(
    'div',
    { class: 'kp-stage' },
    h('img', { class: 'kp-backdrop', src: mediaUrl(content.thumbPath), alt: '', 'aria-hidden': 'true' }),
    h('img', { class: 'kp-cover', src: cover, alt: content.title }),
  );
  if (content.isAudio) stage.append(songControls(content));
  parts.push(stage);
  if (has(mask, EMBED_BITS.footer)) {
    parts.push(
      h(
        'footer',
        { class: 'kp-footer' },
        h('a', { class: 'kp-brand', href: window.location.origin, target: '_blank', rel: 'noopener' }, 'Knack'),
        h('a', { class: 'kp-open', href: shareUrl, target: '_blank', rel: 'noopener' }, content.isAudio ? 'Listen on Knack' : 'View on Knack'),
      ),
    );
  }
  document.title = `${content.title} · Knack`;
  root.className = `kp kp--${content.type}`;
  root.replaceChildren(...parts);
}

async function start(): Promise<void> {
  const request = readEmbedRequest(window.location.search);
  const content = request ? await loadPiece(request).catch(() => null) : null;
  if (!request || !content) return showNote(NOT_AVAILABLE);
  render(content, request.mask);
}

void start();
