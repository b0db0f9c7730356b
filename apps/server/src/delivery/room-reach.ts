import { randomUUID } from 'node:crypto';
import type { Bus } from '../bus/index.js';
import { encodeHello, helloFrom, isLoggedEnvelope } from './envelope.js';

/*
 * Where a room's frames go (decision 0236): over the bus while another node may hold the room, else
 * straight to this node's members, so a room whose members share one node never touches Redis.
 *
 * What tells a node it is alone: a publish reaches one subscription (its own). What tells it it is not: a
 * hello. A node that takes a room on subscribes first, then publishes a hello on the room's channel; a
 * node that held the room alone goes back to the bus at once and publishes again the last logged frame
 * it sent only to its own members. The newcomer's sequencer starts at the stored offset it read after
 * subscribing, so every frame stored after that either crossed the bus or is at or before the frame
 * published again, whose gap the sequencer fills from the log: the newcomer misses nothing logged.
 * Every sign of another node bumps `epoch`, so a publish that was answered after one cannot take the
 * room back to local delivery on stale news. And the node goes local only once the frame that told it
 * so, the latest it published, has come back to it through the bus: everything it published has then
 * been delivered, so a frame delivered straight to its members never overtakes one still on the bus.
 */

export const channelOf = (roomId: string) => `xtalk:room:${roomId}`;

/** One room's reach on this node. */
export interface Reach {
  /** Whether frames must cross the bus; until the bus says this node is alone, they do. */
  remote: boolean;
  epoch: number;
  /** The last logged envelope sent to the room, published again when another node arrives. */
  last?: Buffer;
  /** The last payload the bus brought for the room. */
  heard?: Buffer;
  /** A publish said this node is alone: local once it has come back through the bus. */
  settling?: { payload: Buffer; epoch: number };
  /** Publishes sent so far: only the answer to the latest may take the room local. */
  published: number;
}

export const newReach = (): Reach => ({ remote: true, epoch: 0, published: 0 });

/** The bus says the payload reached this node's subscription alone, with no news of another node since. */
function alone(bus: Bus, reach: Reach, epoch: number, receivers: number | void): boolean {
  return receivers === 1 && reach.epoch === epoch && bus.isConnected?.() !== false;
}

/**
 * `payload` reached this node alone: local now if it is back already, else once it is. Only the latest
 * publish's answer counts: one sent after it may still be on the bus (a room's batch leaves at once,
 * decision 0268), and what is delivered straight must not overtake it.
 */
function settle(reach: Reach, payload: Buffer, epoch: number, sent: number) {
  if (reach.published !== sent) return;
  if (reach.heard?.equals(payload)) reach.remote = false;
  else reach.settling = { payload, epoch };
}

/** A publish is about to leave: a wait begun by an earlier one's answer no longer says anything. */
function published(reach: Reach): number {
  reach.settling = undefined;
  return ++reach.published;
}

export function createRoomReach(
  bus: Bus,
  reachOf: (roomId: string) => Reach | undefined,
  /** Hands an envelope to this node's members of the room, as the bus would. */
  local: (roomId: string, payload: Buffer) => void,
) {
  const nodeId = randomUUID();

  /**
   * Another node holds the room (or may): frames cross the bus again, and what it may have missed too.
   * `answer`: another node's hello, which gets the last logged frame again even while frames crossed the
   * bus: a node whose room started from a join's read (decision 0265) may have subscribed after it.
   */
  function widen(roomId: string, reach: Reach, answer = false) {
    const wasLocal = !reach.remote;
    reach.remote = true;
    reach.epoch += 1;
    reach.settling = undefined;
    if ((wasLocal || answer) && reach.last)
      void bus.publish(channelOf(roomId), reach.last).catch(() => undefined);
  }

  return {
    /** This node's id on the room channels (its hello's, and the sender of frames for the others). */
    nodeId,
    /** Sends an envelope to the room: to this node's members only while no other node holds it. */
    async send(roomId: string, payload: Buffer): Promise<void> {
      const reach = reachOf(roomId);
      if (reach && isLoggedEnvelope(payload)) reach.last = payload;
      if (reach && !reach.remote) return local(roomId, payload);
      const epoch = reach?.epoch ?? 0;
      const sent = reach ? published(reach) : 0;
      const receivers = await bus.publish(channelOf(roomId), payload);
      if (reach && reachOf(roomId) === reach && alone(bus, reach, epoch, receivers))
        settle(reach, payload, epoch, sent);
    },

    /** This node has just subscribed to the room (or to it again after an outage): says so to the others. */
    async hello(roomId: string): Promise<void> {
      const reach = reachOf(roomId);
      if (!reach) return;
      widen(roomId, reach);
      const epoch = reach.epoch;
      const hello = encodeHello(nodeId);
      const sent = published(reach);
      const receivers = await bus.publish(channelOf(roomId), hello).catch(() => undefined);
      if (reachOf(roomId) === reach && alone(bus, reach, epoch, receivers)) settle(reach, hello, epoch, sent);
    },

    /**
     * Notes what the bus brought for the room; whether it was a hello (which is for the hub, not its
     * members). Answers another node's.
     */
    heard(roomId: string, payload: Buffer): boolean {
      const reach = reachOf(roomId);
      if (reach) {
        reach.heard = payload;
        const { settling } = reach;
        if (settling?.payload.equals(payload)) {
          reach.settling = undefined;
          if (settling.epoch === reach.epoch) reach.remote = false;
        }
      }
      const from = helloFrom(payload);
      if (from === undefined) return false;
      if (reach && from !== nodeId) widen(roomId, reach, true);
      return true;
    },
  };
}
