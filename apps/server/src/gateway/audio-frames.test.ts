import { describe, expect, it } from 'vitest';
import type { Author } from '../messages/index.js';
import { ROOM, room } from './testing/fake-room.js';

/*
 * Audio against fake sockets: spoken translations in the listening language that setLanguage changes, a
 * clip's binary frames to the voice input in order with the text frames, and the error frames when there
 * is no voice input or it fails.
 */

describe('connection: audio, binary frames and setLanguage', () => {
  it('delivers spoken audio in the listening language, which setLanguage changes', async () => {
    const { peer, hub } = room();
    const alice = peer(1);
    const bob = peer(2);
    await alice.join('en');
    await bob.join('en');
    await hub.sendAudio(ROOM, 'ja', new Uint8Array([1]), alice.user.username);
    bob.send({ type: 'setLanguage', language: 'ja', room: ROOM });
    alice.send({ type: 'setLanguage', language: 'ja', room: ROOM });
    await bob.connection.settled();
    await alice.connection.settled();
    await hub.sendAudio(ROOM, 'ja', new Uint8Array([2]), alice.user.username);
    expect(bob.socket.binary).toEqual([Buffer.from([2])]);
    // the author never hears their own message spoken
    expect(alice.socket.binary).toEqual([]);
  });

  it('hands binary frames to the voice input with the connection context, in order with text frames', async () => {
    const seen: string[] = [];
    const { peer } = room({
      onAudio: async (context: Author, data: Buffer) => {
        seen.push(`${context.username()} ${context.language()} ${data.toString()}`);
        context.sendFrame({ type: 'error', code: 'no_speech', message: 'No speech detected' });
      },
    });
    const alice = peer(1);
    await alice.join('ja');
    alice.connection.onBinary(Buffer.from('clip'));
    alice.send({ type: 'setLanguage', language: 'en', room: ROOM });
    alice.connection.onBinary(Buffer.from('clip2'));
    await alice.connection.settled();
    expect(seen).toEqual(['g-1 ja clip', 'g-1 en clip2']);
    expect(alice.socket.errors()).toHaveLength(2);
  });

  it('says voice is not supported when the server has no voice input', async () => {
    const alice = room().peer(1);
    await alice.join();
    alice.connection.onBinary(Buffer.from('OggS'));
    expect(alice.socket.errors()).toEqual([
      {
        type: 'error',
        code: 'audio_rejected',
        message: 'Voice messages are not supported by this server yet.',
      },
    ]);
  });

  it('turns a failing frame into an internal error and keeps handling the next ones', async () => {
    const { peer, stored } = room({
      onAudio: async () => {
        throw new Error('decoder exploded');
      },
    });
    const alice = peer(1);
    await alice.join();
    alice.connection.onBinary(Buffer.from('clip'));
    await alice.chat('still here');
    expect(alice.socket.errors()).toEqual([
      { type: 'error', code: 'internal', message: 'Something went wrong on the server; please try again.' },
    ]);
    expect(stored.map((message) => message.message)).toEqual(['still here']);
    expect(alice.socket.closed).toBeUndefined();
  });
});
