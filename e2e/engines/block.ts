import { afterAll, beforeAll } from 'vitest';
import { onFreePort } from '../../apps/server/src/testing/free-port.js';
import { ProductServer } from '../lib/product-server.js';
import { launchEngine, type Engine, type EngineName } from './index.js';
import { networkLine, type NetworkLine } from './network-line.js';

/*
 * What a cross-engine describe block runs against: the built product, one engine, and a network line for
 * each of up to three people, made before the server starts so that the server lets their origins open
 * sockets (production allows `PUBLIC_URL`'s origin and `ALLOWED_ORIGINS`).
 */

export interface ProductInEngine {
  readonly server: ProductServer;
  readonly engine: Engine;
  /** One line to the server per person. */
  readonly lines: readonly NetworkLine[];
}

export function productInEngine(
  name: EngineName,
  env: Record<string, string> = {},
  chromiumArgs: () => string[] = () => [],
): ProductInEngine {
  let server: ProductServer | undefined;
  let engine: Engine | undefined;
  const lines: NetworkLine[] = [];
  beforeAll(async () => {
    // the lines name the server's port before it listens: a port taken meanwhile means new lines too
    server = await onFreePort(async (port) => {
      for (let i = 0; i < 3; i += 1) lines.push(await networkLine(port));
      const origins = lines.map((line) => line.url).join(',');
      try {
        return await ProductServer.start({ ALLOWED_ORIGINS: origins, ...env }, port);
      } catch (error) {
        for (const line of lines.splice(0)) await line.close();
        throw error;
      }
    });
    engine = await launchEngine(name, chromiumArgs());
  });
  afterAll(async () => {
    for (const line of lines.splice(0)) await line.close();
    await engine?.close();
    await server?.dispose();
  });
  const made = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('productInEngine: read it inside a test');
    return value;
  };
  return {
    get server() {
      return made(server);
    },
    get engine() {
      return made(engine);
    },
    get lines() {
      return lines;
    },
  };
}
