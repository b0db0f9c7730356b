import { describe, expect, it } from 'vitest';
import { freePort } from '../testing/free-port.js';
import { guestLogin, joinRoom, startServer } from '../testing/harness.js';
import { ResumingClient, type ChatNode } from '../testing/resuming-client.js';
import { seeded } from '../testing/seeded.js';
import { serviceNodes } from '../testing/service-nodes.js';

/*
 * Room affinity on three nodes of PostgreSQL and Redis (decision 0237): the members of a room land on its
 * home node; when the home dies they go to the room's next node, and when it is back they return to it,
 * each once, at moments of their own, missing nothing.
 */
const ports = await Promise.all([freePort(), freePort(), freePort()]);
const endpoints = ports.map((port) => `ws://127.0.0.1:${port}`);
const services = serviceNodes('xtalk_affinity', 3, { PUBLIC_WS_ENDPOINTS: endpoints.join(',') }, (i) => ({
  port: ports[i],
}));
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

    up.delete(home);
    await services.nodes[home]!.close();
    clients[1]!.say('while the home is down');
    await expect.poll(() => onlyOn(clients, endpoints[next]!), { timeout: 15_000 }).toBe(true);
    expect(connectionsOn(next)).toBe(4);

    services.nodes[home] = await startServer(services.env, { port: ports[home] });
    up.add(home);
    await expect.poll(() => onlyOn(clients, endpoints[home]!), { timeout: 15_000 }).toBe(true);
    clients[2]!.say('home again');
    await expect
      .poll(() => clients.every((client) => client.received.length === 3), { timeout: 10_000 })
      .toBe(true);
    for (const client of clients) {
      expect(client.received.map((frame) => frame.message)).toEqual([
        'at home',
        'while the home is down',
        'home again',
      ]);
      expect({ gaps: client.gaps, duplicates: client.duplicates, connects: client.connects }).toEqual({
        gaps: 0,
        duplicates: 0,
        connects: 3,
      });
    }
    for (const client of clients) client.stop();
  });
});
