import type { ServerFrame, Txn } from '@xtalk/protocol';
import type { Queryable } from '../../store/index.js';

/*
 * The port through which accounts reaches what other modules hold of a person, for deleting their account
 * and for their export: rooms (memberships and messages), credits (the ledger) and the payment service
 * (orders and purchases). Accounts declares it and imports none of them; the composition fills it in
 * (use-cases/player-records.ts). The erasing calls run on the deletion's transaction `tx`, so a deletion
 * commits whole or not at all; the reading calls page through their rows, so an export is never held
 * in memory whole.
 */

export interface JoinedRoomRecord {
  roomId: string;
  joinedAt: string;
  lastVisitAt: string;
}

export interface AuthoredMessageRecord {
  roomId: string;
  id: number;
  sentAt: string;
  language: string;
  text: string;
  translations: Record<string, string>;
  editedAt?: string;
}

export interface OrderRecord {
  id: string;
  amount: number;
  priceJpy: number;
  productId: string;
  status: string;
  createdAt: string;
}

type Reader = Pick<Queryable, 'query'>;

/** A frame a room's members are sent once a deletion has committed (the room log already holds it). */
export interface RoomNotice {
  roomId: string;
  frame: ServerFrame;
}

export interface PlayerRecords {
  /** Bought credits not yet spent: named to the person before they confirm a deletion. */
  unspentPaidCredits(q: Reader, userId: string): Promise<number>;
  /**
   * Lets go of the person in every other module: their messages lose their name (`names`: the names
   * they go by now), their memberships and room sessions go, their ledger and payment records are kept
   * under a pseudonym. Returns what each room they wrote in is to be told.
   */
  erase(tx: Queryable, userId: string, names: string[]): Promise<RoomNotice[]>;
  /** Tells the rooms, on every node, after the deletion committed: their messages are nameless now. */
  announce(notices: RoomNotice[]): Promise<void>;
  rooms(q: Reader, userId: string): AsyncIterable<JoinedRoomRecord>;
  messages(q: Reader, userId: string): AsyncIterable<AuthoredMessageRecord>;
  ledger(q: Reader, userId: string): AsyncIterable<Txn>;
  orders(q: Reader, userId: string): Promise<OrderRecord[]>;
}
