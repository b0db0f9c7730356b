/*
 * Work that spans modules, composed from their ports: a guest who signs in keeps their rooms, and
 * translation stores its results in the rooms' tables.
 */
export { roomsOfUsers, createPlayerLinks, deleteIdleGuests } from './guest-rooms.js';
export { translationStore } from './translation-store.js';
