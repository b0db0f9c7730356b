import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createWriteBatcher, textFrame, WRITE_THROUGH_AFTER } from './write-batcher.js';

/*
 * The write batching of room frames (decision 0110, decision 0127): framed once, one write per socket per
 * turn, a large fan-out written through, order kept per socket, and a socket whose reader stopped never
 * holds up the others (real TCP sockets).
 */

/** A stream that records each write the batcher causes: one entry per write call, chunks in order. */
function recordingStream() {
  const writes: string[][] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      writes.push([chunk.toString()]);
      done();
    },
    writev(chunks, done) {
      writes.push(chunks.map(({ chunk }) => (chunk as Buffer).toString()));
      done();
    },
  });
  return { stream, writes };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('textFrame', () => {
  it('frames a payload once (the same Buffer for every listener) with the right length header', () => {
    const small = Buffer.from('{"a":1}');
    expect(textFrame(small)).toBe(textFrame(small));
    expect([...textFrame(small).subarray(0, 2)]).toEqual([0x81, small.length]);
    const medium = Buffer.alloc(300, 0x61);
    expect([...textFrame(medium).subarray(0, 4)]).toEqual([0x81, 126, 1, 44]);
    const large = Buffer.alloc(70_000, 0x61);
    const header = textFrame(large).subarray(0, 10);
    expect(header[1]).toBe(127);
    expect(header.readUInt32BE(6)).toBe(70_000);
    expect(textFrame(large).length).toBe(70_010);
  });

  it('frames each payload as its own, when payloads alternate and when they are equal copies', () => {
    const one = Buffer.from('{"n":1}');
    const two = Buffer.from('{"n":22}');
    const framedOne = textFrame(one);
    expect(textFrame(two).subarray(2).toString()).toBe('{"n":22}');
    expect(textFrame(one)).toBe(framedOne); // still the one framing, from the cache behind the last
    expect(textFrame(Buffer.from(one)).subarray(2).toString()).toBe('{"n":1}');
    expect(textFrame(two)[1]).toBe(two.length);
  });
});

