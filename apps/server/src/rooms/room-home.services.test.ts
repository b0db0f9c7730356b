import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.js';
import { guestLogin, joinRoom, startServer } from '../testing/harness.js';
import { ResumingClient, type ChatNode } from '../testing/resuming-client.js';
import { roomEndpointOrder } from './room-home.js';
import { seeded } from '../testing/seeded.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * Room affinity on three nodes of PostgreSQL and Redis (decision 0237): the members of a room land on its
 * home node; when the home dies they go to the room's next node, and when it is back they return to it,
 * each once, at moments of their own, missing nothing. A hot room (decision 0250) fills its nodes one
 * after the other, `ROOM_PEOPLE_PER_NODE` people each, and its members fail over and come back the same way.
 */
const ports = await Promise.all([freePort(), freePort(), freePort()]);
const endpoints = ports.map((port) => `ws://127.0.0.1:${port}`);
const PER_NODE = 4;
const services = serviceNodes(
  'xtalk_affinity',
  3,
  { PUBLIC_WS_ENDPOINTS: endpoints.join(','), ROOM_PEOPLE_PER_NODE: String(PER_NODE) },
  (i) => ({ port: ports[i] }),
);
const up = new Set([0, 1, 2]);
/** Node i at its listed address, joined through whichever instance runs there now. */
const chatNodes: ChatNode[] = endpoints.map((wsBase, i) => ({
  wsBase,
  join: (token, roomId) =>
    up.has(i) ? joinRoom(services.nodes[i]!.app, token, roomId) : Promise.reject(new Error('node down')),
}));
const connectionsOn = (i: number) => services.nodes[i]!.app.xtalkHub.stats().connections;
const onlyOn = (clients: ResumingClient[], wsBase: string) =>
  clients.every((client) => client.isReady && client.openedOn.at(-1)?.wsBase === wsBase);

const restart = async (i: number) => {
  services.nodes[i] = await startServer(services.env, { port: ports[i] });
  up.add(i);
};
const stop = async (i: number) => {
  up.delete(i);
  await services.nodes[i]!.close();
};

/** Every client got these messages, in order, each once, with no gap. */
async function receivedOnce(clients: ResumingClient[], texts: string[]) {
  await expect
    .poll(() => clients.every((client) => client.received.length === texts.length), { timeout: 10_000 })
    .toBe(true);
  for (const client of clients) {
    expect(client.received.map((frame) => frame.message)).toEqual(texts);
    expect({ gaps: client.gaps, duplicates: client.duplicates }).toEqual({ gaps: 0, duplicates: 0 });
  }
}

describe('room affinity on three nodes (decision 0237)', () => {
  it('puts a room’s members on its home, on the next node while the home is down, and back after', async () => {
    const random = seeded(237);
    const logins = await Promise.all(Array.from({ length: 4 }, () => guestLogin(services.nodes[0]!.app)));
    const { roomId, roomEndpoints } = await joinRoom(services.nodes[0]!.app, logins[0]!.token, null);
    const [home, next] = roomEndpoints!.map((endpoint) => endpoints.indexOf(endpoint)) as [number, number];
    // without the room's order each would start on a node of its own
    const clients = logins.map((login, i) => new ResumingClient(login, roomId, chatNodes, random, i));
    for (const client of clients) client.homeAfterMs = 800;
    await Promise.all(clients.map((client) => client.connect()));
    await expect.poll(() => onlyOn(clients, endpoints[home]!)).toBe(true);
    expect([0, 1, 2].map(connectionsOn)).toEqual([0, 1, 2].map((i) => (i === home ? 4 : 0)));
    clients[0]!.say('at home');

    await stop(home);
    clients[1]!.say('while the home is down');
    await expect.poll(() => onlyOn(clients, endpoints[next]!), { timeout: 15_000 }).toBe(true);
    expect(connectionsOn(next)).toBe(4);

    await restart(home);
    await expect.poll(() => onlyOn(clients, endpoints[home]!), { timeout: 15_000 }).toBe(true);
    clients[2]!.say('home again');
    await receivedOnce(clients, ['at home', 'while the home is down', 'home again']);
    for (const client of clients) expect(client.connects).toBe(3);
    for (const client of clients) client.stop();
  });

  it('fills a hot room’s nodes one after the other, and its members fail over and come back (0250)', async () => {
    const random = seeded(250);
    const logins = await Promise.all(
      Array.from({ length: 3 * PER_NODE }, () => guestLogin(services.nodes[0]!.app)),
    );
    const { roomId } = await joinRoom(services.nodes[0]!.app, logins[0]!.token, null);
    const order = roomEndpointOrder(roomId, endpoints).map((endpoint) => endpoints.indexOf(endpoint));
    const people = () => services.nodes[order[0]!]!.app.xtalkPresence.members!(roomId);
    const clients: ResumingClient[] = [];
    // one at a time, each in the room's presence before the next joins: the count each join reads
    for (const [i, login] of logins.entries()) {
      const client = new ResumingClient(login, roomId, chatNodes, random, i);
      client.homeAfterMs = 800;
      clients.push(client);
      await client.connect();
      await expect.poll(people).toBe(i + 1);
    }
    const share = (n: number) => clients.slice(n * PER_NODE, (n + 1) * PER_NODE);
    await expect.poll(() => order.every((node, n) => onlyOn(share(n), endpoints[node]!))).toBe(true);
    // the sockets of the test before close on their own time
    await expect.poll(() => order.map(connectionsOn)).toEqual([PER_NODE, PER_NODE, PER_NODE]);
    clients[0]!.say('spread');

    // the second share's node dies: its people go on to the room's home, then come back
    const second = order[1]!;
    await stop(second);
    clients[PER_NODE * 2]!.say('while a node is down');
    await expect.poll(() => onlyOn(share(1), endpoints[order[0]!]!), { timeout: 15_000 }).toBe(true);
    await restart(second);
    await expect.poll(() => onlyOn(share(1), endpoints[second]!), { timeout: 15_000 }).toBe(true);
    clients[PER_NODE]!.say('back');
    await receivedOnce(clients, ['spread', 'while a node is down', 'back']);
    for (const client of share(1)) expect(client.connects).toBe(3);
    for (const client of clients) client.stop();
  });
});
