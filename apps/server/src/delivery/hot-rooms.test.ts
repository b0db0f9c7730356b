import { MEMBER_COUNT_PROTOCOL_VERSION, type ServerFrame, type SystemFrame } from '@xtalk/protocol';
import { describe, expect, it } from 'vitest';
import { decodeEnvelope, encodeText, isAudience, type Audience } from './envelope.js';
import { RECENT_NAMES, STEPS } from './hot-rooms.js';
import { createPresenceAnnouncer } from './presence-announcer.js';

/* Hot rooms: names below the threshold, counts in steps above it, names kept for older clients. */

const clock = { now: () => 1000 };
const person = (name: string) => ({ username: name, displayUsername: name.toUpperCase() });
const HOT_ABOVE = 100;

function room(settleMs = 600_000) {
  const sent: Array<{ frame: SystemFrame; audience: Audience | undefined }> = [];
  let wake: (() => void) | undefined;
  const broadcast = async (_roomId: string, frame: ServerFrame, audience?: Audience) => {
    sent.push({ frame: frame as SystemFrame, audience });
    wake?.();
  };
  let members = 0;
  // every announcement is its own window (flushed at once): the worst case for coalescing
  const announcer = createPresenceAnnouncer({ broadcast }, clock, {
    windowMs: 600_000,
    members: async () => members,
    hotAbove: HOT_ABOVE,
    settleMs,
  });
  const join = async (name: string) => {
    members++;
    await announcer.announce('R', 'JOIN', person(name));
    await announcer.flush();
  };
  const leave = async (name: string) => {
    members--;
    await announcer.announce('R', 'LEAVE', person(name));
  };
  const counts = () => sent.filter((entry) => entry.frame.message === 'MEMBERS');
  const until = (predicate: () => boolean) =>
    new Promise<void>((resolve) => {
      if (predicate()) return resolve();
      wake = () => predicate() && resolve();
    });
  return { sent, join, leave, counts, until, announcer };
}

describe('hot rooms', () => {
  it('names everyone to everyone in a small room, with the count', async () => {
    const { sent, join } = room();
    await join('a');
    await join('b');
    expect(sent.map((entry) => [entry.frame.username, entry.frame.members, entry.audience])).toEqual([
      ['a', 1, { exceptUsername: 'a' }],
      ['b', 2, { exceptUsername: 'b' }],
    ]);
  });

  it('sends current clients counts above the threshold and older clients every name', async () => {
    const { sent, join, counts } = room();
    for (let i = 0; i < HOT_ABOVE; i++) await join(`p${i}`);
    sent.length = 0;
    await join('hot');
    expect(sent).toEqual([
      {
        frame: expect.objectContaining({ message: 'JOIN', username: 'hot' }),
        audience: { exceptUsername: 'hot', belowVersion: MEMBER_COUNT_PROTOCOL_VERSION },
      },
      {
        frame: {
          type: 'system',
          message: 'MEMBERS',
          timestamp: 1000,
          members: HOT_ABOVE + 1,
          joined: 1,
          left: 0,
          usernames: ['hot'],
          displayUsernames: ['HOT'],
        },
        audience: { fromVersion: MEMBER_COUNT_PROTOCOL_VERSION },
      },
    ]);
    // the next count waits for a step of a twentieth; it names only the latest few
    for (let i = 0; i < 5; i++) await join(`q${i}`);
    expect(counts()).toHaveLength(1);
    await join('q5');
    expect(counts()[1]!.frame).toMatchObject({ members: HOT_ABOVE + 7, joined: 6 });
    expect(counts()[1]!.frame.usernames).toEqual(['q1', 'q2', 'q3', 'q4', 'q5']);
    expect(RECENT_NAMES).toBe(5);
  });

  it('costs each member a constant number of counts per join as the room fills', async () => {
    const { join, counts } = room();
    const perJoin: number[] = [];
    let size = 0;
    while (size < 400) await join(`p${size++}`);
    // deliveries of MEMBERS (one per member each) per join over each doubling of the room
    for (const upTo of [800, 1600, 3200]) {
      const before = counts().length;
      const joins = upTo - size;
      while (size < upTo) await join(`p${size++}`);
      const delivered = counts()
        .slice(before)
        .reduce((sum, entry) => sum + entry.frame.members!, 0);
      perJoin.push(delivered / joins);
    }
    // geometric steps: about STEPS·ln 2 counts per doubling, each to about 1.5x the joins: ~1.5·STEPS·ln 2
    for (const each of perJoin) {
      expect(each).toBeGreaterThan(STEPS * 0.7);
      expect(each).toBeLessThan(STEPS * 1.4);
    }
    // named one by one, each doubling would cost twice the last per join
    expect(Math.max(...perJoin) / Math.min(...perJoin)).toBeLessThan(1.2);
  });

  it('says the exact count once the room is quiet, and names again below the threshold', async () => {
    const { join, leave, counts, until, sent, announcer } = room(20);
    for (let i = 0; i <= HOT_ABOVE + 2; i++) await join(`p${i}`);
    const said = counts().length;
    await until(() => counts().length > said);
    expect(counts().at(-1)!.frame).toMatchObject({ members: HOT_ABOVE + 3, left: 0 });
    for (let i = 0; i < 3; i++) await leave(`p${i}`);
    await announcer.flush();
    await announcer.settle();
    expect(counts().at(-1)!.frame).toMatchObject({ members: HOT_ABOVE, left: 3 });
    sent.length = 0;
    await leave('p3');
    await announcer.flush();
    expect(sent).toEqual([
      {
        frame: expect.objectContaining({ message: 'LEAVE', username: 'p3', members: 99 }),
        audience: { exceptUsername: 'p3' },
      },
    ]);
  });

  it('tells a current client joining a hot room its count, and nothing in a small one', async () => {
    const { join, announcer } = room();
    await join('a');
    expect(await announcer.countFor('R')).toBeUndefined();
    for (let i = 0; i < HOT_ABOVE; i++) await join(`p${i}`);
    expect(await announcer.countFor('R')).toMatchObject({ message: 'MEMBERS', members: HOT_ABOVE + 1 });
  });

  it('carries a version range on the bus, and only members inside it are the audience', () => {
    const frame: ServerFrame = { type: 'system', message: 'MEMBERS', timestamp: 1, members: 500 };
    const current = decodeEnvelope(encodeText(frame, { fromVersion: MEMBER_COUNT_PROTOCOL_VERSION }))!;
    const older = decodeEnvelope(encodeText(frame, { belowVersion: MEMBER_COUNT_PROTOCOL_VERSION }))!;
    expect(JSON.parse(current.body.toString())).toEqual(frame);
    expect([6, 7, 8].map((version) => isAudience(current, 'u', 'en', version))).toEqual([false, true, true]);
    expect([1, 6, 7].map((version) => isAudience(older, 'u', 'en', version))).toEqual([true, true, false]);
    expect(decodeEnvelope(encodeText(frame))).not.toHaveProperty('fromVersion');
  });
});
