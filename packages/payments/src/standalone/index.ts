/* The payment service on its own (README.md, "Running it alone"). */
export { buildPaymentService, optionsOf, type PaymentService } from './app.js';
export { anyPlayer, sessionTokenAuthenticator } from './auth.js';
export { migrateStandalone, openStandaloneDb, type StandaloneDb } from './db.js';
export { createStandaloneLedger, type StandaloneLedgerOptions } from './ledger.js';
export { loadStandaloneSettings, standaloneSettingsSchema, type StandaloneSettings } from './settings.js';
