import { userColour } from './names.js';

/*
 * Name colours that stay readable (WCAG AA, 4.5:1) in both themes while keeping the avatar colour's hue:
 * the hue (and saturation) come from the username's hash, only the lightness moves, and only as far as
 * the contrast needs. Each name is checked against every background it is drawn on in that theme.
 */

export const MIN_TEXT_CONTRAST = 4.5;

/** The page and message-card backgrounds of each theme (Tailwind slate-50 / white; slate-950 / slate-900). */
export const NAME_BACKGROUNDS = {
  light: ['#ffffff', '#f8fafc'],
  dark: ['#020617', '#0f172a'],
} as const;

export interface Hsl {
  hue: number;
  saturation: number;
  lightness: number;
}

/** sRGB channels 0..255 of an HSL colour (percentages for saturation and lightness). */
export function hslToRgb({ hue, saturation, lightness }: Hsl): [number, number, number] {
  const s = saturation / 100;
  const l = lightness / 100;
  const k = (n: number) => (n + hue / 30) % 12;
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => l - a * Math.max(-1, Math.min(k(n) - 3, Math.min(9 - k(n), 1)));
  return [f(0), f(8), f(4)].map((v) => Math.round(v * 255)) as [number, number, number];
}

function hexToRgb(hex: string): [number, number, number] {
  const n = Number.parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** WCAG relative luminance of an sRGB colour. */
export function relativeLuminance([r, g, b]: [number, number, number]): number {
  const linear = (c: number) => {
    const v = c / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

/** WCAG contrast ratio of two colours (1..21). */
export function contrastRatio(a: [number, number, number], b: [number, number, number]): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The lowest contrast of a colour against a theme's backgrounds. */
export function worstContrast(colour: Hsl, theme: keyof typeof NAME_BACKGROUNDS): number {
  const rgb = hslToRgb(colour);
  return Math.min(...NAME_BACKGROUNDS[theme].map((bg) => contrastRatio(rgb, hexToRgb(bg))));
}

export function parseHsl(css: string): Hsl {
  const [hue, saturation, lightness] = (css.match(/[\d.]+/g) ?? []).map(Number);
  return { hue: hue ?? 0, saturation: saturation ?? 0, lightness: lightness ?? 0 };
}

export const formatHsl = ({ hue, saturation, lightness }: Hsl) =>
  `hsl(${hue}, ${saturation}%, ${lightness}%)`;

/** Darken (light theme) or lighten (dark theme) in 1% steps until the colour reads at AA. */
export function readableOn(colour: Hsl, theme: keyof typeof NAME_BACKGROUNDS): Hsl {
  const step = theme === 'light' ? -1 : 1;
  let lightness = colour.lightness;
  while (
    worstContrast({ ...colour, lightness }, theme) < MIN_TEXT_CONTRAST &&
    lightness > 0 &&
    lightness < 100
  )
    lightness += step;
  return { ...colour, lightness };
}

export interface NameColours {
  /** The name's colour on the light theme's backgrounds. */
  light: string;
  /** The name's colour on the dark theme's backgrounds. */
  dark: string;
}

/** The author name's text colour in each theme: the avatar colour (names.ts), made readable. */
export function nameColours(username: string, isMe: boolean): NameColours {
  const base = parseHsl(userColour(username, isMe).userColor);
  return { light: formatHsl(readableOn(base, 'light')), dark: formatHsl(readableOn(base, 'dark')) };
}

const WHITE: [number, number, number] = [255, 255, 255];
const SLATE_900: [number, number, number] = [15, 23, 42];

export interface AvatarColours {
  background: string;
  text: string;
}

/**
 * An avatar's fill and initials: the avatar colour (names.ts) with white or slate-900 initials, whichever
 * reads better; when neither reaches AA (mid-tone colours), the fill darkens along its own hue until white
 * does, as the name colour does.
 */
export function avatarColours(username: string, isMe: boolean): AvatarColours {
  const base = parseHsl(userColour(username, isMe).userColor);
  const rgb = hslToRgb(base);
  const white = contrastRatio(rgb, WHITE);
  const dark = contrastRatio(rgb, SLATE_900);
  if (Math.max(white, dark) >= MIN_TEXT_CONTRAST)
    return { background: formatHsl(base), text: white >= dark ? '#ffffff' : '#0f172a' };
  return { background: formatHsl(readableOn(base, 'light')), text: '#ffffff' };
}
