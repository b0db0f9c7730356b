/*
 * The little of EIP-1193 (a wallet's provider object) that signing in needs: ask for an account, sign a
 * text (personal_sign), and tell the person's refusal (code 4001) from a failure of the wallet.
 */

export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
}

/** A wallet refusal, worded by the page: the person said no, or the wallet failed (with its words). */
export class WalletRefusal extends Error {
  constructor(
    readonly kind: 'rejected' | 'failed',
    message: string,
  ) {
    super(message);
    this.name = 'WalletRefusal';
  }
}

const USER_REJECTED = 4001;

function refusalOf(error: unknown): WalletRefusal {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const text = typeof message === 'string' && message !== '' ? message : String(error);
  return new WalletRefusal(code === USER_REJECTED ? 'rejected' : 'failed', text);
}

async function ask(provider: Eip1193Provider, method: string, params?: unknown[]): Promise<unknown> {
  try {
    return await provider.request(params ? { method, params } : { method });
  } catch (error) {
    throw refusalOf(error);
  }
}

/** The account the person lets the page see (the wallet asks them first). */
export async function requestAccount(provider: Eip1193Provider): Promise<string> {
  const accounts = await ask(provider, 'eth_requestAccounts');
  const first = Array.isArray(accounts) ? accounts[0] : undefined;
  if (typeof first !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(first)) {
    throw new WalletRefusal('failed', 'The wallet shared no account.');
  }
  return first;
}

/** personal_sign of a UTF-8 text, sent hex-encoded as wallets expect; the signature's hex. */
export async function personalSign(
  provider: Eip1193Provider,
  text: string,
  address: string,
): Promise<string> {
  const hex = [...new TextEncoder().encode(text)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  const signature = await ask(provider, 'personal_sign', [`0x${hex}`, address]);
  if (typeof signature !== 'string' || !/^0x[0-9a-fA-F]+$/.test(signature)) {
    throw new WalletRefusal('failed', 'The wallet returned no signature.');
  }
  return signature;
}
