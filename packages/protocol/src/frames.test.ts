import { describe, expect, it } from 'vitest';
import { parseClientFrame } from './client-frames.js';
import { serverFrameSchema } from './frames.js';
import { isGeneratedRoomCode, normalizeRoomCode, roomCodeSchema, roomRequestSchema } from './room-code.js';

describe('client frames', () => {
  it('parses each client frame type', () => {
    for (const frame of [
      { type: 'setUsername', username: 'g-1', language: 'en', room: 'ABCDEFG' },
      { type: 'chat', language: 'ja', message: 'こんにちは', room: 'ABCDEFG' },
      { type: 'setLanguage', language: 'ja', room: 'ABCDEFG' },
      { type: 'updateUsername', username: 'yuki', displayUsername: 'Yuki' },
      { type: 'editMessage', id: 1_700_000_000_000, message: 'fixed' },
    ]) {
      expect(parseClientFrame(JSON.stringify(frame))).toEqual({ ok: true, frame });
    }
  });

  it('explains what is wrong with a bad frame', () => {
    expect(parseClientFrame('{')).toMatchObject({
      ok: false,
      code: 'bad_frame',
      message: 'Frame is not valid JSON.',
    });
    expect(parseClientFrame('{"type":"dance"}')).toMatchObject({ ok: false, code: 'bad_frame' });
    expect(parseClientFrame('null')).toMatchObject({ ok: false, code: 'bad_frame' });
    const long = parseClientFrame(
      JSON.stringify({ type: 'chat', language: 'en', message: 'a'.repeat(2001), room: 'R' }),
    );
    expect(long).toMatchObject({ ok: false, code: 'message_invalid' });
    expect(long.ok === false && long.message).toMatch(/2000/);
    const empty = parseClientFrame(
      JSON.stringify({ type: 'chat', language: 'en', message: ' \n ', room: 'R' }),
    );
    expect(empty).toMatchObject({
      ok: false,
      code: 'message_invalid',
      message: 'message: Message is empty.',
    });
    // a correction is held to the same text rules as a chat message
    expect(parseClientFrame(JSON.stringify({ type: 'editMessage', id: 1, message: ' ' }))).toMatchObject({
      ok: false,
      code: 'message_invalid',
    });
    expect(parseClientFrame(JSON.stringify({ type: 'editMessage', id: 'x', message: 'a' }))).toMatchObject({
      ok: false,
      code: 'bad_frame',
    });
    expect(
      parseClientFrame(JSON.stringify({ type: 'chat', language: 'EN!', message: 'x', room: 'R' })),
    ).toMatchObject({
      ok: false,
      code: 'bad_frame',
    });
  });
});

describe('server frames', () => {
  it('accepts every server frame type', () => {
    const frames = [
      {
        type: 'message',
        id: 1,
        username: 'u',
        message: 'm',
        language: 'en',
        timestamp: 1,
        translations: { ja: 'x' },
        isTutorial: false,
      },
      { type: 'system', message: 'READY', timestamp: 1, roomId: 'ABCDEFG', protocolVersion: 1 },
      { type: 'translationChunk', originalTimestamp: 1, targetLanguage: 'ja', chunk: 'x' },
      { type: 'translationComplete', originalTimestamp: 1, targetLanguage: 'ja', fullText: 'x' },
      { type: 'noteComplete', originalTimestamp: 1, note: 'n' },
      { type: 'usernameUpdate', username: 'u', displayUsername: 'U', oldDisplayUsername: 'O' },
      { type: 'error', code: 'bad_frame', message: 'm' },
      { type: 'messageEdited', id: 1, message: 'fixed', editedAt: 2, offset: 3 },
      { type: 'error', code: 'edit_forbidden', message: 'm' },
      { type: 'system', message: 'READY', timestamp: 1, languages: ['en', 'ja', 'fr'] },
    ];
    for (const frame of frames) expect(serverFrameSchema.parse(frame)).toEqual(frame);
  });
});

describe('room codes', () => {
  it('trims and upper-cases, then needs exactly 7 characters', () => {
    expect(normalizeRoomCode('  abc2def ')).toBe('ABC2DEF');
    expect(roomCodeSchema.parse(' abc2def')).toBe('ABC2DEF');
    const short = roomCodeSchema.safeParse('abc');
    expect(short.success).toBe(false);
    expect(short.error?.issues[0]?.message).toBe('Invalid Room Code (must be 7 characters).');
  });

  it('accepts null and "new" for a room to create', () => {
    expect(roomRequestSchema.parse(null)).toBeNull();
    expect(roomRequestSchema.parse('new')).toBe('new');
  });

  it('knows the generated alphabet has no look-alikes', () => {
    expect(isGeneratedRoomCode('ABCDEFG')).toBe(true);
    expect(isGeneratedRoomCode('ABCDEF0')).toBe(false);
    expect(isGeneratedRoomCode('ABCDEFI')).toBe(false);
  });
});
