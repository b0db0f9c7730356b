import {
  CLIENT_ID_REQUIRED_PROTOCOL_VERSION,
  SPEECH_STREAM_PROTOCOL_VERSION,
  type ServerFrame,
} from '@xtalk/protocol';
import { wholeAudioIn, type Person, type PresenceEvent } from '../delivery/index.js';
import type { Leaver, Listener, PresenceServices, Renamed } from './connection-ports.js';

/* A connection in its room's presence: counted as listening, announced arriving and leaving. */

/** Whether a client of `protocolVersion` must send a clientId with every chat frame (READY tells it so). */
export function clientIdRequired(protocolVersion: number, requiredFrom: number | undefined): boolean {
  return protocolVersion >= (requiredFrom ?? CLIENT_ID_REQUIRED_PROTOCOL_VERSION);
}

function systemEvent(services: PresenceServices, person: Listener, message: 'JOIN' | 'LEAVE'): ServerFrame {
  return {
    type: 'system',
    message,
    timestamp: services.clock.now(),
    username: person.user.username,
    displayUsername: person.displayName,
  };
}

/** Announces this user's JOIN or LEAVE to the room (not to their own connections when alone in it). */
export function announcePresence(
  services: PresenceServices,
  person: Listener,
  event: PresenceEvent,
): Promise<void> {
  const announcer = services.announcer;
  if (announcer) {
    const named = { username: person.user.username, displayUsername: person.displayName };
    return announcer.announce(person.roomId, event, named);
  }
  return services.hub.broadcast(person.roomId, systemEvent(services, person, event), {
    exceptUsername: person.user.username,
  });
}

/**
 * Counts the connection as listening in `language` from now on (undefined: no longer), so that speech is
 * made only for languages someone listens in (decision 0137), and the WAV of a message's speech only while a
 * client before sentence-by-sentence speech listens in its language. Called in frame order (join,
 * setLanguage, close). A count that could not be changed leaves `listening` as it was, so the counts stay
 * what the store holds.
 */
export async function listenIn(
  services: Pick<PresenceServices, 'presence'>,
  listener: Listener,
  language: string | undefined,
): Promise<void> {
  const from = listener.listening;
  if (from === language) return;
  try {
    await services.presence.listen(listener.roomId, from, language);
    if (listener.protocolVersion < SPEECH_STREAM_PROTOCOL_VERSION)
      await services.presence.listen(
        listener.roomId,
        from && wholeAudioIn(from),
        language && wholeAudioIn(language),
      );
    listener.listening = language;
  } catch (error) {
    listener.log.warn({ err: error }, 'could not count the language this connection listens in');
  }
}

/**
 * A closed connection leaves its room: off the hub, out of the listener counts and, after the grace, out of
 * presence. `announce` is false when the server itself is shutting down and the people will be back.
 */
export async function leaveRoom(services: PresenceServices, leaver: Leaver, announce: boolean) {
  if (leaver.attached) {
    await services.hub.detach(leaver.member);
    await services.hub.detachUser(leaver.member);
  }
  await listenIn(services, leaver, undefined);
  if (!leaver.present) return;
  // still counted for the grace: back within it (a reload, a new network), nobody hears of it (decision 0140)
  if (announce) await services.departures?.wait();
  const last = await services.presence.leave(leaver.roomId, leaver.user.username).catch(() => false);
  if (last && announce) await announcePresence(services, leaver, 'LEAVE');
}

/**
 * A renamed connection's place in its room's presence: counted under its new username (one connection
 * moves, as each of the user's connections is renamed by its own frame) and listed under its new name on
 * every node, so the next member list shows it. The room hears of the rename from its usernameUpdate, not
 * as a LEAVE and a JOIN.
 */
export async function renameInPresence(
  services: Pick<PresenceServices, 'presence'>,
  renamed: Renamed,
  oldUsername: string,
): Promise<void> {
  if (!renamed.present) return;
  const { presence } = services;
  const person: Person = { username: renamed.user.username, displayUsername: renamed.displayName };
  try {
    if (person.username !== oldUsername) {
      await presence.leave(renamed.roomId, oldUsername);
      await presence.join(renamed.roomId, person.username, person.displayUsername);
    }
    await presence.rename?.(renamed.roomId, person);
  } catch (error) {
    renamed.log.warn({ err: error }, 'could not rename this connection in the room presence');
  }
}
