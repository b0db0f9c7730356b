import { CREDIT_PRICES } from '@xtalk/protocol';
import type { Charge } from '../translation/index.js';

/*
 * A streamed clip's transcription is paid for as it is heard (docs/decisions/0121-streaming-remainder.md):
 * the speaker pays each block of the price table (1 credit per 2 s) when the engine starts hearing it, so
 * a speaker without credits is refused within one block and gets no unbounded free captions, and one
 * with a little credit can still speak as long as it lasts. At the end the last block is refunded and the
 * clip's metered transcription charges what is left after the whole blocks (a call costs at least one
 * block): the total is exactly what a whole clip of that length costs. A clip dropped on the way keeps
 * what it paid: its audio was heard and captioned (refunding it would make dropping a clip on purpose a
 * way to free captions).
 */

/** Charges `seconds` of transcription; throws InsufficientCreditsError when the balance cannot cover it. */
export type PayAudio = (seconds: number) => Promise<Charge | void>;

export interface StreamPayment {
  /** The engine has heard `seconds` of the clip: pay for the block they reach. False once refused. */
  cover(seconds: number): Promise<boolean>;
  /** Why the last block was refused (InsufficientCreditsError, or the ledger's failure). */
  readonly refusal: unknown;
  /**
   * The clip ends `duration` seconds long: the last block is refunded, and what its final transcription
   * must still charge is returned (all of it when nothing was paid).
   */
  settle(duration: number): Promise<number>;
}

export function createStreamPayment(
  pay: PayAudio,
  blockSeconds: number = CREDIT_PRICES.transcription.per,
): StreamPayment {
  const charges: Array<Charge | void> = [];
  let asked = 0;
  let chain: Promise<boolean> = Promise.resolve(true);
  let refusal: unknown;
  const refund = async (charge: Charge | void) => {
    await charge?.refund().catch(() => undefined);
  };
  return {
    get refusal() {
      return refusal;
    },
    cover(seconds) {
      while (seconds > asked * blockSeconds) {
        asked += 1;
        chain = chain.then(async (ok) => {
          if (!ok) return false;
          charges.push(await pay(blockSeconds));
          return true;
        });
      }
      chain = chain.catch((error: unknown) => {
        refusal ??= error;
        return false;
      });
      return chain;
    },
    async settle(duration) {
      await chain;
      if (charges.length === 0) return duration;
      await refund(charges.pop());
      return Math.max(0, duration - charges.length * blockSeconds);
    },
  };
}
