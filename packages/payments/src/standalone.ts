import { buildPaymentService, loadStandaloneSettings } from './standalone/index.js';

/*
 * `npx tsx packages/payments/src/standalone.ts`: the payment service alone, on PORT (8790), with PGlite
 * in DATA_DIR (or in memory) or PostgreSQL at DATABASE_URL. SIGTERM or SIGINT closes it.
 */
const settings = loadStandaloneSettings(process.env);
const service = await buildPaymentService(settings);
await service.app.listen({ port: settings.PORT, host: settings.HOST });
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void service.close().then(() => process.exit(0));
  });
}
