import { z } from 'zod';
import { PASSWORD_MAX_LENGTH } from './constants.js';

/*
 * A person's own data: deleting their account (DELETE /api/player) and taking a copy of it
 * (GET /api/player/export). The paths are in api-paths.ts; the export's shape is described in
 * docs/product.md.
 */

/** How fresh a session must be to delete its account without the password (docs/decisions). */
export const FRESH_SIGN_IN_SECONDS = 5 * 60;

/**
 * DELETE /api/player: `password` proves a fresh sign-in for an email account whose session is older than
 * FRESH_SIGN_IN_SECONDS; `confirm` is the word the person typed (DELETE, or 削除).
 */
export const deletePlayerBodySchema = z
  .object({
    password: z.string().min(1, { message: 'password is empty.' }).max(PASSWORD_MAX_LENGTH).optional(),
  })
  .strict();
export type DeletePlayerBody = z.input<typeof deletePlayerBodySchema>;

/** The answer of a deletion: what was let go, so the client can say so. */
export const deletePlayerResponseSchema = z.object({
  deleted: z.literal(true),
  /** Bought credits not yet spent when the account went: they are forfeited with it. */
  unspentPaidCredits: z.number().int().nonnegative(),
});
export type DeletePlayerResponse = z.infer<typeof deletePlayerResponseSchema>;

/** The export's formats: JSON by default, `?format=md` (or `Accept: text/markdown`) for the readable twin. */
export const PLAYER_EXPORT_FORMATS = ['json', 'md'] as const;
export const playerExportQuerySchema = z
  .object({ format: z.enum(PLAYER_EXPORT_FORMATS).optional() })
  .strict();
export type PlayerExportQuery = z.infer<typeof playerExportQuerySchema>;
