/*
 * The one door tests have into a running app's tables, for state no API writes yet and for checks no API
 * answers. Everything else goes through the modules' own APIs (`server.app.xtalkAuth`, `xtalkRooms`,
 * `xtalkCredits`, ...) or through HTTP and sockets as the browser does. Each module's helpers sit in a
 * file named for it; a helper takes the test server or, for tests of a module on a database of their
 * own, that database.
 */

export { dbOf, type Store } from './store.js';
export * from './accounts.js';
export * from './rooms.js';
export * from './credits.js';
