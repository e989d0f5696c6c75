import { useEffect, useLayoutEffect } from 'react';

/** The element the server draws a public page's first paint in, before the app's root (server/lib/firstPaint.ts). */
const FIRST_PAINT_ID = 'kn-first-paint';
/** How long a page that has just mounted may show its loading state before the first paint gives way anyway. */
const LOADING_WAIT_MS = 1500;
/** However the page fares (an error, a redirect), the app shows itself this long after its frame has rendered. */
const LATEST_HAND_OFF_MS = 5000;

/** The app's root shows once the first paint is gone (a rule of global.css hides it while the first paint is there). */
function removeFirstPaint(): void {
  document.getElementById(FIRST_PAINT_ID)?.remove();
}

/**
 * Hands the screen over from the server's first paint to the app, once the page has rendered: at once, or, while the
 * page still shows a loading state (an element marked aria-busy in the main column), when it has its content or
 * after LOADING_WAIT_MS. So a visitor goes from the first paint to the page, without a blank or loading screen
 * between them.
 */
function handOff(): () => void {
  const firstPaint = document.getElementById(FIRST_PAINT_ID);
  const main = document.getElementById('kn-main');
  const loading = () => Boolean(main?.querySelector('[aria-busy="true"]'));
  if (!firstPaint || !main || !loading()) {
    removeFirstPaint();
    return () => undefined;
  }
  const done = () => {
    observer.disconnect();
    clearTimeout(timer);
    removeFirstPaint();
  };
  const observer = new MutationObserver(() => {
    if (!loading()) done();
  });
  observer.observe(main, { subtree: true, childList: true, attributes: true, attributeFilter: ['aria-busy'] });
  const timer = setTimeout(done, LOADING_WAIT_MS);
  return () => {
    observer.disconnect();
    clearTimeout(timer);
  };
}

/** For a route's page: the first paint gives way once the page has rendered (see handOff). */
export function useFirstPaintHandOff(): void {
  useLayoutEffect(() => handOff(), []);
}

/** For the app's frame: whatever happens to the page, the first paint is gone LATEST_HAND_OFF_MS after the frame renders. */
export function useLatestFirstPaintHandOff(): void {
  useEffect(() => {
    const timer = setTimeout(removeFirstPaint, LATEST_HAND_OFF_MS);
    return () => clearTimeout(timer);
  }, []);
}
