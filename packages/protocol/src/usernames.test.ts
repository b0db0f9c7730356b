import { describe, expect, it } from 'vitest';
import { playerIdSchema, updateUserBodySchema } from './accounts.js';
import { generatedDisplayName } from './names.js';
import {
  FULL_NAME_MAX_LENGTH,
  USERNAME_MAX_LENGTH,
  USERNAME_MIN_LENGTH,
  UsernameError,
  checkFullName,
  checkUsername,
  isReservedUsername,
  usernameErrorText,
} from './usernames.js';

describe('username rules', () => {
  it('accepts ordinary handles in any script', () => {
    for (const name of ['alice', 'Bob_42', 'jean-luc', 'm.sato', 'さくら123', 'abc', 'a'.repeat(24)]) {
      expect(checkUsername(name), name).toBeUndefined();
    }
  });

  it('refuses a name shorter than the minimum with ErrInvalidUsernameLength and its fixed text', () => {
    for (const name of ['', ' ', 'ab', '  ab  ', 'さく']) {
      const problem = checkUsername(name);
      expect(problem?.code, JSON.stringify(name)).toBe('ErrInvalidUsernameLength');
      expect(problem?.message).toBe('Username is too short, please try again.');
      expect(problem?.tooLong).toBeUndefined();
    }
    expect(USERNAME_MIN_LENGTH).toBe(3);
  });

  it('refuses a name longer than the maximum with the same code and its own words', () => {
    const problem = checkUsername('a'.repeat(USERNAME_MAX_LENGTH + 1));
    expect(problem).toMatchObject({ code: UsernameError.InvalidLength, tooLong: true });
    expect(problem?.message).toMatch(/too long/);
    // characters, not UTF-16 units: 24 kana are fine
    expect(checkUsername('あ'.repeat(USERNAME_MAX_LENGTH))).toBeUndefined();
  });

  it('counts the trimmed name', () => {
    expect(checkUsername('   alice   ')).toBeUndefined();
  });

  it('refuses names starting with g- in any case (the guest prefix)', () => {
    for (const name of ['g-alice', 'G-alice', 'g-0123456789ab']) {
      expect(checkUsername(name)).toEqual({
        code: 'ErrUsernameGuestPrefix',
        message: 'Username cannot start with g-',
      });
    }
    expect(checkUsername('gg-alice')).toBeUndefined();
    expect(checkUsername('g_alice')).toBeUndefined();
  });

  it('refuses spaces and symbols', () => {
    for (const name of ['alice smith', 'alice!', 'a/b/c', 'ali<ce>', 'tab\there']) {
      expect(checkUsername(name)?.code, name).toBe('ErrUsernameInvalidCharacters');
    }
  });

  it('refuses the mascot, the product and admin-like names, however written', () => {
    const reserved = [
      '_xtalkchan',
      'xtalkchan',
      'XTalkChan',
      '_XTALKCHAN',
      'x.talk.chan',
      'xtalk',
      'XTalk_Official',
      'admin',
      'Admin',
      'admin_01',
      'administrator',
      'Administrator2',
      'root',
      'system',
      'moderator',
      'mod',
      'support',
      'staff',
      'superuser',
    ];
    for (const name of reserved) {
      expect(checkUsername(name), name).toEqual({
        code: 'ErrUsernameReserved',
        message: 'The username you entered is not available or reserved. Please choose a different one.',
      });
      expect(isReservedUsername(name), name).toBe(true);
    }
    for (const name of ['modest', 'rooted', 'alice_admirer', 'supportive']) {
      expect(isReservedUsername(name), name).toBe(false);
    }
  });

  it('refuses system-generated adjective+noun names, naming them', () => {
    const generated = generatedDisplayName('g-0123456789ab');
    for (const name of [generated, generated.toLowerCase(), generated.toUpperCase()]) {
      expect(checkUsername(name)).toEqual({
        code: 'ErrUsernameGenerated',
        message: `The username ${name} is a system generated one. Please choose a different one.`,
      });
    }
    // a generated name with something added is the person's own
    expect(checkUsername(`${generated}7`)).toBeUndefined();
  });

  it('has a text for every code, the fixed ones word for word', () => {
    expect(Object.keys(usernameErrorText).sort()).toEqual(Object.values(UsernameError).sort());
    expect(usernameErrorText.ErrUsernameAlreadyTaken).toBe(
      'The given username is taken, please try another one.',
    );
  });
});

describe('full name', () => {
  it('trims and collapses whitespace', () => {
    expect(checkFullName('  Sato   Hanako ')).toEqual({ ok: true, value: 'Sato Hanako' });
    expect(checkFullName('')).toEqual({ ok: true, value: '' });
  });

  it('refuses control characters and overlong names', () => {
    expect(checkFullName('a\u0000b').ok).toBe(false);
    expect(checkFullName('x'.repeat(FULL_NAME_MAX_LENGTH + 1)).ok).toBe(false);
    expect(checkFullName('x'.repeat(FULL_NAME_MAX_LENGTH)).ok).toBe(true);
  });
});

describe('account bodies', () => {
  it('takes a player id as a string or a number, nothing else', () => {
    expect(playerIdSchema.parse('abc')).toBe('abc');
    expect(playerIdSchema.parse(42)).toBe('42');
    for (const bad of [null, undefined, {}, [], true, '', -1, 1.5]) {
      expect(playerIdSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('needs a name in PATCH /users', () => {
    expect(updateUserBodySchema.safeParse({}).success).toBe(false);
    expect(updateUserBodySchema.parse({ name: 'alice', fullName: 'Alice' })).toEqual({
      name: 'alice',
      fullName: 'Alice',
    });
  });
});
