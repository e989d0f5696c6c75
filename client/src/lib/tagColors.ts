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

/** Content type colours: red music, green art, orange photos. */
export const TYPE_COLORS: Record<TagType, TypePalette> = {
  music: { color: '#e5383b', strong: '#b81f27', tint: '#fff1f1', soft: '#fbd3d4' },
  art: { color: '#1f9d55', strong: '#157a41', tint: '#edf8f1', soft: '#c5e9d3' },
  photos: { color: '#f77f00', strong: '#c25e00', tint: '#fff5ea', soft: '#fddcb5' },
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
