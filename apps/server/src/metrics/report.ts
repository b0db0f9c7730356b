import type { AiTask } from '../ai/index.js';

/*
 * What the server's modules report for /metrics: a handful of methods, each a field increment or one
 * histogram sample, so a module calls them on its hot path without thinking. Modules receive this (or
 * the part they use) from buildApp; without it they report nowhere (`silentReport`).
 */

/** Why a socket frame was refused: over a rate limit (or a flood), or not a valid frame. */
export type FrameRefusalReason = 'rate_limited' | 'invalid';

/** Why AI work was not done: its author could not pay, or its room's backlog was full. */
export type AiRefusalReason = 'no_credits' | 'backlog';

export interface MetricsReport {
  /** A message stored (a resend of a stored one is not counted again). */
  messageStored(kind: 'text' | 'voice'): void;
  /**
   * A room frame handed to `sockets` local sockets; `storedAt` (performance.now() when the message was
   * stored on this node) for a new message's frame, else undefined.
   */
  fannedOut(sockets: number, storedAt: number | undefined): void;
  frameRefused(reason: FrameRefusalReason): void;
  /** One engine call (an attempt), how long it took and whether it failed. */
  aiCall(task: AiTask, seconds: number, failed: boolean): void;
  creditsSpent(amount: number): void;
  creditsRefunded(amount: number): void;
  /** A socket accepted after its upgrade. */
  socketOpened(): void;
  /** A socket closed, with the code it ended with (1006: dropped without a closing handshake). */
  socketClosed(code: number): void;
  /** A translation's first text sent into one language, `seconds` after its message reached translation. */
  translationFirstText(seconds: number): void;
  /** AI work for a message not done, and why. */
  aiRefused(reason: AiRefusalReason): void;
}

const nothing = () => undefined;

/** Reports nowhere: modules built without metrics (unit tests, the bench's parts). */
export const silentReport: MetricsReport = {
  messageStored: nothing,
  fannedOut: nothing,
  frameRefused: nothing,
  aiCall: nothing,
  creditsSpent: nothing,
  creditsRefunded: nothing,
  socketOpened: nothing,
  socketClosed: nothing,
  translationFirstText: nothing,
  aiRefused: nothing,
};
