import { z } from 'zod';

/** The room's sequence number of a stored change (1, 2, 3, ...), gap-free per room and epoch. */
export const offsetField = z.number().int().min(1).optional();
