import { z } from 'zod';

/**
 * A language code (BCP 47 primary tag, optionally with subtags). The set a room translates into is
 * configured on the server (LANGUAGES); nothing in the protocol is hard-wired to two languages.
 */
export const languageSchema = z
  .string()
  .regex(/^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/, { message: 'Invalid language code.' });
export type Language = z.infer<typeof languageSchema>;
