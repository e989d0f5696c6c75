/**
 * Slideshow (option 4): while a song plays, the stage shows the artist's pictures one after another, the song's own
 * cover first, then their other pieces' (newest first), each for SLIDE_MS, fading into the next. For a visitor who asked
 * their system for less motion nothing moves or fades by itself: a "Next picture" button steps through them. The
 * pictures come from one page of the artist's public feed, read when the song first plays.
 */
import { mediaUrl } from '../api/mediaUrl';
import type { Content } from '../lib/content';
import { artistPieces } from './embed.api';
import { h, prefersReducedMotion } from './embed.dom';

const SLIDE_MS = 5_000;
/** The artist's other pieces asked for: the pictures the show goes through. */
const OTHER_PIECES = 12;

interface Slide {
  src: string;
  backdrop: string;
  alt: string;
}

const slideOf = (piece: Content): Slide => ({
  src: mediaUrl(piece.coverPath ?? piece.hthumbPath),
  backdrop: mediaUrl(piece.thumbPath),
  alt: piece.title,
});

export interface Slideshow {
  /** The song plays: the show goes on (or, with less motion asked for, its button is offered). */
  start(): void;
  /** The song paused or ended: the show waits on the picture it is at. */
  stop(): void;
}

/** The show on `stage`, whose `cover` and `backdrop` images show the song's own picture until it starts. */
export function createSlideshow(stage: HTMLElement, cover: HTMLImageElement, backdrop: HTMLImageElement, song: Content): Slideshow {
  // Two layers: the next picture loads in the hidden one, then the two trade places (a fade, where motion is welcome).
  const layers = [cover, h('img', { class: 'kp-cover kp-cover--slide', alt: '', 'aria-hidden': 'true' })];
  stage.classList.add('kp-stage--slides');
  cover.classList.add('kp-cover--shown');
  cover.after(layers[1]!);
  let slides: Slide[] = [slideOf(song)];
  let loading: Promise<void> | null = null;
  let at = 0;
  let timer = 0;
  let running = false;
  let button: HTMLButtonElement | null = null;

  function show(index: number): void {
    at = index % slides.length;
    const slide = slides[at]!;
    const [shown, hidden] = layers[0]!.classList.contains('kp-cover--shown') ? [layers[0]!, layers[1]!] : [layers[1]!, layers[0]!];
    hidden.onload = () => {
      hidden.classList.add('kp-cover--shown');
      hidden.removeAttribute('aria-hidden');
      hidden.alt = slide.alt;
      shown.classList.remove('kp-cover--shown');
      shown.setAttribute('aria-hidden', 'true');
      shown.alt = '';
      backdrop.src = slide.backdrop;
      button?.setAttribute('aria-label', `Next picture (${((at + 1) % slides.length) + 1} of ${slides.length})`);
    };
    hidden.src = slide.src;
  }

  const load = () =>
    (loading ??= artistPieces(song.ownerId, { songs: false, limit: OTHER_PIECES + 1 })
      .then((pieces) => {
        const others = pieces.filter((piece) => piece.id !== song.id && (piece.coverPath || piece.hthumbPath)).slice(0, OTHER_PIECES);
        slides = [slideOf(song), ...others.map(slideOf)];
      })
      .catch(() => undefined));

  function offerButton(): void {
    if (button || slides.length < 2) return;
    button = h('button', { type: 'button', class: 'kp-slide-next', 'aria-label': `Next picture (2 of ${slides.length})` }, 'Next picture');
    button.addEventListener('click', () => show(at + 1));
    stage.append(button);
  }

  return {
    start() {
      running = true;
      void load().then(() => {
        if (prefersReducedMotion()) return offerButton();
        window.clearInterval(timer);
        // Paused while the pictures loaded: the show waits for the next play.
        if (running && slides.length > 1) timer = window.setInterval(() => show(at + 1), SLIDE_MS);
      });
    },
    stop() {
      running = false;
      window.clearInterval(timer);
    },
  };
}
