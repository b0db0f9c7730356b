import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * Short MACs under keys derived from AUTH_SECRET, one key per purpose, so that what one node sealed every
 * node of the cluster can check without the database (decision 0230). A key of its own per purpose: a
 * seal made for one thing is never a valid token, challenge or seal of another.
 */

export interface Seals {
  /** A 16-byte MAC of `data` for `purpose`, in base64url (22 characters). */
  seal(purpose: string, data: string): string;
  /** Whether `mac` is the seal of `data` for `purpose` (compared in constant time). */
  opens(purpose: string, data: string, mac: string): boolean;
}

const SEAL_BYTES = 16;

export function createSeals(secret: string): Seals {
  const keys = new Map<string, Buffer>();
  function keyFor(purpose: string): Buffer {
    let key = keys.get(purpose);
    if (!key) {
      key = createHmac('sha256', secret).update(`xtalk seal: ${purpose}`).digest();
      keys.set(purpose, key);
    }
    return key;
  }
  const macOf = (purpose: string, data: string) =>
    createHmac('sha256', keyFor(purpose)).update(data).digest().subarray(0, SEAL_BYTES);
  return {
    seal: (purpose, data) => macOf(purpose, data).toString('base64url'),
    opens(purpose, data, mac) {
      const given = Buffer.from(mac, 'base64url');
      return given.length === SEAL_BYTES && timingSafeEqual(given, macOf(purpose, data));
    },
  };
}
