/**
 * The colour tokens every page draws text with read at WCAG AA's 4.5:1 on the surfaces they are drawn on: the
 * page's text tokens (global.css), antd's text tokens (the theme), and each content type's palette. A token made
 * lighter fails here by name, before any page shows it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { theme } from '../../client/src/components/antd/theme';
import { TYPE_COLORS } from '../../client/src/lib/tagColors';

const AA = 4.5;

/** WCAG 2 relative luminance of a #rgb or #rrggbb colour. */
function luminance(hex: string): number {
  const digits = hex.replace('#', '');
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join('') : digits;
  const [red, green, blue] = [0, 2, 4].map((at) => {
    const channel = parseInt(full.slice(at, at + 2), 16) / 255;
    return channel <= 0.03928 ? channel / 12.92 : ((channel + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * red! + 0.7152 * green! + 0.0722 * blue!;
}

function contrast(foreground: string, background: string): number {
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/** The custom properties of global.css's :root. */
function rootTokens(): Record<string, string> {
  const css = readFileSync(path.resolve(__dirname, '../../client/src/styles/global.css'), 'utf8');
  const root = /:root\s*{([^}]*)}/.exec(css)![1]!;
  return Object.fromEntries([...root.matchAll(/(--kn-[\w-]+):\s*(#[0-9a-fA-F]{3,6})\s*;/g)].map(([, name, value]) => [name!, value!]));
}

const below = (pairs: [string, string, string][]) =>
  pairs
    .filter(([, foreground, background]) => contrast(foreground, background) < AA)
    .map(([name, fg, bg]) => `${name}: ${fg} on ${bg} is ${contrast(fg, bg).toFixed(2)}:1`);

describe('colour tokens and WCAG AA contrast', () => {
  it('the contrast formula gives the known extremes: black on white 21:1, a colour on itself 1:1', () => {
    expect(contrast('#000', '#fff')).toBeCloseTo(21, 5);
    expect(contrast('#5b3cf5', '#5b3cf5')).toBe(1);
  });

  it('the page text tokens read at 4.5:1 on the surface, the page background and the brand tint', () => {
    const tokens = rootTokens();
    const surfaces = ['--kn-surface', '--kn-bg', '--kn-brand-tint'];
    const texts = ['--kn-ink', '--kn-ink-2', '--kn-muted', '--kn-subtle', '--kn-brand', '--kn-brand-strong'];
    expect(texts.every((name) => tokens[name])).toBe(true);
    expect(
      below(texts.flatMap((text) => surfaces.map((surface): [string, string, string] => [`${text} on ${surface}`, tokens[text]!, tokens[surface]!]))),
    ).toEqual([]);
  });

  it("antd's text, placeholder, link and error colours read at 4.5:1 on white and on a filled input's grey", () => {
    const { token = {} } = theme;
    const names = ['colorText', 'colorTextSecondary', 'colorTextDescription', 'colorTextTertiary', 'colorTextPlaceholder', 'colorLink', 'colorError'] as const;
    const pairs = names.flatMap((name) => ['#ffffff', '#f5f5f5'].map((background): [string, string, string] => [name, token[name] as string, background]));
    expect(pairs.every(([, colour]) => typeof colour === 'string')).toBe(true);
    expect(below(pairs)).toEqual([]);
  });

  it("each content type's colour carries white text, its strong shade reads on its tint and on white, and the page's type tokens are the same colours", () => {
    const pairs = Object.entries(TYPE_COLORS).flatMap(([type, palette]): [string, string, string][] => [
      [`white on ${type}`, '#ffffff', palette.color],
      [`${type} strong on its tint`, palette.strong, palette.tint],
      [`${type} strong on white`, palette.strong, '#ffffff'],
    ]);
    expect(below(pairs)).toEqual([]);
    const tokens = rootTokens();
    expect([tokens['--kn-music'], tokens['--kn-art'], tokens['--kn-photos']]).toEqual([
      TYPE_COLORS.music.color,
      TYPE_COLORS.art.color,
      TYPE_COLORS.photos.color,
    ]);
  });
});
