import { z } from 'zod';

/** The kinds of value several settings share. */

/** A string where empty or blank means unset (an environment often holds `VAR=`). */
export const optionalString = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

/** A comma-separated list; unset or empty is the empty list. */
export const csv = z
  .string()
  .optional()
  .transform((value) =>
    (value ?? '')
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean),
  );
