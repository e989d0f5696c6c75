/**
 * The embeddable player: `/music-player.html?userName=…&contentId=…&options=…`, shown inside an iframe on other
 * sites. Plain TypeScript and the DOM (no React, no antd) so that it stays a few KB: the piece from the public API, its
 * cover, and by the option mask its header (1), footer (2), a slideshow of the artist's pictures while the song plays
 * (4, embed.slideshow.ts) and a queue of the artist's next five songs that it plays through (8, Quintos); for a song
 * play/pause, the waveform of its stored peaks with progress and seeking. Each song's first play counts one play
 * (content/react), and the count shown goes up by one. A Knack member can sign in from the player (embed.member.ts):
 * their plays past half a song, and their views of a picture, knack as they do on Knack. Plays and knacks carry the
 * framing page's address, by which the server counts them per site.
 *
 * With `?connect=1` the page is instead the small Knack window that hands the member's session to the player.
 */
import { mediaUrl } from '../api/mediaUrl';
import type { Content } from '../lib/content';
import { drawWaveform, fetchPeaks, type WaveformStyle } from '../lib/waveform';
import { addKnack, artistPieces, CallFailed, countPlay, loadPiece, startPlay } from './embed.api';
import { h } from './embed.dom';
import { borrowSession, handBackSession, storedMember } from './embed.member';
import { clock, EMBED_BITS, has, nextFive, readEmbedRequest } from './embed.options';
import { createSlideshow, type Slideshow } from './embed.slideshow';
import './embed.css';

const NOT_AVAILABLE = 'This piece is not available.';
const WAVE_STYLE: WaveformStyle = { played: '#e5383b', rest: 'rgba(255, 255, 255, 0.55)', bar: 3, gap: 2 };
const SEEK_STEP_SECONDS = 5;
/** The artist's songs read for Quintos' queue: one page of their feed, in which the queue is found. */
const SONGS_READ = 20;
/** A knack the server found too early (its clock measures half the song from the play session) is asked again. */
const KNACK_RETRIES = 3;
const KNACK_RETRY_MS = 1_500;
const root = document.getElementById('player') as HTMLElement;

function showNote(message: string, link?: { href: string; label: string }): void {
  root.className = 'kp kp--note';
  const note = h('p', { class: 'kp-note' }, message);
  if (link) note.append(' ', h('a', { href: link.href }, link.label));
  root.replaceChildren(note);
}

const plays = (count: number) => `${count.toLocaleString('en-US')} ${count === 1 ? 'play' : 'plays'}`;

/** What the page holds across songs (Quintos moves from one to the next without reloading). */
const page = {
  mask: 0,
  /** Quintos: the songs still to play, in order. */
  queue: [] as Content[],
  member: storedMember(),
  /** The pieces the member's knack was settled for in this page view (made, refused or already made). */
  settled: new Set<string>(),
  /** What ends with the song shown: its audio, its observers. */
  leave: [] as (() => void)[],
  /** The song shown, for a member who signs in while it plays. */
  onMember: (): void => undefined,
};

/** The member's line over the stage: "Sign in to knack", or whose knacks these are and what the last one did. */
const memberLine = h('div', { class: 'kp-member', 'aria-live': 'polite' });

function drawMember(note?: string): void {
  if (page.member) {
    memberLine.replaceChildren(h('span', { class: 'kp-member__note' }, note ?? `Knacking as ${page.member.name}`));
    return;
  }
  const signIn = h('button', { type: 'button', class: 'kp-member__sign-in' }, 'Sign in to knack');
  signIn.addEventListener('click', () => {
    const opened = borrowSession((member) => {
      page.member = member;
      drawMember();
      page.onMember();
    });
    drawMember(opened ? 'Sign in in the Knack window.' : 'Your browser kept the Knack window from opening: open the piece on Knack to knack it.');
  });
  memberLine.replaceChildren(signIn, ...(note ? [h('span', { class: 'kp-member__note' }, note)] : []));
}

/**
 * A call failed for the member: an ended session signs them out of the player; a knack that needs the emailed code
 * (after many knacks in a day) sends them to Knack, where the code is asked for; anything else is said.
 */
