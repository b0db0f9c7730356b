import { describe, expect, it } from 'vitest';
import { ROOM, room } from './testing/fake-room.js';

/*
 * chat frames against fake sockets: an unreadable or invalid frame gets its error frame and the socket
 * stays open, nothing is said before joining, and a chat goes only to its room in a supported language.
 * The rate limit is in connection.test.ts.
 */

describe('connection: chat frames and frames it cannot read', () => {
  it('answers bad frames with an error frame and stays open', async () => {
    const { socket, connection } = room().peer(1);
    connection.onText('{not json');
    connection.onText(JSON.stringify({ type: 'dance', room: ROOM }));
    connection.onText(JSON.stringify({ type: 'chat', language: 'en', message: '', room: ROOM }));
    await connection.settled();
    expect(socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual([
      'bad_frame',
      'bad_frame',
      'message_invalid',
    ]);
    expect(socket.closed).toBeUndefined();
  });

  it('refuses chat and audio until the client has joined', async () => {
    const calls: string[] = [];
    const alice = room({ onAudio: async () => void calls.push('audio') }).peer(1);
    await alice.chat('too early');
    alice.connection.onBinary(Buffer.from('OggS'));
    await alice.connection.settled();
    expect(alice.socket.errors()).toEqual([
      { type: 'error', code: 'not_joined', message: 'Send setUsername before chatting.' },
      { type: 'error', code: 'not_joined', message: 'Send setUsername before sending audio.' },
    ]);
    expect(calls).toEqual([]);
  });

  it('chats in the room it is for and in supported languages only', async () => {
    const { peer, stored } = room();
    const alice = peer(1);
    await alice.join();
    await alice.chat('hello');
    alice.send({ type: 'chat', language: 'en', message: 'elsewhere', room: 'OTHERRM' });
    await alice.chat('bonjour', 'fr');
    await alice.connection.settled();
    expect(stored.map((message) => message.message)).toEqual(['hello']);
    expect(alice.socket.errors().map((frame) => frame.type === 'error' && frame.code)).toEqual([
      'wrong_room',
      'unsupported_language',
    ]);
  });
});
