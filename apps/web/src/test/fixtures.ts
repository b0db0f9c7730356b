import type { User } from '@xtalk/protocol';

/** A signed-in guest as the server describes one; tests override what they are about. */
export function testUser(overrides: Partial<User> = {}): User {
  return {
    userId: 'u1',
    appId: 'xtalk',
    platform: 'web',
    platformPlayerId: 'p1',
    provider: 'guest',
    username: 'g_abc',
    displayUsername: 'BraveOtter',
    name: '',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ...overrides,
  };
}
