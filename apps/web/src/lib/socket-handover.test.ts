import { describe, expect, it, vi } from 'vitest';
import { CloseCode, PROTOCOL_VERSION, type ServerFrame } from '@xtalk/protocol';
import {
  FakeSocket,
  flush,
  helloOf,
  last,
  message,
  ready,
  setup,
  withFakeSockets,
} from '#web/test/fake-room-socket';

/*
 * Handovers (docs/decisions/0144, 0146): a node draining for a restart closes with 1012, and a node of an
 * older version refuses this client's version with 4400 naming what it speaks. Neither is an error: the
 * client connects again at once, resumes by offset, and says nothing to the person.
 */
withFakeSockets();

describe('SocketClient handovers', () => {
  it('reconnects at once on 1012 without passing through reconnecting, resuming where it left off', async () => {
    const { client, sessions, states } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().receive(ready(0));
    last().receive(message(7));
    last().drop(CloseCode.ServiceRestart, 'Server is restarting; reconnect.');
    expect(client.state).toBe('handover');
    await flush();
    // no backoff: the next session and socket are asked for in the same turn
    expect(sessions).toHaveBeenCalledTimes(2);
    expect(FakeSocket.all).toHaveLength(2);
    last().open();
    expect(helloOf(last())).toMatchObject({ resume: { epoch: 'e1', offset: 7 } });
    last().receive(ready(0));
    expect(states).toEqual(['connecting', 'connected', 'ready', 'handover', 'connected', 'ready']);
  });

  it('goes on to reconnecting (with backoff) when the handover attempt itself fails', async () => {
    const { client } = setup();
    client.join('ABC2345');
    await flush();
    last().open();
    last().drop(CloseCode.ServiceRestart);
    await flush();
    last().drop(1006);
    expect(client.state).toBe('reconnecting');
  });

  it('speaks the newest version an older node names in its 4400, says so in the console only', async () => {
    const info = vi.spyOn(console, 'info').mockImplementation(() => {});
    const { client, states } = setup();
    const frames: ServerFrame[] = [];
    const closes: number[] = [];
    client.on('frame', (frame) => frames.push(frame));
    client.on('close', (code) => closes.push(code));
    client.join('ABC2345');
    await flush();
    last().open();
    expect(helloOf(last())?.protocolVersion).toBe(PROTOCOL_VERSION);
    // what a node of version 5 sends (its own words, written before this client)
    const refusal = `Protocol version ${PROTOCOL_VERSION} is not supported (this server speaks 1 to 5); please reload.`;
    last().receive({ type: 'error', code: 'bad_frame', message: refusal });
    last().drop(CloseCode.UnsupportedVersion, refusal);
    expect(client.state).toBe('handover');
    await flush();
    last().open();
    expect(helloOf(last())?.protocolVersion).toBe(5);
    last().receive(ready(0, 5));
    expect(client.state).toBe('ready');
    // nothing reached the page: no error frame, no close (which would ask the person to reload)
    expect(frames.map((frame) => frame.type)).toEqual(['system']);
    expect(closes).toEqual([]);
    expect(states).not.toContain('reconnecting');
    expect(info).toHaveBeenCalledWith(expect.stringContaining('speaking 5,'));

    // the deploy finished: a node of this version answers READY, and the next connection offers it again
    last().drop(1006);
    await vi.advanceTimersByTimeAsync(1000);
    last().open();
    expect(helloOf(last())?.protocolVersion).toBe(5);
    last().receive(ready(0));
    last().drop(CloseCode.ServiceRestart);
    await flush();
    last().open();
    expect(helloOf(last())?.protocolVersion).toBe(PROTOCOL_VERSION);
  });

  it('still stops on a 4400 that names no older version it could speak (this page is too old)', async () => {
    const { client } = setup();
    const closes: number[] = [];
    client.on('close', (code) => closes.push(code));
    client.join('ABC2345');
    await flush();
    last().open();
    const refusal = `Protocol version ${PROTOCOL_VERSION} is not supported (this server speaks ${PROTOCOL_VERSION + 1}); please reload.`;
    last().drop(CloseCode.UnsupportedVersion, refusal);
    expect(client.state).toBe('idle');
    expect(closes).toEqual([CloseCode.UnsupportedVersion]);
  });
});
