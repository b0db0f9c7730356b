/**
 * A module (or what is built from it) loaded the first time it is needed, once: SDKs that only a
 * configured or rarely used feature needs stay out of the server's memory at start (decision 0116).
 * A failed load is forgotten, so the next use tries again.
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
