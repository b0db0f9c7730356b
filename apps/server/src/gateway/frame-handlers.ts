import {
  normalizeRoomCode,
  type ChatFrame,
  type ServerFrame,
  type SetLanguageFrame,
  type UpdateUsernameFrame,
} from '@xtalk/protocol';
import { displayNameOf } from '../accounts/index.js';
import { clientIdRequired, listenIn, type ConnectionCore } from './connection-ports.js';

const CLIENT_ID_MISSING =
  'A chat frame needs a clientId (READY says clientIdRequired): the message was not stored; send it again with one.';

/* The frames of a joined connection: chat, language and rename; each answers a bad one with an error frame. */

export function checkRoom(core: ConnectionCore, room: string, clientId?: string): boolean {
  if (normalizeRoomCode(room) === core.roomId) return true;
  core.sendError('wrong_room', `This connection is for room ${core.roomId}, not ${room}.`, clientId);
  return false;
}

export function checkLanguage(core: ConnectionCore, candidate: string, clientId?: string): boolean {
  const { languages } = core.deps;
  if (languages.includes(candidate)) return true;
  core.sendError(
    'unsupported_language',
    `Language ${candidate} is not supported here (${languages.join(', ')}).`,
    clientId,
  );
  return false;
}

export async function chat(core: ConnectionCore, frame: ChatFrame) {
  if (core.state !== 'joined')
    return core.sendError('not_joined', 'Send setUsername before chatting.', frame.clientId);
  // a resend of a message stored but not acknowledged would be stored twice without one
  if (!frame.clientId && clientIdRequired(core)) return core.sendError('bad_frame', CLIENT_ID_MISSING);
  if (!checkRoom(core, frame.room, frame.clientId) || !checkLanguage(core, frame.language, frame.clientId))
    return;
  const stored = await core.deps.chat.post({
    roomId: core.roomId,
    userId: core.user.id,
    username: core.user.username,
    displayUsername: core.displayName,
    language: frame.language,
    text: frame.message,
    clientId: frame.clientId,
  });
  if (stored.duplicate) answerDuplicate(core, stored);
  else core.deps.metrics?.messageStored('text');
}

/** A resend of a stored client id: the stored message, to this connection alone (its acknowledgement). */
function answerDuplicate(core: ConnectionCore, stored: { message: ServerFrame; roomId: string }) {
  if (stored.roomId === core.roomId) return core.sendFrame(stored.message);
  core.sendError('message_invalid', 'This clientId was already used for a message in another room.');
}

export async function setLanguage(core: ConnectionCore, frame: SetLanguageFrame) {
  if (!checkRoom(core, frame.room) || !checkLanguage(core, frame.language)) return;
  core.language = frame.language;
  if (core.state === 'joined') await listenIn(core, frame.language);
}

export async function updateUsername(core: ConnectionCore, frame: UpdateUsernameFrame) {
  const { deps } = core;
  // The server's record is the truth: the frame only says "my profile changed, tell the room".
  const fresh = await deps.users.findById(core.user.id);
  if (!fresh || frame.username !== fresh.username) {
    core.sendError('forbidden', 'You can only rename yourself, to the username saved in your profile.');
    return;
  }
  const oldDisplayName = core.displayName;
  const renamed = fresh.username !== core.user.username;
  core.user = fresh;
  core.displayName = displayNameOf(fresh);
  const { user, displayName } = core;
  if (!renamed && displayName === oldDisplayName) return;
  const offset = await deps.rooms.renameAuthor(user.id, user.username, displayName, {
    roomId: core.roomId,
    oldDisplayUsername: oldDisplayName,
  });
  await deps.hub.broadcast(core.roomId, {
    type: 'usernameUpdate',
    username: user.username,
    displayUsername: displayName,
    oldDisplayUsername: oldDisplayName,
    ...(offset ? { offset } : {}),
  });
}
