import type { ServerFrame, SystemFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import type { Audience } from './envelope.js';
import { createPresenceAnnouncer } from './presence-announcer.js';

/* JOIN/LEAVE coalescing: the first event at once, a burst as one frame, order kept between kinds. */

function recorder() {
  const sent: Array<{ roomId: string; frame: SystemFrame; audience: Audience | undefined }> = [];
  let wake: (() => void) | undefined;
  const broadcast = async (roomId: string, frame: ServerFrame, audience?: Audience) => {
    sent.push({ roomId, frame: frame as SystemFrame, audience });
    wake?.();
  };
  /** Resolves once `count` frames were sent (no fixed sleep: the window's timer sends them). */
  const until = (count: number) =>
    new Promise<void>((resolve) => {
      if (sent.length >= count) return resolve();
      wake = () => sent.length >= count && resolve();
    });
  return { sent, broadcast, until };
}

const clock = { now: () => 1000 };
const person = (name: string) => ({ username: name, displayUsername: name.toUpperCase() });

describe('presence announcer', () => {
  it('sends a lone JOIN at once, as before: one name, not to the joiner', async () => {
    const { sent, broadcast } = recorder();
    const announcer = createPresenceAnnouncer({ broadcast }, clock, { windowMs: 50 });
    await announcer.announce('R1', 'JOIN', person('a'));
    expect(sent).toEqual([
      {
        roomId: 'R1',
        frame: { type: 'system', message: 'JOIN', timestamp: 1000, username: 'a', displayUsername: 'A' },
        audience: { exceptUsername: 'a' },
      },
    ]);
    await announcer.flush();
  });

  it('coalesces the JOINs that follow within the window into one frame listing everyone', async () => {
    const { sent, broadcast, until } = recorder();
    const announcer = createPresenceAnnouncer({ broadcast }, clock, { windowMs: 50 });
    await announcer.announce('R1', 'JOIN', person('a'));
    for (const name of ['b', 'c', 'd']) await announcer.announce('R1', 'JOIN', person(name));
    await announcer.announce('R2', 'JOIN', person('x')); // another room has its own window
    expect(sent.map((entry) => entry.frame.username)).toEqual(['a', 'x']);
    await until(3);
    expect(sent[2]).toEqual({
      roomId: 'R1',
      frame: {
        type: 'system',
        message: 'JOIN',
        timestamp: 1000,
        username: 'b',
        displayUsername: 'B',
        usernames: ['b', 'c', 'd'],
        displayUsernames: ['B', 'C', 'D'],
      },
      audience: {},
    });
    await announcer.flush();
  });

  it('keeps JOIN and LEAVE apart and in order', async () => {
    const { sent, broadcast } = recorder();
    const announcer = createPresenceAnnouncer({ broadcast }, clock, { windowMs: 10_000 });
    await announcer.announce('R1', 'JOIN', person('a'));
    await announcer.announce('R1', 'JOIN', person('b'));
    await announcer.announce('R1', 'JOIN', person('c'));
    await announcer.announce('R1', 'LEAVE', person('a')); // sends the waiting JOINs first
    await announcer.announce('R1', 'LEAVE', person('b'));
    await announcer.flush();
    expect(
      sent.map((entry) => `${entry.frame.message}:${entry.frame.usernames ?? entry.frame.username}`),
    ).toEqual(['JOIN:a', 'JOIN:b,c', 'LEAVE:a,b']);
  });

  it("never puts a JOIN for the other nodes' members in a frame for everyone", async () => {
    const { sent, broadcast } = recorder();
    const announcer = createPresenceAnnouncer({ broadcast }, clock, { windowMs: 10_000 });
    await announcer.announce('R1', 'JOIN', person('a'), { elsewhere: true });
    await announcer.announce('R1', 'JOIN', person('b'), { elsewhere: true });
    await announcer.announce('R1', 'JOIN', person('c'), { elsewhere: true });
    await announcer.announce('R1', 'JOIN', person('d')); // sends the waiting ones first
    await announcer.flush();
    expect(
      sent.map((entry) => [entry.frame.usernames ?? entry.frame.username, entry.audience?.elsewhere]),
    ).toEqual([
      ['a', true],
      [['b', 'c'], true],
      ['d', undefined],
    ]);
  });
});
