import { AiError } from './provider.js';

/**
 * The pieces a model's streamer callback pushes, as an async iterable: `run` starts the work with the
 * `push` to call; when it pushed nothing, `whole` of its output is the one piece. An abort of `signal`
 * ends the iteration with its reason (the model's run finishes on its own).
 */
export async function* pushedStream<T>(
  run: (push: (text: string) => void) => Promise<T>,
  whole: (output: T) => string,
  signal: AbortSignal | undefined,
): AsyncIterable<string> {
  const pieces: string[] = [];
  let wake: (() => void) | undefined;
  let finished = false;
  let failure: unknown;
  let streamed = false;
  const push = (text: string) => {
    if (!text) return;
    streamed = true;
    pieces.push(text);
    wake?.();
  };
  const done = run(push).then(
    (output) => {
      if (!streamed) push(whole(output));
      finished = true;
      wake?.();
    },
    (error: unknown) => {
      failure = error;
      finished = true;
      wake?.();
    },
  );
  const abort = () => {
    failure = signal?.reason ?? new AiError('aborted', { retryable: true });
    finished = true;
    wake?.();
  };
  signal?.addEventListener('abort', abort, { once: true });
  try {
    for (;;) {
      if (pieces.length > 0) {
        yield pieces.shift() as string;
        continue;
      }
      if (finished) break;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
    if (failure) throw failure;
    while (pieces.length > 0) yield pieces.shift() as string;
  } finally {
    signal?.removeEventListener('abort', abort);
    void done;
  }
}
