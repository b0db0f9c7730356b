import { describe, expect, it } from 'vitest';
import { protocolRefusal, versionsOfRefusal } from './protocol-refusal.js';

describe('protocol refusal', () => {
  it('names the versions a server speaks, read back by the client', () => {
    expect(versionsOfRefusal(protocolRefusal(6, 1, 5))).toEqual({ min: 1, max: 5 });
    expect(versionsOfRefusal(protocolRefusal(undefined, 3, 3))).toEqual({ min: 3, max: 3 });
  });

  it("reads the words of nodes written before this module (a version-5 node's refusal)", () => {
    const older = 'Protocol version 6 is not supported (this server speaks 1 to 5); please reload.';
    expect(versionsOfRefusal(older)).toEqual({ min: 1, max: 5 });
  });

  it('is undefined for any other close reason', () => {
    expect(versionsOfRefusal('Server is restarting; reconnect.')).toBeUndefined();
  });
});
