import type { MessageFrame } from '@xtalk/protocol';
import type { LoggedFrame } from '../../rooms/index.js';

/** A chat message as the room's log holds it at `offset` (its id and time are the offset too). */
export const loggedMessage = (offset: number): LoggedFrame =>
  ({
    type: 'message',
    id: offset,
    username: 'g-a',
    message: `m${offset}`,
    language: 'en',
    timestamp: offset,
    translations: {},
    isTutorial: false,
    offset,
  }) satisfies MessageFrame as LoggedFrame;
