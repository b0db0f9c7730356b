/*
 * When this node stored a room's messages, by room offset, until each one's frame is delivered here: what
 * xtalk_delivery_seconds measures from. Frames are delivered in offset order, so the entries are a queue;
 * two arrays of numbers and an index, emptied (not reallocated) whenever the queue drains.
 */

/** Entries beyond this (a bus that stopped delivering) push the oldest out. */
const MAX_WAITING = 1024;

export class StoredTimes {
  private readonly offsets: number[] = [];
  private readonly times: number[] = [];
  private head = 0;

  /** The message at `offset` was stored at `at` (performance.now()). */
  add(offset: number, at: number): void {
    if (this.offsets.length - this.head >= MAX_WAITING) this.head++;
    this.offsets.push(offset);
    this.times.push(at);
  }

  /** When the message at `offset` was stored here, once; undefined for anything else (stored elsewhere). */
  take(offset: number): number | undefined {
    const { offsets } = this;
    if (this.head === offsets.length) return undefined;
    while (this.head < offsets.length && offsets[this.head]! < offset) this.head++;
    const found = offsets[this.head] === offset ? this.times[this.head++] : undefined;
    if (this.head === offsets.length) {
      offsets.length = 0;
      this.times.length = 0;
      this.head = 0;
    } else if (this.head >= MAX_WAITING) {
      offsets.splice(0, this.head);
      this.times.splice(0, this.head);
      this.head = 0;
    }
    return found;
  }
}
