import { z } from 'zod';

/*
 * Imported (dynamically) by lib/load-room-schemas.ts only, to spread zod's start-up over tasks of its own:
 * importing this evaluates zod's chunk; warmUp() then builds and runs one small schema, so the first use of
 * zod's common paths (and their compilation) is not added to the task that builds the room's schemas.
 * A dynamic import of 'zod' itself would bring the whole namespace, every locale included.
 */
export function warmUp(): void {
  z.discriminatedUnion('type', [
    z.object({
      type: z.literal('a'),
      n: z.number().int().min(0).optional(),
      s: z.string().min(1).max(9),
      e: z.enum(['x', 'y']),
      l: z.array(z.string()),
      r: z.record(z.string(), z.string()),
      b: z.boolean(),
    }),
    z.object({ type: z.literal('b') }),
  ]).safeParse({ type: 'a', n: 1, s: 's', e: 'x', l: [], r: {}, b: true });
}
