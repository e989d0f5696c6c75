/**
 * The one audio element every song plays through (also on iOS, where playback must go through an element
 * started from the tap itself: the player saga calls `play()` inside the dispatch of the click). It is
 * created on first use and kept hidden in the page.
 */
import { sameFile } from './signedLinks';

let shared: HTMLAudioElement | null = null;

export function playerAudio(): HTMLAudioElement {
  if (!shared) {
    shared = document.createElement('audio');
    shared.preload = 'auto';
    shared.setAttribute('playsinline', '');
    shared.dataset.player = 'knack';
    document.body.appendChild(shared);
  }
  return shared;
}

/** Loads a song into the element (no request when it is loaded already, through this link or another to the same file). */
export function loadTrack(element: HTMLAudioElement, src: string): void {
  if (sameFile(element.getAttribute('src'), src)) return;
  element.setAttribute('src', src);
  element.load();
}

/** Moves the loaded song onto a renewed link (the old one ended) and goes on from `position` seconds. */
export function relinkTrack(element: HTMLAudioElement, src: string, position: number): void {
  element.setAttribute('src', src);
  element.load();
  // Set before the new source has loaded, it is where playback starts once it has.
  element.currentTime = position;
}

/** Starts playback; resolves false when the browser refused it (autoplay rules) or a new load interrupted it. */
export async function startPlayback(element: HTMLAudioElement): Promise<'playing' | 'refused' | 'interrupted'> {
  try {
    await element.play();
    return 'playing';
  } catch (error) {
    return error instanceof DOMException && error.name === 'AbortError' ? 'interrupted' : 'refused';
  }
}

/** Empties the element (the player was closed). */
export function unloadTrack(element: HTMLAudioElement): void {
  element.pause();
  element.removeAttribute('src');
  element.load();
}
