import { z } from 'zod';

/*
 * Imported (dynamically) by lib/load-room-schemas.ts only, to spread zod's start-up over tasks of its own:
 * importing this evaluates zod's chunk; each step then builds and runs one small schema, so the first use
 * of zod's common paths (and their compilation) is not added to the task that builds the room's schemas.
 * One step per task (decision 0085): run together they make one long task, longer still under Lighthouse's
 * CPU slowdown. A dynamic import of 'zod' itself would bring the whole namespace, every locale included.
 */
export const warmUpSteps: (() => void)[] = [
  () => void z.string().min(1).max(9).safeParse('s'),
  () => void z.number().int().min(0).optional().safeParse(1),
  () => void z.enum(['x', 'y']).safeParse('x'),
  () => void z.literal('a').safeParse('a'),
  () => void z.array(z.boolean()).safeParse([true]),
  () => void z.record(z.string(), z.string()).safeParse({}),
  () => void z.object({ type: z.literal('a'), s: z.string() }).safeParse({ type: 'a', s: 's' }),
  () =>
    void z
      .discriminatedUnion('type', [z.object({ type: z.literal('a') }), z.object({ type: z.literal('b') })])
      .safeParse({ type: 'a' }),
];
