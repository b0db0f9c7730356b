/*
 * Deadlines for many items on one timer (memory per connection). A token-expiry setTimeout per
 * socket was a Timeout, a closure and a timer list each; here a socket costs a slot in two arrays and a
 * map entry. Items sit in a binary min-heap by deadline; the one timer is set for the earliest. Deadlines
 * are on the monotonic clock (performance.now()), as timers are, so an item is due when its own
 * setTimeout would have fired.
 */

const MAX_DELAY_MS = 2 ** 31 - 1;

export function createDeadlines<T>(onDue: (item: T) => void) {
  const at: number[] = [];
  const items: T[] = [];
  const indexOf = new Map<T, number>();
  let timer: NodeJS.Timeout | undefined;
  let timerAt = Infinity;

  function place(i: number, deadline: number, item: T) {
    at[i] = deadline;
    items[i] = item;
    indexOf.set(item, i);
  }
  function up(i: number) {
    const deadline = at[i]!;
    const item = items[i]!;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (at[parent]! <= deadline) break;
      place(i, at[parent]!, items[parent]!);
      i = parent;
    }
    place(i, deadline, item);
  }
  function down(i: number) {
    const deadline = at[i]!;
    const item = items[i]!;
    const size = at.length;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= size) break;
      if (child + 1 < size && at[child + 1]! < at[child]!) child++;
      if (at[child]! >= deadline) break;
      place(i, at[child]!, items[child]!);
      i = child;
    }
    place(i, deadline, item);
  }
  function removeAt(i: number) {
    indexOf.delete(items[i]!);
    const lastAt = at.pop()!;
    const lastItem = items.pop()!;
    if (i === at.length) return;
    place(i, lastAt, lastItem);
    up(i);
    down(indexOf.get(lastItem)!);
  }
  function schedule() {
    const next = at[0];
    if (next === undefined || next === timerAt) return;
    clearTimeout(timer);
    timerAt = next;
    timer = setTimeout(fire, Math.min(Math.max(next - performance.now(), 0), MAX_DELAY_MS));
    timer.unref();
  }
  function fire() {
    timer = undefined;
    timerAt = Infinity;
    // a timer may run a fraction of a millisecond before performance.now() reaches its deadline
    const now = performance.now() + 1;
    while (at.length > 0 && at[0]! <= now) {
      const item = items[0]!;
      removeAt(0);
      onDue(item);
    }
    schedule();
  }

  return {
    /** `onDue(item)` in `delayMs` (at most once; adding an item again moves its deadline). */
    add(item: T, delayMs: number) {
      if (indexOf.has(item)) removeAt(indexOf.get(item)!);
      const i = at.length;
      at.push(0);
      items.push(item);
      place(i, performance.now() + Math.max(delayMs, 0), item);
      up(i);
      schedule();
    },
    remove(item: T) {
      const i = indexOf.get(item);
      if (i !== undefined) removeAt(i);
    },
    size: () => at.length,
    stop() {
      clearTimeout(timer);
      timer = undefined;
      timerAt = Infinity;
    },
  };
}
export type Deadlines<T> = ReturnType<typeof createDeadlines<T>>;
