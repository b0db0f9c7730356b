import { describe, expect, it } from 'vitest';
import { roomEndpointOrder } from './room-home.js';

/* A room's home by rendezvous hashing (decision 0237). */

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
