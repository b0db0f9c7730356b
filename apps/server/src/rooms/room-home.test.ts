import { describe, expect, it } from 'vitest';
import { joinerEndpointOrder, roomEndpointOrder } from './room-home.js';

/* A room's home by rendezvous hashing (decision 0237), and a hot room's spread over its nodes (0250). */

const endpoints = ['wss://a.example', 'wss://b.example', 'wss://c.example'];
const rooms = Array.from({ length: 300 }, (_, i) => `ROOM${i.toString(36).toUpperCase()}`);

describe('roomEndpointOrder', () => {
  it('orders every endpoint once, the same whatever order the list is in', () => {
    for (const room of rooms.slice(0, 20)) {
      const order = roomEndpointOrder(room, endpoints);
      expect([...order].sort()).toEqual(endpoints);
      expect(roomEndpointOrder(room, [...endpoints].reverse())).toEqual(order);
    }
  });

  it('gives each endpoint a share of the rooms as home', () => {
    const homes = new Map<string, number>();
    for (const room of rooms) {
      const home = roomEndpointOrder(room, endpoints)[0]!;
      homes.set(home, (homes.get(home) ?? 0) + 1);
    }
    for (const endpoint of endpoints) expect(homes.get(endpoint) ?? 0).toBeGreaterThan(rooms.length / 6);
  });

  it('moves only the rooms of an endpoint that leaves, to their next choice, spread over the others', () => {
    const without = endpoints.filter((endpoint) => endpoint !== 'wss://b.example');
    const moved = new Map<string, number>();
    for (const room of rooms) {
      const [home, next] = roomEndpointOrder(room, endpoints);
      const after = roomEndpointOrder(room, without)[0]!;
      if (home === 'wss://b.example') {
        expect(after).toBe(next);
        moved.set(after, (moved.get(after) ?? 0) + 1);
      } else expect(after).toBe(home);
    }
    expect(moved.size).toBe(2);
  });
});

describe('joinerEndpointOrder', () => {
  const room = rooms[7]!;
  const order = roomEndpointOrder(room, endpoints);
  const joiner = (people: number, userId = 'u1') => ({ userId, people, perNode: 100 });

  it('is the room’s order while the room is under a node’s share', () => {
    for (const people of [0, 1, 99])
      expect(joinerEndpointOrder(room, endpoints, joiner(people))).toEqual(order);
  });

  it('starts a hot room’s joiners at its next node per share, the rest in the room’s order', () => {
    expect(joinerEndpointOrder(room, endpoints, joiner(100))).toEqual([order[1], order[0], order[2]]);
    expect(joinerEndpointOrder(room, endpoints, joiner(250))).toEqual([order[2], order[0], order[1]]);
  });

  it('past every node’s share, spreads joiners by their own hash over all the nodes', () => {
    const firsts = new Map<string, number>();
    for (let i = 0; i < 300; i++) {
      const mine = joinerEndpointOrder(room, endpoints, joiner(300, `user${i}`));
      expect([...mine].sort()).toEqual(endpoints);
      expect(mine.slice(1)).toEqual(order.filter((endpoint) => endpoint !== mine[0]));
      expect(joinerEndpointOrder(room, endpoints, joiner(900, `user${i}`))).toEqual(mine);
      firsts.set(mine[0]!, (firsts.get(mine[0]!) ?? 0) + 1);
    }
    for (const endpoint of endpoints) expect(firsts.get(endpoint) ?? 0).toBeGreaterThan(50);
  });

  it('keeps a single endpoint as it is', () => {
    expect(joinerEndpointOrder(room, endpoints.slice(0, 1), joiner(500))).toEqual(endpoints.slice(0, 1));
  });
});
