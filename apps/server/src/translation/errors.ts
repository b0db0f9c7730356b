/**
 * Thrown by Meter.charge when the author cannot pay for a provider call. The translation service skips the
 * task and tells the room once; the credits module throws it without depending on anything else here.
 */
export class InsufficientCreditsError extends Error {
  /**
   * `message` is what the author is told (once); `guest` says the allowance is a guest's, so the room line
   * and the author's notice can say "sign in" rather than "buy credits".
   */
  constructor(
    message = 'Not enough credits.',
    readonly guest = false,
  ) {
    super(message);
    this.name = 'InsufficientCreditsError';
  }
}

/** Recognises the error across module copies (bundling) by name as well as by class. */
export function isInsufficientCredits(error: unknown): error is InsufficientCreditsError {
  return (
    error instanceof InsufficientCreditsError ||
    (error instanceof Error && error.name === 'InsufficientCreditsError')
  );
}
