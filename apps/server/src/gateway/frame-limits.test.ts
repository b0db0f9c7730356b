import { describe, expect, it } from 'vitest';
import {
  clientIdScanned,
  createFrameLimits,
  frameKindOf,
  parseFrameText,
  type FrameLimitSettings,
} from './frame-limits.js';

/* The per-connection frame limits against a clock the test moves. */

const settings: FrameLimitSettings = {
  framesPerSecond: 10,
  frameBurst: 5,
  chatPerSecond: 2,
  chatBurst: 3,
  controlPerSecond: 0.5,
  controlBurst: 2,
  invalidPerSecond: 1,
  invalidBurst: 2,
  floodCloseAfter: 20,
};

function setup(overrides: Partial<FrameLimitSettings> = {}) {
  const clock = { t: 1_000_000, now: () => clock.t };
  return { clock, limits: createFrameLimits({ ...settings, ...overrides }, clock) };
}

describe('frame limits', () => {
  it('counts every frame as it arrives, then tells the client at most once a second', () => {
    const { clock, limits } = setup();
    const verdicts = Array.from({ length: 8 }, () => limits.arrive());
    expect(verdicts).toEqual(['ok', 'ok', 'ok', 'ok', 'ok', 'tell', 'drop', 'drop']);
    clock.t += 1000; // the bucket is full again (burst 5), and a second has passed since the client was told
    expect(Array.from({ length: 8 }, () => limits.arrive())).toEqual([
      'ok',
      'ok',
      'ok',
      'ok',
      'ok',
      'tell',
      'drop',
      'drop',
    ]);
  });

  it('limits each kind on its own: chat, control frames and invalid frames', () => {
    const { clock, limits } = setup({ frameBurst: 100, framesPerSecond: 100 });
    expect(['chat', 'chat', 'chat', 'chat'].map(() => limits.kind('chat'))).toEqual([
      'ok',
      'ok',
      'ok',
      'tell',
    ]);
    // a refused valid frame is always answered: arrive() already bounds how many there can be
    expect(limits.kind('chat')).toBe('tell');
    expect([1, 2, 3].map(() => limits.kind('control'))).toEqual(['ok', 'ok', 'tell']);
    expect([1, 2, 3, 4].map(() => limits.kind('invalid'))).toEqual(['ok', 'ok', 'drop', 'drop']);
    clock.t += 1000;
    expect(limits.kind('invalid')).toBe('ok');
    expect(limits.kind('chat')).toBe('ok');
  });

  it('closes a connection after too many refusals in a row; an accepted frame resets the count', () => {
    const { clock, limits } = setup({ floodCloseAfter: 5, frameBurst: 1, framesPerSecond: 1 });
    expect(limits.arrive()).toBe('ok');
    expect([1, 2, 3, 4].map(() => limits.arrive())).toEqual(['tell', 'drop', 'drop', 'drop']);
    clock.t += 1000;
    expect(limits.arrive()).toBe('ok');
    expect(limits.kind('chat')).toBe('ok');
    expect([1, 2, 3, 4].map(() => limits.arrive())).toEqual(['tell', 'drop', 'drop', 'drop']);
    expect(limits.arrive()).toBe('close');
  });

  it('sorts frame types into kinds', () => {
    expect(frameKindOf('setUsername')).toBe('control');
    expect(frameKindOf('setLanguage')).toBe('control');
    expect(frameKindOf('updateUsername')).toBe('control');
    expect(frameKindOf('chat')).toBe('chat');
    expect(frameKindOf('voiceClip')).toBe('chat');
  });
});

describe('the clientId of a frame not parsed', () => {
  it("reads the frame's own field, never one quoted inside a message's text", () => {
    expect(clientIdScanned(JSON.stringify({ type: 'chat', message: 'hi', clientId: 'c-7' }))).toBe('c-7');
    const quoting = JSON.stringify({ type: 'chat', message: '"clientId":"forged"' });
    expect(clientIdScanned(quoting)).toBeUndefined();
    expect(clientIdScanned('{"type":"chat","clientId":"' + 'x'.repeat(65) + '"}')).toBeUndefined();
  });
});

describe('frame depth', () => {
  it('refuses a frame nested too deep before parsing it, and ignores brackets inside strings', () => {
    expect(parseFrameText('['.repeat(5000) + ']'.repeat(5000))).toMatchObject({
      ok: false,
      code: 'bad_frame',
    });
    const deepExtra = `{"type":"chat","language":"en","message":"hi","room":"R","x":${'['.repeat(20)}${']'.repeat(20)}}`;
    expect(parseFrameText(deepExtra)).toMatchObject({ ok: false, message: expect.stringMatching(/nested/) });
    const bracketsInText = JSON.stringify({
      type: 'chat',
      language: 'en',
      message: '[[[[[[[[[[{{{{{{{{ "\\',
      room: 'R',
    });
    expect(parseFrameText(bracketsInText)).toMatchObject({ ok: true });
  });
});
