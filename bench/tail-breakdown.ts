import { performance } from 'node:perf_hooks';
import { Connection } from '../apps/server/src/gateway/connection.js';
import { guestLogin, joinRoom, startServer, TestClient } from '../apps/server/src/testing/harness.js';
import { dbOf } from '../apps/server/src/testing/seed/index.js';
import { envNumber } from './lib/env.js';
import { summarise } from './lib/stats.js';

/*
 * Where a message's delivery time goes at small load: one room, a sender at BENCH_TAIL_RATE msg/s, the
 * server and its clients in this one process (one clock; the clients' own work is part of "out").
 * `node --import tsx bench/tail-breakdown.ts`. Each message is timed at five points:
 *   sent (client) -> in (the connection's onText) -> store starts (its insert) -> stored (the insert
 *   answered) -> first write (the first member's socket is handed its frame) -> received (each member).
 */

const rate = envNumber('BENCH_TAIL_RATE', 20);
const seconds = envNumber('BENCH_TAIL_SECONDS', 15);
// every member sends in turn: one connection may send 2 frames a second
const members = envNumber('BENCH_TAIL_MEMBERS', 20);

const MARK = /tail (\d+)\b/;
const indexIn = (text: string) => Number(MARK.exec(text)?.[1] ?? -1);
/** A room's waiting messages are stored in one statement (decision 0112): every one it holds. */
const indexesIn = (text: string) => [...text.matchAll(/tail (\d+)\b/g)].map((match) => Number(match[1]));
const points = new Map<number, { in?: number; storeStart?: number; stored?: number; firstWrite?: number }>();
const at = (index: number) => points.get(index) ?? points.set(index, {}).get(index)!;

const server = await startServer({ LANGUAGES: 'en' });
const db = dbOf(server);
const query = db.query.bind(db);
db.query = (async (sql: string, params?: unknown[]) => {
  const indexes = /insert into messages/.test(sql) ? indexesIn(JSON.stringify(params ?? [])) : [];
  for (const index of indexes) at(index).storeStart = performance.now();
  const result = await query(sql, params);
  for (const index of indexes) at(index).stored = performance.now();
  return result;
}) as typeof db.query;
const onText = Connection.prototype.onText;
Connection.prototype.onText = function (this: Connection, text: string) {
  const index = indexIn(text);
  if (index >= 0) at(index).in = performance.now();
  return onText.call(this, text);
};
const sendLogged = Connection.prototype.sendLogged;
Connection.prototype.sendLogged = function (this: Connection, json: Buffer, offset: number | undefined) {
  const index = json.includes('"tail ') ? indexIn(json.toString()) : -1;
  if (index >= 0) at(index).firstWrite ??= performance.now();
  return sendLogged.call(this, json, offset);
};

const host = await guestLogin(server.app);
const { roomId } = await joinRoom(server.app, host.token, null);
const hello = { protocolVersion: 7 };
const receivers: TestClient[] = [await TestClient.join(server, host, roomId, 'en', hello)];
for (let i = 1; i < members; i++)
  receivers.push(await TestClient.join(server, await guestLogin(server.app), roomId, 'en', hello));

const sent = new Map<number, number>();
const received: number[][] = [];
for (const receiver of receivers) {
  receiver.ws.on('message', (data: Buffer, isBinary: boolean) => {
    if (isBinary) return;
    const index = data.includes('"tail ') ? indexIn(data.toString()) : -1;
    if (index >= 0) (received[index] ??= []).push(performance.now());
  });
}
const total = Math.round(rate * seconds);
for (let index = 0; index < total; index++) {
  sent.set(index, performance.now());
  const sender = receivers[index % members]!;
  sender.send({ type: 'chat', language: 'en', message: `tail ${index}`, room: roomId });
  await new Promise((resolve) => setTimeout(resolve, 1000 / rate));
}
await new Promise((resolve) => setTimeout(resolve, 2000));

const parts = { in: [], handle: [], store: [], fanOut: [], out: [], total: [] } as Record<string, number[]>;
for (let index = 0; index < total; index++) {
  const point = points.get(index);
  const arrivals = received[index];
  const start = sent.get(index);
  if (!point?.in || !point.storeStart || !point.stored || !point.firstWrite || !arrivals || !start) continue;
  parts.in!.push(point.in - start);
  parts.handle!.push(point.storeStart - point.in);
  parts.store!.push(point.stored - point.storeStart);
  parts.fanOut!.push(point.firstWrite - point.stored);
  for (const arrival of arrivals) {
    parts.out!.push(arrival - point.firstWrite);
    parts.total!.push(arrival - start);
  }
}
console.log(`${members} members, ${rate} msg/s for ${seconds} s; ms (p50 / p90 / p99):`);
for (const [name, values] of Object.entries(parts)) {
  const { count, p50, p90, p99 } = summarise(values);
  console.log(`  ${name.padEnd(7)} ${p50.toFixed(2)} / ${p90.toFixed(2)} / ${p99.toFixed(2)}  (n=${count})`);
}
for (const client of receivers) client.close();
await server.close();
process.exit(0);
