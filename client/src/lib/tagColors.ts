import type { CSSProperties } from 'react';
import type { TagType } from './tags';

export interface TypePalette {
  /** The type colour: text, icons, accents. */
  color: string;
  /** A darker shade for text on the tint. */
  strong: string;
  /** A light tint for backgrounds. */
  tint: string;
  /** A border-strength tint. */
  soft: string;
}

/**
 * Content type colours: red music, green art, orange photos. Each shade is dark enough to carry text (WCAG AA,
 * 4.5:1): white text on `color` (chips, badges), `strong` text on `tint` and on the page. A lighter, brighter
 * shade would look livelier but leave small white labels unreadable to many people, so none is used.
 */
export const TYPE_COLORS: Record<TagType, TypePalette> = {
  music: { color: '#d42f32', strong: '#b81f27', tint: '#fff1f1', soft: '#fbd3d4' },
  art: { color: '#17834a', strong: '#146c3a', tint: '#edf8f1', soft: '#c5e9d3' },
  photos: { color: '#c05000', strong: '#9a4800', tint: '#fff5ea', soft: '#fddcb5' },
};

export function typeColor(type: TagType): string {
  return TYPE_COLORS[type].color;
}

/** A type's palette as CSS variables (--kn-type, --kn-type-strong, --kn-type-tint, --kn-type-soft) for a style attribute. */
export function typeStyle(type: TagType): CSSProperties {
  const palette = TYPE_COLORS[type];
  return {
    '--kn-type': palette.color,
    '--kn-type-strong': palette.strong,
    '--kn-type-tint': palette.tint,
    '--kn-type-soft': palette.soft,
  } as CSSProperties;
}
