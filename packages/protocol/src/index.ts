export * from './accounts.js';
export * from './constants.js';
export * from './frames.js';
export * from './http.js';
export * from './language.js';
export * from './names.js';
export * from './room-code.js';
export * from './usernames.js';
