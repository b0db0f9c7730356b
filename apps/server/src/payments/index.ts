/*
 * The payments module: the payment service of @xtalk/payments mounted on this server (plugin.ts), over
 * the ports this server builds for it (ports.ts).
 */
export { authenticatorPort, ledgerPort, usersPort } from './ports.js';
export { storePurchaseAccount } from './store-accounts.js';
