export {
  openPglite,
  type EmbeddedPglite,
  type PgliteLane,
  type PgliteOptions,
  type Queryable,
} from './open.js';
export { MAX_BACKGROUND_AHEAD, MAX_IN_FLIGHT, type Lane } from './lanes.js';
