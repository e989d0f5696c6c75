/**
 * The first paint: what a visitor sees of a public page before the app's scripts have run. The server puts it in
 * the page's HTML, next to the app's empty root, so that a phone on a slow network shows the page's main content
 * (a heading, the text, a cover) as soon as the HTML and the stylesheets arrive, instead of a blank screen until
 * the whole app has downloaded and run. It uses the app's own class names, so it looks like the page it stands for;
 * the app hides it and shows itself once the page has rendered (client/src/app/firstPaint.ts), and it stays as a
 * readable page where scripts do not run. Its links are plain links.
 */
import { escapeHtml } from './html';

/** The element that holds the first paint in index.html (the client removes it by this id). */
export const FIRST_PAINT_ID = 'kn-first-paint';

const LOGO = [
  '<a class="kn-logo" href="/" aria-label="Knack home">',
  '<svg class="kn-logo__mark" viewBox="0 0 64 64" aria-hidden="true" focusable="false">',
  '<rect width="64" height="64" rx="16" fill="#5b3cf5"/>',
  '<path d="M21 15h8v14.5L40.5 15H50L37.2 30.4 51 49h-9.8l-9.4-13.1L29 39.2V49h-8z" fill="#fff"/>',
  '<circle cx="49" cy="15" r="5" fill="#f77f00"/>',
  '</svg><span class="kn-logo__word">knack</span></a>',
].join('');

/**
 * A phone's user agent (tablets are not phones): the app lays such a visitor out as a phone, whatever the window's
 * width, and so does the first paint. The same rule as the app's (client/src/lib/ui/viewport.ts; a unit test
 * keeps the two in step).
 */
const PHONE_USER_AGENT = /Android.+Mobile|iPhone|iPod|Windows Phone|IEMobile|BlackBerry|Opera Mini|webOS|Mobile Safari/i;

export function isPhoneUserAgent(userAgent: string): boolean {
  return PHONE_USER_AGENT.test(userAgent) && !/iPad|Tablet/i.test(userAgent);
}

/** Who asks for the page: its layout follows the visitor's device, as the app's does. */
export interface Visitor {
  userAgent: string;
}

/**
 * A page's main content inside the app's frame: the top bar with the logo (after the phone's menu button's room),
 * the side rail's room on a wider screen, then the main column.
 */
export function firstPaintPage(main: string, visitor: Visitor): string {
  const phone = isPhoneUserAgent(visitor.userAgent);
  return [
    `<div id="${FIRST_PAINT_ID}" class="kn-shell kn-first-paint${phone ? ' kn-shell--phone' : ''}">`,
    `<header class="kn-topnav"><div class="kn-topnav__inner"><span class="kn-topnav__burger"></span>${LOGO}</div></header>`,
    `<div class="kn-body">${phone ? '' : '<div class="kn-rail"></div>'}<main class="kn-main">${main}</main></div>`,
    '</div>',
  ].join('');
}

/** The landing page's hero, as the app's home page draws it (features/home/components/Hero.tsx) without its visual. */
export function homeFirstPaint(visitor: Visitor): string {
  const offer = [
    ['$0.05', 'the smallest knack, paid per play or view'],
    ['90%', 'of what a piece earns goes to its creator'],
    ['10%', 'goes to the supporter who backs it'],
  ]
    .map(([value, label]) => `<div><dt>${value}</dt><dd>${label}</dd></div>`)
    .join('');
  return firstPaintPage(
    [
      '<div class="kn-home"><section class="kn-hero kn-hero--text" aria-labelledby="kn-first-paint-hero"><div class="kn-hero__copy">',
      '<p class="kn-hero__eyebrow"><span style="background:#d42f32"></span><span style="background:#17834a"></span>',
      '<span style="background:#c05000"></span>Music · Art · Photos</p>',
      '<h1 id="kn-first-paint-hero" class="kn-hero__title">Get paid for every play and view.</h1>',
      '<p class="kn-hero__lead">Knack is the marketplace where creators earn a <strong>knack</strong> — from $0.05 — each time their music is',
      ' played or their art and photos are viewed.</p>',
      '<div class="kn-hero__actions"><a class="kn-button kn-button--primary kn-button--large" href="/auth/signup"><span>Join For Free</span></a>',
      '<a class="kn-button kn-button--default kn-button--large" href="/auth/login"><span>Upload your work</span></a></div>',
      `<dl class="kn-hero__offer">${offer}</dl>`,
      '</div></section></div>',
    ].join(''),
    visitor,
  );
}

/** A day as the app writes it, "November 20, 2026". */
export const longDay = (at: Date) => at.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export { escapeHtml };
