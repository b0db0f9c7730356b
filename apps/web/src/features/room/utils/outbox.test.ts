import { beforeEach, describe, expect, it } from 'vitest';
import { loadOutbox, newClientId, saveOutbox, toSend, type OutboxEntry } from './outbox';

const entry = (n: number, overrides: Partial<OutboxEntry> = {}): OutboxEntry => ({
  clientId: `c${n}`,
  roomId: 'ABC2345',
  text: `typed ${n}`,
  language: 'en',
  createdAt: 1000 + n,
  status: 'sending',
  ...overrides,
});

describe('outbox', () => {
  beforeEach(() => localStorage.clear());

  it('survives a reload (localStorage) and drops broken or day-old entries', () => {
    saveOutbox([entry(1), entry(2, { status: 'failed', error: 'too long' })]);
    expect(loadOutbox(2000)).toEqual([entry(1), entry(2, { status: 'failed', error: 'too long' })]);
    localStorage.setItem('outbox', JSON.stringify([entry(3), { clientId: 4 }, 'junk']));
    expect(loadOutbox(2000)).toEqual([entry(3)]);
    expect(loadOutbox(1003 + 24 * 60 * 60 * 1000)).toEqual([]);
    localStorage.setItem('outbox', '{not json');
    expect(loadOutbox()).toEqual([]);
  });

  it('sends the room’s waiting messages oldest first, not the refused ones nor other rooms’', () => {
    const entries = [entry(3), entry(1), entry(2, { status: 'failed' }), entry(4, { roomId: 'XYZ2345' })];
    expect(toSend(entries, 'ABC2345').map((e) => e.clientId)).toEqual(['c1', 'c3']);
  });

  it('makes client ids that fit the protocol (1-64 characters) and differ', () => {
    const ids = new Set(Array.from({ length: 100 }, newClientId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id.length).toBeLessThanOrEqual(64);
  });
});
