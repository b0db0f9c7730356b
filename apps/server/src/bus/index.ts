/*
 * Frames between the nodes of one deployment: in-process, or Redis pub/sub, and the watch on Redis being
 * reachable.
 */
export { createMemoryBus, type Bus } from './bus.js';
export { type RedisOutage } from './redis-outage.js';
