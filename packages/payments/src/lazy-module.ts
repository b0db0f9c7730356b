/**
 * A module (or what is built from it) loaded the first time it is needed, once: the Stripe and Google
 * SDKs stay out of memory unless their provider is configured. A failed load is forgotten, so the next
 * use tries again. (The server keeps the same eight lines for its own SDKs: the package runs without it.)
 */
export function lazyModule<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
