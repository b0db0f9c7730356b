/**
 * Group commit (decision 0117): writes that arrive while one batch is being written wait, and then go
 * together as the next batch, in arrival order; `write` stores a whole batch in one transaction. Nothing
 * waits on a timer: a lone write starts at once, and batches grow by themselves only while the database
 * is busy, which is exactly when one transaction for many writes saves the most (PGlite is one
 * connection; every statement and commit on it is paid once per batch instead of once per write).
 *
 * Each submitter gets its own item's result, or the batch's error (a failed transaction stored none).
 */
export interface GroupCommit<Item, Result> {
  submit(item: Item): Promise<Result>;
}

interface Waiting<Item, Result> {
  item: Item;
  resolve(result: Result): void;
  reject(error: unknown): void;
}

export function createGroupCommit<Item, Result>(
  /** Stores the items, in order; resolves with one result per item, in the same order. */
  write: (items: Item[]) => Promise<Result[]>,
  options: { maxBatch?: number } = {},
): GroupCommit<Item, Result> {
  const maxBatch = options.maxBatch ?? 256;
  let queue: Waiting<Item, Result>[] = [];
  let writing = false;

  async function drain(): Promise<void> {
    while (queue.length > 0) {
      const batch = queue.slice(0, maxBatch);
      queue = queue.slice(batch.length);
      try {
        const results = await write(batch.map((waiting) => waiting.item));
        batch.forEach((waiting, index) => waiting.resolve(results[index] as Result));
      } catch (error) {
        for (const waiting of batch) waiting.reject(error);
      }
    }
    writing = false;
  }

  return {
    submit(item) {
      return new Promise<Result>((resolve, reject) => {
        queue.push({ item, resolve, reject });
        if (writing) return;
        writing = true;
        // started after this turn's other submits, so a burst in one turn is one batch
        queueMicrotask(() => void drain());
      });
    },
  };
}