describe('write batcher', () => {
  it('writes what one socket gets within a turn in one write, in order (a replay, a small room)', async () => {
    const batcher = createWriteBatcher();
    const a = recordingStream();
    const b = recordingStream();
    for (let i = 0; i < 50; i++) batcher.write(a.stream, Buffer.from(`a${i}`));
    batcher.write(b.stream, Buffer.from('b0'));
    expect(a.writes).toEqual([]); // corked until the turn ends
    expect(b.writes).toEqual([]);
    await turn();
    expect(a.writes).toEqual([Array.from({ length: 50 }, (_, i) => `a${i}`)]);
    expect(b.writes).toEqual([['b0']]);
    batcher.write(a.stream, Buffer.from('a50'));
    await turn();
    expect(a.writes[1]).toEqual(['a50']);
    expect(batcher.stats()).toEqual({ corked: 0, flushes: 2, busy: false });
  });

  it('holds a socket for the turn: what others write to it leaves with its frames in one write', async () => {
    const batcher = createWriteBatcher();
    const a = recordingStream();
    batcher.hold(a.stream);
    a.stream.write(Buffer.from('101')); // the upgrade's answer, written by ws itself
    batcher.write(a.stream, Buffer.from('ready'));
    expect(a.writes).toEqual([]);
    await turn();
    expect(a.writes).toEqual([['101', 'ready']]);
    // a held socket's first frame is no burst: the next turn's fan-outs are written through as before
    expect(batcher.stats()).toEqual({ corked: 0, flushes: 1, busy: false });
    batcher.hold(a.stream);
    await turn();
    expect(a.writes).toHaveLength(1); // held with nothing written: nothing to send
  });

  it(`writes a large fan-out's frame at once after its first ${WRITE_THROUGH_AFTER} listeners`, async () => {
    const batcher = createWriteBatcher();
    const listeners = Array.from({ length: WRITE_THROUGH_AFTER + 8 }, recordingStream);
    const frame = Buffer.from('m1'); // one Buffer for the whole room, as the hub hands it over
    for (const listener of listeners) batcher.write(listener.stream, frame);
    const written = listeners.map((listener) => listener.writes.length);
    expect(written).toEqual([...Array(WRITE_THROUGH_AFTER).fill(0), ...Array(8).fill(1)]);
    await turn();
    for (const listener of listeners) expect(listener.writes).toEqual([['m1']]);
  });

  it('corks a large fan-out too in the turn after a burst, and writes it through again after a calm turn', async () => {
    const batcher = createWriteBatcher({ writeThroughAfter: 2 });
    const listeners = Array.from({ length: 4 }, recordingStream);
    const [a] = listeners;
    const fanOut = (text: string) => {
      const frame = Buffer.from(text);
      for (const listener of listeners) batcher.write(listener.stream, frame);
    };
    fanOut('x1');
    batcher.write(a!.stream, Buffer.from('x2')); // a burst: a second frame for a within the turn
    expect(listeners.map((listener) => listener.writes.length)).toEqual([0, 0, 1, 1]);
    await turn();
    expect(batcher.stats()).toMatchObject({ busy: true });
    expect(a!.writes).toEqual([['x1', 'x2']]);
    fanOut('y1'); // busy: corked throughout
    expect(listeners.map((listener) => listener.writes.length)).toEqual([1, 1, 1, 1]);
    await turn();
    expect(batcher.stats()).toMatchObject({ busy: false }); // that turn had no second frame for anyone
    fanOut('z1');
    expect(listeners.map((listener) => listener.writes.length)).toEqual([2, 2, 3, 3]);
    await turn();
    for (const listener of listeners) expect(listener.writes.at(-1)).toEqual(['z1']);
    expect(listeners[3]!.writes).toEqual([['x1'], ['y1'], ['z1']]);
  });

  describe('on real sockets', () => {
    let server: Server | undefined;
    const sockets: Socket[] = [];
    afterEach(async () => {
      for (const socket of sockets) socket.destroy();
      sockets.length = 0;
      await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    });

    /** A connected pair: `out` is the server's end (written by the batcher), `reader` the client's. */
    async function pairs(count: number) {
      const accepted: Socket[] = [];
      server = createServer((socket) => accepted.push(socket));
      server.listen(0, '127.0.0.1');
      await once(server, 'listening');
      const { port } = server.address() as { port: number };
      const readers: Socket[] = [];
      for (let i = 0; i < count; i++) {
        const reader = connect(port, '127.0.0.1');
        await once(reader, 'connect');
        readers.push(reader);
      }
      while (accepted.length < count) await turn();
      sockets.push(...accepted, ...readers);
      return readers.map((reader, i) => ({ reader, out: accepted[i]! }));
    }

    // written at once (a large fan-out, here from the first listener) or corked until the turn ends (a
    // small room, or two frames a turn: busy)
    it.each([
      { writeThroughAfter: 0, framesPerTurn: 1 },
      { writeThroughAfter: 0, framesPerTurn: 2 },
      { writeThroughAfter: WRITE_THROUGH_AFTER, framesPerTurn: 1 },
    ])(
      'keeps delivering to a reading socket while another one has stopped reading (%o)',
      async ({ writeThroughAfter, framesPerTurn }) => {
        const batcher = createWriteBatcher({ writeThroughAfter });
        const [stuck, live] = await pairs(2);
        stuck!.reader.pause(); // this client stopped reading: its kernel buffers fill, then the stream's
        let received = '';
        live!.reader.on('data', (chunk: Buffer) => (received += chunk.toString()));
        const chunk = Buffer.alloc(64 * 1024, 0x78);
        const rounds = 200; // 12.5 MiB or more each: far more than loopback's kernel buffers hold
        const expected: string[] = [];
        for (let i = 0; i < rounds; i++) {
          for (let k = 0; k < framesPerTurn; k++) {
            batcher.write(stuck!.out, chunk);
            batcher.write(live!.out, Buffer.from(`<${i}.${k}>`));
            expected.push(`<${i}.${k}>`);
          }
          await turn();
        }
        expect(batcher.stats().busy).toBe(framesPerTurn > 1);
        const all = expected.join('');
        while (received.length < all.length) await once(live!.reader, 'data');
        expect(received).toBe(all); // all of it, in order, while the stuck one's bytes wait
        expect(stuck!.out.writableLength).toBeGreaterThan(1024 * 1024);
      },
    );
  });
});
