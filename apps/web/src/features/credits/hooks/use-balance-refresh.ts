import { useEffect, useState } from 'react';
import { fetchBalance } from '../api/wallet-api';
import { logPaymentFailure } from '../utils/payment-log';
import { balanceStore } from './use-balance';

/**
 * The Credit Balance dialog's balance: one fetch when it mounts and one more per refresh, `loading`
 * until the latest answers. A failure is logged only; the last known balance stays.
 */
export function useBalanceRefresh(token: string) {
  const [loading, setLoading] = useState(true);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    let active = true;
    // The new balance and the end of the spin land in the same tick, so React renders them together:
    // never a frame with the fresh number and a spinning button.
    const done = () => {
      if (active) setLoading(false);
    };
    fetchBalance(token).then(
      (fresh) => {
        balanceStore.set(fresh);
        done();
      },
      (error: unknown) => {
        logPaymentFailure('balance fetch failed', error);
        done();
      },
    );
    return () => {
      active = false;
    };
  }, [token, attempt]);
  const refresh = () => {
    setLoading(true);
    setAttempt((n) => n + 1);
  };
  return { loading, refresh };
}
