import { buildApp } from './app.js';
import { describeConfig, loadConfig } from './config.js';
import { collectStartupGarbage } from './startup-garbage.js';

/* Starts XTalk: reads the configuration once, listens, and shuts down cleanly on SIGTERM/SIGINT. */

const config = loadConfig();
const app = await buildApp({ config });
app.log.info({ config: describeConfig(config) }, 'configuration');

let stopping = false;
/** Closes the app (sockets get their close frames) and exits with `code`, or with 1 if closing fails. */
function shutdown(code: 0 | 1) {
  if (stopping) return;
  stopping = true;
  const force = setTimeout(() => {
    app.log.error('shutdown took too long, exiting');
    process.exit(1);
  }, 15_000);
  force.unref();
  app.close().then(
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
    shutdown(0);
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
app.log.info(`XTalk is ready at ${config.PUBLIC_URL ?? `http://localhost:${config.PORT}`}`);
