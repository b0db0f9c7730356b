import { buildApp } from './app.js';
import { describeConfig, loadConfig } from './config.js';
import { collectStartupGarbage } from './startup-garbage.js';

/* Starts XTalk: reads the configuration once, listens, and shuts down cleanly on SIGTERM/SIGINT. */

const config = loadConfig();
const app = await buildApp({ config });
app.log.info({ config: describeConfig(config) }, 'configuration');

let stopping = false;
/**
 * Drains (SIGTERM: over DRAIN_SECONDS; SIGINT, someone at a terminal: at once), closes the app and exits
 * with `code`, or with 1 if closing fails. A lost database skips the drain: nothing can be stored anyway.
 */
function shutdown(code: 0 | 1, drainMs?: number) {
  if (stopping) return;
  stopping = true;
  const limitMs = (Math.max(config.DRAIN_SECONDS, config.SHUTDOWN_GRACE_SECONDS) + 15) * 1000;
  const force = setTimeout(() => {
    app.log.error('shutdown took too long, exiting');
    process.exit(1);
  }, limitMs);
  force.unref();
  (drainMs === undefined ? Promise.resolve() : app.xtalkDrain(drainMs))
    .then(() => app.close())
    .then(
      () => process.exit(code),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    app.log.info({ signal }, 'shutting down');
    shutdown(0, signal === 'SIGTERM' ? config.DRAIN_SECONDS * 1000 : 0);
  });
}
// Without its embedded database the server can store nothing: rather than run on answering errors, it
// stops with a failure, for its supervisor (systemd, a container runtime) to start it again. Everything
// acknowledged was committed before the loss, so nothing is lost by the restart.
void app.xtalkDb.lost?.then((error) => {
  app.log.fatal({ err: error }, 'the database is lost; stopping so the server can be started again');
  shutdown(1);
});

await app.listen({ port: config.PORT, host: config.HOST });
collectStartupGarbage();
app.log.info(`XTalk is ready at ${config.PUBLIC_URL}`);
