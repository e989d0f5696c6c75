/** The player's one way to make elements (it draws with the DOM: no React, so that the page stays a few KB). */

/** An element with attributes and children (text children are text nodes: never parsed as HTML). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs: Record<string, string> = {}, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** The visitor asked their system for less motion: nothing moves by itself, and nothing fades. */
export const prefersReducedMotion = () => window.matchMedia('(prefers-reduced-motion: reduce)').matches;
