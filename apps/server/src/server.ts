import { buildApp } from './app.js';
import { describeConfig, loadConfig } from './config.js';
import { collectStartupGarbage } from './startup-garbage.js';

/* Starts XTalk: reads the configuration once, listens, and shuts down cleanly on SIGTERM/SIGINT. */

const config = loadConfig();
const app = await buildApp({ config });
app.log.info({ config: describeConfig(config) }, 'configuration');

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => {
      app.log.error('shutdown took too long, exiting');
      process.exit(1);
    }, 15_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ port: config.PORT, host: config.HOST });
collectStartupGarbage();
app.log.info(`XTalk is ready at ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);