function memberFailed(error: unknown): void {
  if (error instanceof CallFailed && error.status === 401) {
    page.member = null;
    drawMember('Your Knack session has ended: sign in again to knack.');
  } else if (error instanceof CallFailed && error.status === 428) {
    drawMember('You have knacked a lot today: open the piece on Knack to go on with a code we email you.');
  } else {
    drawMember(error instanceof Error ? error.message : 'Something went wrong. Please try again.');
  }
}

/** Asks for the member's knack of `contentId`, again while the server finds the song not half played yet. */
function askKnack(contentId: string, playId: string | undefined, tries = 1): void {
  const member = page.member;
  if (!member || page.settled.has(contentId)) return;
  page.settled.add(contentId);
  addKnack(member, contentId, playId).then(
    (answer) => drawMember(answer.message),
    (error: unknown) => {
      page.settled.delete(contentId);
      if (error instanceof CallFailed && error.status === 409 && tries < KNACK_RETRIES) {
        window.setTimeout(() => askKnack(contentId, playId, tries + 1), KNACK_RETRY_MS);
      } else {
        memberFailed(error);
      }
    },
  );
}

/** A song's knack for the member: its play session starts with the audio, and past half of the song it is asked for. */
function songKnack(content: Content) {
  let session: Promise<string | null> | null = null;
  return {
    begin(): void {
      const member = page.member;
      if (!member || session || page.settled.has(content.id)) return;
      session = startPlay(content.id, member.token).then(
        ({ playId }) => playId,
        (error: unknown) => {
          session = null;
          memberFailed(error);
          return null;
        },
      );
    },
    progressed(position: number, duration: number): void {
      if (!session || duration <= 0 || position <= duration / 2) return;
      void session.then((playId) => {
        if (playId) askKnack(content.id, playId);
      });
    },
  };
}

/** The song's controls over the cover: play/pause, the waveform (click or arrow keys to seek), time, plays. */
function songControls(content: Content, slideshow: Slideshow | null, autoplay: boolean): HTMLElement {
  const audio = h('audio', { preload: 'metadata', src: mediaUrl(content.filePath) });
  const button = h('button', { type: 'button', class: 'kp-play', 'aria-label': 'Play' });
  const canvas = h('canvas', { 'aria-hidden': 'true' });
  const wave = h('div', { class: 'kp-wave', role: 'slider', tabindex: '0', 'aria-label': 'Seek', 'aria-valuemin': '0' }, canvas);
  const time = h('span', { class: 'kp-time' });
  const count = h('span', { class: 'kp-count' });
  const knack = songKnack(content);
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

  /** The first play of this song in this page view counts one play on the server (once per visitor per day there). */
  function countThePlay(): void {
    if (counted) return;
    counted = true;
    if (playCount !== null) playCount += 1;
    showCount();
    countPlay(content.id, page.member?.token)
      .then((answer) => {
        playCount = answer.playCount;
        showCount();
      })
      .catch(() => undefined);
  }

  const seekTo = (seconds: number) => {
    const total = duration();
    if (!total) return;
    audio.currentTime = Math.min(total, Math.max(0, seconds));
    draw();
  };
  const showError = () => {
    time.textContent = 'This song cannot be played right now.';
  };
  const play = () => void audio.play().catch(() => showError());

  button.addEventListener('click', () => {
    if (audio.paused) play();
    else audio.pause();
  });
  audio.addEventListener('play', () => {
    button.classList.add('kp-play--playing');
    button.setAttribute('aria-label', 'Pause');
    countThePlay();
    knack.begin();
    slideshow?.start();
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(tick);
  });
  for (const event of ['pause', 'ended'] as const) {
    audio.addEventListener(event, () => {
      button.classList.remove('kp-play--playing');
      button.setAttribute('aria-label', 'Play');
      slideshow?.stop();
      draw();
    });
  }
  audio.addEventListener('ended', () => playNextInQueue(0));
  audio.addEventListener('timeupdate', () => knack.progressed(audio.currentTime, duration()));
  audio.addEventListener('loadedmetadata', draw);
  audio.addEventListener('seeked', draw);
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

  const resizes = new ResizeObserver(draw);
  resizes.observe(wave);
  // A member who signs in while the song plays: its play session starts now.
  page.onMember = () => {
    if (!audio.paused) knack.begin();
  };
  page.leave.push(() => {
    resizes.disconnect();
    cancelAnimationFrame(frame);
    slideshow?.stop();
    audio.pause();
    audio.removeAttribute('src');
  });
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
  // Quintos went on to this song: it plays at once (the visitor already started the one before it).
  if (autoplay) play();
  return h('div', { class: 'kp-controls' }, audio, button, h('div', { class: 'kp-track' }, wave, h('div', { class: 'kp-meta' }, time, count)));
}

