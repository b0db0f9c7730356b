import { describe, it } from 'vitest';
import { checkPresence } from '../testing/presence-checks.js';
import { createMemoryPresence } from './presence.js';

/* Presence in one process; the same checks run against Redis in `testing/presence.services.ts`. */

describe('memory presence', () => {
  it('counts people per room and connections per language', async () => {
    await checkPresence(createMemoryPresence(), 'R1');
  });
});
