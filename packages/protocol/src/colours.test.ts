import { describe, expect, it } from 'vitest';
import {
  MIN_TEXT_CONTRAST,
  NAME_BACKGROUNDS,
  contrastRatio,
  hslToRgb,
  nameColours,
  avatarColours,
  parseHsl,
  worstContrast,
} from './colours.js';
import { SYSTEM_USERNAME } from './constants.js';
import { userColour } from './names.js';

const usernames = [
  SYSTEM_USERNAME,
  'alice',
  'bob',
  'g-1234',
  ...Array.from({ length: 2000 }, (_, i) => `user-${i}`),
];

describe('name colours (WCAG AA in both themes, hue from the hash)', () => {
  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio([0, 0, 0], [255, 255, 255])).toBeCloseTo(21, 5);
    expect(contrastRatio([255, 255, 255], [255, 255, 255])).toBe(1);
    // #767676 on white is the classic 4.54:1
    expect(contrastRatio([118, 118, 118], [255, 255, 255])).toBeCloseTo(4.54, 2);
  });

  it('knows the unreadable case of the issue: a dark hash colour on the dark background', () => {
    const raw = parseHsl(userColour('user-7', false).userColor);
    expect(worstContrast(raw, 'dark')).toBeLessThan(MIN_TEXT_CONTRAST);
  });

  it.each(['light', 'dark'] as const)('every name reaches 4.5:1 on every %s background', (theme) => {
    for (const username of usernames) {
      for (const isMe of [false, true]) {
        const colour = parseHsl(nameColours(username, isMe)[theme]);
        expect(worstContrast(colour, theme), `${username} ${theme}`).toBeGreaterThanOrEqual(
          MIN_TEXT_CONTRAST,
        );
      }
    }
    expect(NAME_BACKGROUNDS[theme].length).toBeGreaterThan(0);
  });

  it('keeps the hue and saturation of the hash, moving only the lightness', () => {
    for (const username of usernames) {
      const base = parseHsl(userColour(username, false).userColor);
      for (const theme of ['light', 'dark'] as const) {
        const shown = parseHsl(nameColours(username, false)[theme]);
        expect(shown.hue).toBe(base.hue);
        expect(shown.saturation).toBe(base.saturation);
      }
    }
  });

  it('leaves a colour alone when it already reads, and keeps the mascot yellow', () => {
    const mascot = nameColours(SYSTEM_USERNAME, false);
    expect(parseHsl(mascot.dark)).toEqual(parseHsl(userColour(SYSTEM_USERNAME, false).userColor));
    expect(parseHsl(mascot.light).hue).toBe(48);
  });
});

describe('avatar colours', () => {
  it('give initials AA contrast on every avatar, the yellow mascot staying yellow', () => {
    const toRgb = (hex: string): [number, number, number] => {
      const n = Number.parseInt(hex.slice(1), 16);
      return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
    };
    for (const username of usernames) {
      for (const isMe of [false, true]) {
        const { background, text } = avatarColours(username, isMe);
        const bg = parseHsl(background);
        expect(contrastRatio(hslToRgb(bg), toRgb(text)), username).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST);
        expect(bg.hue).toBe(parseHsl(userColour(username, isMe).userColor).hue);
      }
    }
    expect(avatarColours(SYSTEM_USERNAME, false).background).toBe(
      userColour(SYSTEM_USERNAME, false).userColor,
    );
  });
});
