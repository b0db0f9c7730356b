import { describe, expect, it } from 'vitest';
import { ADJECTIVES, NOUNS } from './name-words.js';
import { generatedDisplayName, hashString, isCustomName, isGeneratedName, userColour } from './names.js';

describe('display names', () => {
  it('has about 120 adjectives and 150 nouns, all distinct', () => {
    expect(ADJECTIVES.length).toBeGreaterThanOrEqual(115);
    expect(NOUNS.length).toBeGreaterThanOrEqual(145);
    expect(new Set([...ADJECTIVES, ...NOUNS]).size).toBe(ADJECTIVES.length + NOUNS.length);
  });

  it('is deterministic, an adjective and a noun without a space, and spread over many names', () => {
    expect(generatedDisplayName('g-abc')).toBe(generatedDisplayName('g-abc'));
    const names = new Set(Array.from({ length: 2000 }, (_, i) => generatedDisplayName(`g-${i}`)));
    expect(names.size).toBeGreaterThan(1800);
    for (const name of names) {
      expect(name).not.toContain(' ');
      expect(isGeneratedName(name)).toBe(true);
    }
  });

  it('names the mascot XTalkChan', () => {
    expect(generatedDisplayName('_xtalkchan')).toBe('XTalkChan');
  });

  it('tells custom names from generated and reserved ones', () => {
    expect(isCustomName('')).toBe(false);
    expect(isCustomName('xtalkchan')).toBe(false);
    expect(isCustomName('_xtalkchan')).toBe(false);
    expect(isCustomName('happypanda')).toBe(false);
    expect(isCustomName('HappyPanda')).toBe(false);
    expect(isCustomName('Yuki')).toBe(true);
    expect(isCustomName('Happy Panda')).toBe(true);
  });

  it('hashes stably (FNV-1a)', () => {
    expect(hashString('')).toBe(0x811c9dc5);
    expect(hashString('a')).toBe(0xe40c292c);
  });
});

describe('avatar colours', () => {
  it('uses fixed colours for me and the mascot', () => {
    expect(userColour('anyone', true).userColor).toBe('hsl(216, 76%, 36%)');
    expect(userColour('_xtalkchan', false).userColor).toBe('hsl(48, 89%, 50%)');
  });

  it('keeps others within hue 0-359, saturation 60-80%, lightness 30-40%', () => {
    for (let i = 0; i < 500; i++) {
      const match = /^hsl\((\d+), (\d+)%, (\d+)%\)$/.exec(userColour(`user-${i}`, false).userColor)!;
      const [hue, saturation, lightness] = match.slice(1).map(Number) as [number, number, number];
      expect(hue).toBeGreaterThanOrEqual(0);
      expect(hue).toBeLessThan(360);
      expect(saturation).toBeGreaterThanOrEqual(60);
      expect(saturation).toBeLessThanOrEqual(80);
      expect(lightness).toBeGreaterThanOrEqual(30);
      expect(lightness).toBeLessThanOrEqual(40);
    }
  });
});
