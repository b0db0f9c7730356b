import {
  normalizeRoomCode,
  type ChatFrame,
  type ServerFrame,
  type SetLanguageFrame,
  type UpdateUsernameFrame,
} from '@xtalk/protocol';
import { displayNameOf, type UserRow } from '../accounts/index.js';
import { clientIdRequired, listenIn, renameInPresence } from './connection-presence.js';
import type {
  ChatServices,
  LanguageChooser,
  PresenceServices,
  Renamed,
  RenameServices,
  Replies,
  Speaker,
} from './connection-ports.js';

const CLIENT_ID_MISSING =
  'A chat frame needs a clientId (READY says clientIdRequired): the message was not stored; send it again with one.';

/*
 * The frames of a joined connection: chat, language and rename. Each takes what it uses of the node and of
 * its connection (connection-ports.ts), and answers a bad frame with an error frame.
 */

export function checkRoom(
  connection: Pick<Speaker, 'roomId' | 'sendError'>,
  room: string,
  clientId?: string,
): boolean {
  if (normalizeRoomCode(room) === connection.roomId) return true;
  const { roomId } = connection;
  connection.sendError('wrong_room', `This connection is for room ${roomId}, not ${room}.`, clientId);
  return false;
}

export function checkLanguage(
  languages: readonly string[],
  replies: Replies,
  candidate: string,
  clientId?: string,
): boolean {
  if (languages.includes(candidate)) return true;
  replies.sendError(
    'unsupported_language',
    `Language ${candidate} is not supported here (${languages.join(', ')}).`,
    clientId,
  );
  return false;
}

/** A chat frame, checked, handed to the message path (messages): stored, fanned out, translated. */
export async function chat(services: ChatServices, speaker: Speaker, frame: ChatFrame) {
  const { clientId } = frame;
  if (speaker.state !== 'joined')
    return speaker.sendError('not_joined', 'Send setUsername before chatting.', clientId);
  // a resend of a message stored but not acknowledged would be stored twice without one
  if (!clientId && clientIdRequired(speaker.protocolVersion, services.clientIdRequiredFrom))
    return speaker.sendError('bad_frame', CLIENT_ID_MISSING);
  if (!checkRoom(speaker, frame.room, clientId)) return;
  if (!checkLanguage(services.languages, speaker, frame.language, clientId)) return;
  const stored = await services.chat.post({
    roomId: speaker.roomId,
    userId: speaker.user.id,
    username: speaker.user.username,
    displayUsername: speaker.displayName,
    language: frame.language,
    text: frame.message,
    clientId,
  });
  if (stored.duplicate) answerDuplicate(speaker, stored);
  else services.metrics?.messageStored('text');
}

/** A resend of a stored client id: the stored message, to this connection alone (its acknowledgement). */
function answerDuplicate(speaker: Speaker, stored: { message: ServerFrame; roomId: string }) {
  if (stored.roomId === speaker.roomId) return speaker.sendFrame(stored.message);
  speaker.sendError('message_invalid', 'This clientId was already used for a message in another room.');
}

export async function setLanguage(
  services: Pick<PresenceServices, 'presence'> & Pick<ChatServices, 'languages'>,
  chooser: LanguageChooser,
  frame: SetLanguageFrame,
) {
  if (!checkRoom(chooser, frame.room) || !checkLanguage(services.languages, chooser, frame.language)) return;
  chooser.language = frame.language;
  if (chooser.state === 'joined') await listenIn(services, chooser, frame.language);
}

export async function updateUsername(services: RenameServices, renamed: Renamed, frame: UpdateUsernameFrame) {
  // The server's record is the truth: the frame only says "my profile changed, tell the room".
  const fresh = await services.users.findById(renamed.user.id);
  if (!fresh || frame.username !== fresh.username) {
    renamed.sendError('forbidden', 'You can only rename yourself, to the username saved in your profile.');
    return;
  }
  const oldDisplayName = renamed.displayName;
  if (!(await takeProfile(services, renamed, fresh))) return;
  const { user, displayName, roomId } = renamed;
  const offset = await services.rooms.renameAuthor(user.id, user.username, displayName, {
    roomId,
    oldDisplayUsername: oldDisplayName,
  });
  await services.hub.broadcast(roomId, {
    type: 'usernameUpdate',
    username: user.username,
    displayUsername: displayName,
    oldDisplayUsername: oldDisplayName,
    ...(offset ? { offset } : {}),
  });
  // the user's other connections (tabs, devices) are counted under their old name until they take it too
  await services.hub.renamedUser(user.id);
}

/** Another connection of this user was renamed: this one takes the saved profile too, telling no one. */
export async function followRename(services: RenameServices, renamed: Renamed) {
  try {
    const fresh = await services.users.findById(renamed.user.id);
    if (fresh) await takeProfile(services, renamed, fresh);
  } catch (error) {
    // nothing this client asked for failed: its own next rename or join takes the profile
    renamed.log.warn({ err: error }, 'could not take the profile renamed on another connection');
  }
}

/** Makes the saved profile this connection's, in the room's presence too; whether its name changed. */
async function takeProfile(services: RenameServices, renamed: Renamed, fresh: UserRow): Promise<boolean> {
  const oldDisplayName = renamed.displayName;
  const oldUsername = renamed.user.username;
  renamed.user = fresh;
  renamed.displayName = displayNameOf(fresh);
  if (fresh.username === oldUsername && renamed.displayName === oldDisplayName) return false;
  await renameInPresence(services, renamed, oldUsername);
  return true;
}
