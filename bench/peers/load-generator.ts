import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { JoinRoomResponse } from '@xtalk/protocol';
import WebSocket from 'ws';
import { guestLogin, joinRoom, mapLimit, socketTarget } from '../lib/guest.js';
import { summarise, type Summary } from '../lib/stats.js';
import type { GeneratorReply, GeneratorRequest, PeerKind } from './generator-protocol.js';
import { createDeliveryCheck, type OffsetTrack } from './delivery-check.js';

/*
 * The fan-out bench's load generator: a child process of its own (so its CPU is not the server's and not
 * the orchestrator's), driven over IPC. The same raw `ws` client talks to every server; only the framing
 * differs: XTalk's JSON protocol, Socket.IO's engine.io packets ("42[...]"), or bare text. A message's text
 * is `b#<seq>#`; receivers find it with a byte search (no JSON parse), so the generator stays cheap at
 * 50,000 deliveries a second.
 */

interface Member extends OffsetTrack {
  room: number;
  /** Where this member signs in, joins and connects (one node unless the cluster bench spreads them). */
  node: { baseUrl: string; wsBase: string };
  socket?: WebSocket;
  ready: boolean;
  /** XTalk only: the login and session the socket opens with. */
  token?: string;
  username?: string;
  session?: JoinRoomResponse;
  /** Sockets closed on this member before its READY, each opened again (a loaded server may drop one). */
  reopened?: number;
}

const MARK = Buffer.from('b#');
let kind: PeerKind = 'ws';
let members: Member[] = [];
let roomIds: string[] = [];
/** Send time of each message by sequence number; NaN once counted as out of the measured window. */
let sentAt = new Float64Array(0);
let measuredFrom = 0;
let measuredTo = -1;
let latencies = new Float64Array(0);
let latencyCount = 0;
let lateOrUnknown = 0;
let unexpectedCloses = 0;
let closing = false;
const check = createDeliveryCheck();

const reply = (message: GeneratorReply) => process.send?.(message);

function onData(member: Member, data: Buffer) {
  const receivedAt = performance.now();
  const at = data.indexOf(MARK);
  if (at >= 0) {
    let seq = 0;
    for (let i = at + 2; i < data.length; i++) {
      const digit = data[i]! - 48;
      if (digit < 0 || digit > 9) break;
      seq = seq * 10 + digit;
    }
    if (seq >= measuredFrom && seq <= measuredTo) {
      if (latencyCount < latencies.length) latencies[latencyCount++] = receivedAt - sentAt[seq]!;
    } else if (!(seq < measuredFrom)) lateOrUnknown++;
    if (kind === 'xtalk') check.message(member, data);
    return;
  }
  if (member.ready) {
    if (kind === 'xtalk') check.other(data);
    if (kind === 'socketio' && data.length === 1 && data[0] === 0x32) member.socket?.send('3'); // ping → pong
    return;
  }
  const text = data.toString();
  if (kind === 'xtalk' && text.includes('"message":"READY"')) markReady(member);
  else if (kind === 'socketio' && text.startsWith('0{')) member.socket?.send('40');
  else if (kind === 'socketio' && text.startsWith('40')) markReady(member);
}

let readyCount = 0;
/** How many members must be ready before the `open` under way is answered. */
let readyTarget = 0;
let onAllReady: (() => void) | undefined;
/** A member's socket kept closing before its READY: the `open` under way fails instead of waiting. */
let onOpenFailed: ((error: Error) => void) | undefined;
function markReady(member: Member) {
  if (member.ready) return;
  member.ready = true;
  if (++readyCount === readyTarget) onAllReady?.();
}

/** Where a member's socket opens; for XTalk also the hello to send once open, if not in the URL. */
function targetOf(member: Member): { url: string; helloFrame?: string } {
  const room = roomIds[member.room]!;
  const { wsBase } = member.node;
  if (kind === 'xtalk') return socketTarget(wsBase, member.token!, member.session!, member.username!, 'en');
  if (kind === 'socketio') return { url: `${wsBase}/socket.io/?EIO=4&transport=websocket&room=${room}` };
  return { url: `${wsBase}/?room=${room}` };
}

function open(member: Member): Promise<void> {
  return new Promise((resolve, reject) => {
    const { url, helloFrame } = targetOf(member);
    const socket = new WebSocket(url, { perMessageDeflate: false, skipUTF8Validation: true });
    member.socket = socket;
    socket.on('message', (data: Buffer) => onData(member, data));
    socket.once('open', () => {
      if (kind === 'ws') markReady(member);
      if (helloFrame) socket.send(helloFrame);
      resolve();
    });
    socket.on('error', (error) => {
      if (!member.ready) reject(error);
    });
    socket.on('close', (code, reason) => {
      if (closing) return;
      if (member.ready || kind !== 'xtalk') unexpectedCloses++;
      else if ((member.reopened = (member.reopened ?? 0) + 1) <= 3)
        setTimeout(() => open(member).catch((error: Error) => onOpenFailed?.(error)), 200);
      else onOpenFailed?.(new Error(`a socket closed before READY four times: ${code} ${reason.toString()}`));
    });
  });
}

