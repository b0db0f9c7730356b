import { describe, expect, it } from 'vitest';
import type { ServerFrame } from '@xtalk/protocol';
import { createMemoryBus } from '../bus/index.js';
import { createRoomHub, type HubMember } from './room-hub.js';

/*
 * The hub's fan-out on one node: the audience of a frame (language, everyone but one user) is decided once
 * per frame, and every member of the room gets what is meant for it, in the order it was broadcast.
 */

function member(roomId: string, username: string, language: string) {
  const texts: string[] = [];
  const audio: string[] = [];
  const bodies: Buffer[] = [];
  const speech: Array<{ frame: ServerFrame; ogg: Buffer }> = [];
  const view: HubMember = {
    roomId,
    username: () => username,
    language: () => language,
    deliverText(json) {
      bodies.push(json);
      texts.push((JSON.parse(json.toString()) as { message: string }).message);
    },
    deliverAudio: (wav) => audio.push(wav.toString()),
    deliverSpeech: (json, ogg) => speech.push({ frame: JSON.parse(json.toString()) as ServerFrame, ogg }),
  };
  return { view, texts, audio, bodies, speech };
}

const note = (message: string): ServerFrame => ({ type: 'error', code: 'notice', message });

describe('room hub fan-out', () => {
  it('gives each member the frames meant for it, in broadcast order, one Buffer for all', async () => {
    const hub = createRoomHub(createMemoryBus());
    const ann = member('R', 'ann', 'en');
    const bob = member('R', 'bob', 'ja');
    const cat = member('R', 'cat', 'en');
    const elsewhere = member('S', 'dan', 'en');
    for (const each of [ann, bob, cat, elsewhere]) await hub.attach(each.view);

    await hub.broadcast('R', note('all-1'));
    await hub.broadcast('R', note('english'), { language: 'en' });
    await hub.broadcast('R', note('not-ann'), { exceptUsername: 'ann' });
    await hub.broadcast('R', note('english-not-cat'), { language: 'en', exceptUsername: 'cat' });
    await hub.broadcast('R', note('all-2'));
    await hub.sendAudio('R', 'ja', Buffer.from('wav-ja'), 'nobody');
    await hub.sendAudio('R', 'en', Buffer.from('wav-en'), 'ann');

    expect(ann.texts).toEqual(['all-1', 'english', 'english-not-cat', 'all-2']);
    expect(bob.texts).toEqual(['all-1', 'not-ann', 'all-2']);
    expect(cat.texts).toEqual(['all-1', 'english', 'not-ann', 'all-2']);
    expect(elsewhere.texts).toEqual([]);
    expect(bob.audio).toEqual(['wav-ja']);
    expect(cat.audio).toEqual(['wav-en']);
    expect(ann.audio).toEqual([]);
    await hub.sendSpeech('R', 'en', { id: 7, seq: 0, last: true }, Buffer.from('ogg-en'), 'ann');
    const spoken = { type: 'speech', id: 7, language: 'en', seq: 0, last: true, bytes: 6 };
    expect(cat.speech.map((s) => ({ frame: s.frame, ogg: s.ogg.toString() }))).toEqual([
      { frame: spoken, ogg: 'ogg-en' },
    ]);
    expect([...ann.speech, ...bob.speech]).toEqual([]);
    // serialised once: every member holds the very same bytes of a frame for everyone
    expect(ann.bodies[0]).toBe(bob.bodies[0]);
    expect(bob.bodies[0]).toBe(cat.bodies[0]);

    await hub.detach(bob.view);
    await hub.broadcast('R', note('after-bob'));
    expect(bob.texts.at(-1)).toBe('all-2');
    expect(ann.texts.at(-1)).toBe('after-bob');
  });

  it("sends a frame `elsewhere` to the other nodes' members only", async () => {
    const bus = createMemoryBus();
    const [here, there] = [createRoomHub(bus), createRoomHub(bus)];
    const [ann, bob] = [member('R', 'ann', 'en'), member('R', 'bob', 'en')];
    await here.attach(ann.view);
    await there.attach(bob.view);
    await here.broadcast('R', note('for-the-others'), { elsewhere: true });
    await here.broadcast('R', note('for-all'));
    expect(ann.texts).toEqual(['for-all']);
    expect(bob.texts).toEqual(['for-the-others', 'for-all']);
  });

  it("gives a frame it could not publish to this node's members", async () => {
    const bus = createMemoryBus();
    const [here, there] = [createRoomHub(bus), createRoomHub(bus)];
    const [ann, bob] = [member('R', 'ann', 'en'), member('R', 'bob', 'en')];
    await here.attach(ann.view);
    await there.attach(bob.view); // another node holds the room: its frames cross the bus
    bus.publish = () => Promise.reject(new Error('the bus is away'));
    await here.broadcast('R', note('while-away'));
    expect(ann.texts).toEqual(['while-away']);
    expect(bob.texts).toEqual([]);
  });
});
