import { z } from 'zod';

/*
 * Imported (dynamically) only to evaluate zod's chunk in a task of its own before the room's schemas are
 * built in the next one (lib/load-room-schemas.ts). A dynamic import of 'zod' itself would bring the
 * whole namespace, every locale included; this names one member, so the chunk stays what the schemas use.
 */
export const zodLoaded = typeof z.object === 'function';