async function prepare(request: Extract<GeneratorRequest, { cmd: 'prepare' }>) {
  kind = request.kind;
  const nodes = request.nodes ?? [{ baseUrl: request.baseUrl, wsBase: request.wsBase }];
  members = request.rooms.flatMap((size, room) =>
    Array.from({ length: size }, (_, i) => ({ room, node: nodes[i % nodes.length]!, ready: false })),
  );
  roomIds = request.rooms.map((_, room) => `R${room}`);
  if (kind !== 'xtalk') return;
  const logins = await mapLimit(members, request.concurrency, (member) => guestLogin(member.node.baseUrl));
  // the first member of each room creates it; the others join by its code
  for (let room = 0; room < request.rooms.length; room++) {
    const first = members.findIndex((member) => member.room === room);
    const created = await joinRoom(members[first]!.node.baseUrl, logins[first]!.token, null);
    roomIds[room] = created.roomId;
    members[first]!.session = created;
  }
  await mapLimit(members, request.concurrency, async (member, index) => {
    const login = logins[index]!;
    member.token = login.token;
    member.username = login.user.username;
    member.session ??= await joinRoom(member.node.baseUrl, login.token, roomIds[member.room]!);
    // the room's home, when the join names the room's order: the socket opens there (decision 0237)
    const home = member.session.roomEndpoints?.[0];
    member.node = nodes.find((node) => node.wsBase === home) ?? member.node;
    if (request.openOnJoin) await openReady(member);
  });
}

/** Opens one member's socket and waits for its READY (a join after it sees it in the room). */
async function openReady(member: Member) {
  await open(member);
  while (!member.ready) {
    if ((member.reopened ?? 0) > 3) throw new Error('a socket closed before READY four times');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** How many members' sockets each node holds (or will, once opened). */
function socketsByNode(): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const member of members) counts[member.node.wsBase] = (counts[member.node.wsBase] ?? 0) + 1;
  return counts;
}

/** Each room's members in join order, cut into `of` parts: part `index` of every room. */
function partOf(part: { index: number; of: number } | undefined): Member[] {
  if (!part) return members.filter((member) => !member.socket);
  const byRoom = new Map<number, Member[]>();
  for (const member of members) byRoom.set(member.room, [...(byRoom.get(member.room) ?? []), member]);
  return [...byRoom.values()].flatMap((room) => {
    const from = Math.floor((room.length * part.index) / part.of);
    const to = Math.floor((room.length * (part.index + 1)) / part.of);
    return room.slice(from, to);
  });
}

/** Opens (part of) the sockets and waits until each has its READY (or is open, for bare ws). */
async function openAll(concurrency: number, part?: { index: number; of: number }): Promise<number> {
  const started = performance.now();
  const opening = partOf(part);
  readyTarget = readyCount + opening.length;
  const allReady = new Promise<void>((resolve, reject) => {
    onAllReady = resolve;
    onOpenFailed = reject;
  });
  await mapLimit(opening, concurrency, open);
  if (readyCount < readyTarget) await allReady;
  return performance.now() - started;
}

/** Round-robin over the room's first `senders` members, one message every 1000/rate ms. */
async function load(request: Extract<GeneratorRequest, { cmd: 'load' }>) {
  const room0 = members.filter((member) => member.room === 0);
  const senders = room0.slice(0, Math.min(request.senders, room0.length));
  const total = Math.ceil((request.warmupSeconds + request.seconds) * request.rate);
  const warmup = Math.ceil(request.warmupSeconds * request.rate);
  const base = sentAt.length;
  const grown = new Float64Array(base + total);
  grown.set(sentAt);
  sentAt = grown;
  measuredFrom = base + warmup;
  measuredTo = base + total - 1;
  const expected = (total - warmup) * room0.length;
  latencies = new Float64Array(expected);
  latencyCount = 0;
  lateOrUnknown = 0;
  check.take();
  const loop = monitorEventLoopDelay({ resolution: 5 });
  const cpuBefore = process.cpuUsage();
  const interval = 1000 / request.rate;
  const start = performance.now();
  let measuredStart = start;
  for (let i = 0; i < total; i++) {
    const due = start + i * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (i === warmup) {
      measuredStart = performance.now();
      reply({ cmd: 'measuring' });
      loop.enable();
    }
    const seq = base + i;
    const sender = senders[i % senders.length]!;
    sentAt[seq] = performance.now();
    const text = `b#${seq}#`;
    if (kind === 'xtalk')
      sender.socket?.send(
        `{"type":"chat","room":"${roomIds[0]}","language":"en","message":"${text}","clientId":"c${seq}"}`,
      );
    else if (kind === 'socketio') sender.socket?.send(`42["m","${text}"]`);
    else sender.socket?.send(text);
  }
  const sendSeconds = (performance.now() - measuredStart) / 1000;
  reply({ cmd: 'sent' });
  const drainUntil = performance.now() + request.drainMs;
  while (latencyCount < expected && performance.now() < drainUntil)
    await new Promise((resolve) => setTimeout(resolve, 50));
  loop.disable();
  const cpu = process.cpuUsage(cpuBefore);
  const latencyMs: Summary = summarise(Array.from(latencies.subarray(0, latencyCount)));
  measuredTo = -1;
  return {
    messages: total - warmup,
    sendSeconds,
    deliveries: latencyCount,
    expected,
    missing: expected - latencyCount,
    lateOrUnknown,
    latencyMs,
    generatorCpuMs: (cpu.user + cpu.system) / 1000,
    generatorLoopDelayP99Ms: loop.percentile(99) / 1e6,
    ...check.take(),
  };
}

async function handle(request: GeneratorRequest): Promise<GeneratorReply> {
  switch (request.cmd) {
    case 'prepare':
      await prepare(request);
      return { cmd: 'prepared', roomIds, sockets: socketsByNode() };
    case 'open':
      return { cmd: 'opened', ms: await openAll(request.concurrency, request.part), unexpectedCloses };
    case 'load':
      return { cmd: 'loaded', result: await load(request), unexpectedCloses };
    case 'close': {
      closing = true;
      for (const member of members) member.socket?.close(1000);
      return { cmd: 'closed', unexpectedCloses };
    }
  }
}

process.on('message', (request: GeneratorRequest) => {
  handle(request).then(reply, (error: unknown) =>
    reply({ cmd: 'failed', error: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
process.on('disconnect', () => process.exit(0));
