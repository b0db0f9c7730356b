import {
  ApiPath,
  CREDIT_CURRENCY,
  deletePlayerResponseSchema,
  walletBalanceResponseSchema,
  type DeletePlayerBody,
} from '@xtalk/protocol';
import { ApiError, request } from '#web/lib/api-client';

/* A person's own data: the export's two files, the bought credits a deletion forfeits, and the deletion. */

/** Bought credits not yet spent (the premium part of the balance). */
export async function unspentPaidCredits(token: string): Promise<number> {
  const body = await request<unknown>('GET', ApiPath.walletBalance, {
    token,
    params: { currency: CREDIT_CURRENCY },
  });
  return walletBalanceResponseSchema.parse(body).premium;
}

/** DELETE /api/player: the account goes; the password stands in for a sign-in of the last minutes. */
export async function deleteAccount(token: string, password?: string): Promise<number> {
  const body: DeletePlayerBody = password ? { password } : {};
  const answer = await request<unknown>('DELETE', ApiPath.player, { token, body });
  return deletePlayerResponseSchema.parse(answer).unspentPaidCredits;
}

/**
 * GET /api/player/export as a file the browser saves: fetched with the session in a header (never in a
 * link's address), then handed to a download link.
 */
export async function downloadExport(token: string, format: 'json' | 'md'): Promise<void> {
  const response = await fetch(`${ApiPath.playerExport}?format=${format}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (!response.ok) {
    const body = (await response.json().catch(() => undefined)) as { message?: string } | undefined;
    throw new ApiError(response.status, body, body?.message ?? `HTTP ${response.status}`);
  }
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name ?? `xtalk-export.${format}`;
  link.click();
  // the click has started the download; the blob is not needed after this turn
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
