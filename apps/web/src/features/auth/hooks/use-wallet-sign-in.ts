import { useState } from 'react';
import { walletNonce, walletSignIn } from '../api/provider-sign-in';
import { WalletRefusal, personalSign, requestAccount } from '../utils/eip1193';
import { useCompleteSignIn } from './use-complete-sign-in';
import type { InjectedWallet } from './use-wallet-providers';

/** What the person reviews before their wallet is asked to sign: the server's SIWE message. */
export interface WalletReview {
  wallet: InjectedWallet;
  address: string;
  nonce: string;
  message: string;
}

export type WalletStep = 'connecting' | 'signing';

/**
 * The two steps of a wallet sign-in: connect (the wallet shares an account, the server writes the message
 * for it) and sign (the reviewed message, then the server's session), with the step under way and its
 * failure.
 */
export function useWalletSignIn(chainId: number) {
  const complete = useCompleteSignIn();
  const [review, setReview] = useState<WalletReview | null>(null);
  const [busy, setBusy] = useState<WalletStep | null>(null);
  const [error, setError] = useState<{ failure: unknown } | null>(null);

  async function connect(wallet: InjectedWallet) {
    setBusy('connecting');
    setError(null);
    try {
      const address = await requestAccount(wallet.provider);
      const { nonce, message } = await walletNonce(address);
      if (!message) throw new WalletRefusal('failed', 'This server wrote no message to sign.');
      setReview({ wallet, address, nonce, message });
    } catch (failure) {
      setError({ failure });
    } finally {
      setBusy(null);
    }
  }

  async function sign(current: WalletReview) {
    setBusy('signing');
    setError(null);
    try {
      const signature = await personalSign(current.wallet.provider, current.message, current.address);
      const session = await walletSignIn({
        nonce: current.nonce,
        signature,
        chainType: 'evm',
        networkID: chainId,
        walletProvider: current.wallet.name,
        signingData: current.message,
      });
      setReview(null);
      complete(session);
    } catch (failure) {
      setError({ failure });
      setBusy(null);
    }
  }

  const close = () => {
    setReview(null);
    setError(null);
    setBusy(null);
  };

  return { review, busy, error, connect, sign, close };
}
