/*
 * Sockets and frames, the top of a message's journey: the connection (which tests also make over fake
 * sockets), the drain's refusal and the gateway the lifecycle closes.
 */
export { createConnection, type Connection } from './connection.js';
export { type PeerSocket } from './peer-socket.js';
export { DRAINING_REFUSAL } from './socket-drain.js';
export { type Gateway } from './gateway.js';
