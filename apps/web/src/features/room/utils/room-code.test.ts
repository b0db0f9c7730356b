import { describe, expect, it } from 'vitest';
import { translate } from '#web/lib/i18n';
import { checkRoomCode, roomCodeInput } from './room-code';

describe('checkRoomCode', () => {
  it('trims and upper-cases a valid code', () => {
    expect(checkRoomCode('  abc2345 ', 'ZZZ9999')).toEqual({ ok: true, code: 'ABC2345' });
  });

  it.each(['', 'ABC234', 'ABC23456', 'ABC-234', 'ABC 234'])('rejects %j as not 7 characters', (input) => {
    const result = checkRoomCode(input, null);
    expect(result).toEqual({ ok: false, error: 'join.invalid' });
    if (!result.ok) expect(translate('en', result.error)).toBe('Invalid Room Code (must be 7 characters).');
  });

  it('refuses the room we are already in', () => {
    const result = checkRoomCode('abc2345', 'ABC2345');
    expect(result).toEqual({ ok: false, error: 'join.same' });
    if (!result.ok) expect(translate('en', result.error)).toBe('You are already in this room.');
  });
});

describe('roomCodeInput (pasted codes and links)', () => {
  it('strips spaces before the length rule and upper-cases', () => {
    expect(roomCodeInput(' 2jfkash')).toBe('2JFKASH');
    expect(roomCodeInput('2JF KASH ')).toBe('2JFKASH');
    expect(roomCodeInput('\t2jf\nkash')).toBe('2JFKASH');
  });

  it('takes r out of a full share link', () => {
    expect(roomCodeInput('https://xtalk.example/translate?r=HJK2345')).toBe('HJK2345');
    expect(roomCodeInput('  http://localhost:8787/translate?x=1&r=hjk2345  ')).toBe('HJK2345');
  });

  it('cuts what is left to 7 characters, as the max length', () => {
    expect(roomCodeInput('ABCDEFGHJ')).toBe('ABCDEFG');
  });
});