/** Quintos: the queue, each song a button that plays it (the queue then goes on from there). */
const queueSection = h('section', { class: 'kp-queue', 'aria-labelledby': 'kp-queue-title' });

function drawQueue(): void {
  queueSection.hidden = !page.queue.length;
  const items = page.queue.map((song, index) => {
    const pick = h(
      'button',
      { type: 'button', class: 'kp-queue__item', 'aria-label': `Play ${song.title} (${clock(song.duration ?? 0)})` },
      h('img', { class: 'kp-queue__thumb', src: mediaUrl(song.thumbPath), alt: '' }),
      h('span', { class: 'kp-queue__title' }, song.title),
    );
    pick.addEventListener('click', () => playNextInQueue(index));
    return h('li', {}, pick);
  });
  queueSection.replaceChildren(h('h2', { class: 'kp-queue__heading', id: 'kp-queue-title' }, 'Up next'), h('ol', { class: 'kp-queue__list' }, ...items));
}

/** Plays the queue's song at `index`; the queue goes on with those after it. */
function playNextInQueue(index: number): void {
  const next = page.queue[index];
  if (!next) return;
  page.queue = page.queue.slice(index + 1);
  render(next, true);
}

function render(content: Content, autoplay = false): void {
  for (const leave of page.leave.splice(0)) leave();
  page.onMember = () => undefined;
  const { mask } = page;
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
  const backdrop = h('img', { class: 'kp-backdrop', src: mediaUrl(content.thumbPath), alt: '', 'aria-hidden': 'true' });
  const cover = h('img', { class: 'kp-cover', src: mediaUrl(content.coverPath ?? content.hthumbPath), alt: content.title });
  const stage = h('div', { class: 'kp-stage' }, backdrop, cover, memberLine);
  if (content.isAudio) {
    const slideshow = has(mask, EMBED_BITS.slideshow) ? createSlideshow(stage, cover, backdrop, content) : null;
    stage.append(songControls(content, slideshow, autoplay));
  } else {
    // A picture is knacked when a member sees it, as the app's detail does.
    const knackThePicture = () => askKnack(content.id, undefined);
    page.onMember = knackThePicture;
    if (page.member) knackThePicture();
  }
  parts.push(stage);
  if (content.isAudio && has(mask, EMBED_BITS.quintos)) parts.push(queueSection);
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
  drawQueue();
}

/** Quintos' queue, read once the song is shown (it does not hold the player up). */
async function loadQueue(content: Content): Promise<void> {
  const songs = (await artistPieces(content.ownerId, { songs: true, limit: SONGS_READ })).filter((song) => song.isAudio);
  page.queue = nextFive(songs, content.id);
  drawQueue();
}

async function start(): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  if (params.has('connect')) {
    showNote('Signing you in to the player…');
    return handBackSession(showNote);
  }
  const request = readEmbedRequest(window.location.search);
  const content = request ? await loadPiece(request.contentId, request.userName).catch(() => null) : null;
  if (!request || !content) return showNote(NOT_AVAILABLE);
  page.mask = request.mask;
  drawMember();
  render(content);
  if (content.isAudio && has(request.mask, EMBED_BITS.quintos)) await loadQueue(content).catch(() => undefined);
}

void start();
