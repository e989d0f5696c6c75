import { useSyncExternalStore } from 'react';
import type { ThemeConfig } from 'antd/es/config-provider/context';

const QUERY = '(prefers-reduced-motion: reduce)';

function subscribe(onChange: () => void): () => void {
  if (typeof window.matchMedia !== 'function') return () => undefined;
  const query = window.matchMedia(QUERY);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}

const prefersReducedMotion = () => typeof window.matchMedia === 'function' && window.matchMedia(QUERY).matches;

/** Whether the visitor asked their system for less motion; follows the setting when it changes. */
export function usePrefersReducedMotion(): boolean {
  return useSyncExternalStore(subscribe, prefersReducedMotion, () => false);
}

/**
 * The theme with antd's motion off (no zoom, slide or fade: modals, drawers and menus appear at once) for
 * visitors who asked for less motion. Our own CSS follows the same setting (global.css).
 */
export function withMotionPreference(theme: ThemeConfig, reduced: boolean): ThemeConfig {
  return reduced ? { ...theme, token: { ...theme.token, motion: false } } : theme;
}
