import {
  CloseCode,
  MEMBER_COUNT_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  type ServerFrame,
  type SetUsernameFrame,
} from '@xtalk/protocol';
import { announcePresence, clientIdRequired, listenIn, type ConnectionCore } from './connection-ports.js';
import { checkLanguage, checkRoom } from './frame-handlers.js';
import { checkProtocolVersion } from './protocol-version.js';
import { framesForVersion } from './legacy-frames.js';
import { catchUpFor } from './resume.js';

/*
 * setUsername: the first one joins (protocol check, attach, replay or resume, READY, balance, buffered live
 * frames, JOIN); a repeated one only updates the language.
 */

export async function join(core: ConnectionCore, frame: SetUsernameFrame) {
  // core.log, not a destructured `log`: reading the getter makes the connection's child logger, which only
  // the rare paths below need (it was a few hundred bytes on every idle connection)
  const { deps } = core;
  if (frame.username !== core.user.username) {
    core.sendError('forbidden', 'You can only join as yourself: username does not match your login.');
    return;
  }
  if (!checkRoom(core, frame.room) || !checkLanguage(core, frame.language)) return;
  if (core.state === 'new') {
    const refusal = checkProtocolVersion(
      frame.protocolVersion,
      deps.minProtocolVersion ?? MIN_PROTOCOL_VERSION,
    );
    if (refusal) {
      const { protocolVersion } = frame;
      core.sampledLog.info('protocol', { protocolVersion }, 'refused a protocol version', core.user.id);
      core.sendError('bad_frame', refusal);
      return core.close(CloseCode.UnsupportedVersion, refusal);
    }
    core.protocolVersion = frame.protocolVersion ?? 1;
  }
  core.language = frame.language;
  if (core.state !== 'new') {
    // a repeated setUsername only updates the language
    if (core.state === 'joined') await listenIn(core, frame.language);
    return;
  }
  core.state = 'joining';
  core.pending = [];
  core.attached = true;
  let catchUp: Awaited<ReturnType<typeof catchUpFor>>;
  try {
    await deps.hub.attach(core.member);
    await deps.hub.attachUser(core.userMember);
    catchUp = await catchUpFor(deps, core.roomId, frame.resume);
  } catch (error) {
    // Half-joined is no state to stay in: the client reconnects (and resumes) once we can serve it.
    core.log.error({ err: error }, 'joining the room failed');
    core.sendError('unavailable', 'The room could not be loaded just now; reconnecting.');
    core.close(1011, 'Room unavailable; reconnecting.');
    return;
  }
  const position = { epoch: catchUp.position.epoch, offset: catchUp.position.offset };
  if (catchUp.resync)
    core.sendFrame({ type: 'system', message: 'RESYNC', timestamp: deps.clock.now(), ...position });
  if (catchUp.json) {
    // a message is the same frame in every protocol version; sendLogged leaves an older client's form to
    // legacy-frames.ts all the same (no offset: nothing here is filtered against lastOffset)
    for (const json of catchUp.json) core.sendLogged(json, undefined);
  } else {
    for (const replayed of catchUp.frames) {
      for (const frame of framesForVersion(replayed, core.protocolVersion)) core.sendFrame(frame);
    }
  }
  core.lastOffset = position.offset;
  if ((core.state as string) === 'closed') return;
  core.sendFrame({
    type: 'system',
    message: 'READY',
    timestamp: deps.clock.now(),
    roomId: core.roomId,
    protocolVersion: PROTOCOL_VERSION,
    ...position,
    // protocol 3: what a listener may pick to listen in, and how long a correction is possible
    languages: [...deps.languages],
    editWindowSeconds: deps.editWindowSeconds ?? 0,
    // protocol 7: older clients get no such field and chat as before
    ...(clientIdRequired(core) ? { clientIdRequired: true } : {}),
  });
  if (!(await flushAfterReady(core))) return;
  await listenIn(core, core.language);
  await announceJoin(core);
}

/** The balance, then the live frames held back during the replay; false when the socket closed meanwhile. */
async function flushAfterReady(core: ConnectionCore): Promise<boolean> {
  const balance = await balanceAfterReady(core);
  if (balance) core.sendFrame(balance);
  const buffered = core.pending;
  if (!buffered) return false; // the socket closed while the balance was read
  core.pending = undefined;
  core.state = 'joined';
  for (const { json, offset } of buffered) {
    // the balance read after READY is newer than any BALANCE that arrived before it
    if (balance && offset === undefined && isBalanceFrame(json)) continue;
    core.sendLogged(json, offset);
  }
  return true;
}

async function announceJoin(core: ConnectionCore) {
  const { deps } = core;
  // Presence only decides whether to announce JOIN: while its store is away the join still works.
  const first = await deps.presence.join(core.roomId, core.user.username, core.displayName).then(
    (isFirst) => {
      core.present = true;
      return isFirst;
    },
    (error: unknown) => {
      core.log.warn({ err: error }, 'presence unavailable; joined without announcing');
      return false;
    },
  );
  if (first && !(await backAfterRestart(core))) await announcePresence(core, 'JOIN');
  if (core.protocolVersion < MEMBER_COUNT_PROTOCOL_VERSION) return;
  // a hot room announces its count in steps: a joiner learns it now, not at the next step
  const count = await deps.announcer?.countFor(core.roomId);
  if (count) core.sendFrame(count);
}

/** Someone a restart sent away, back within the grace (decision 0161): nobody hears they joined. */
async function backAfterRestart(core: ConnectionCore): Promise<boolean> {
  const returners = core.deps.returners;
  if (!returners) return false;
  return returners.returning(core.roomId, core.user.username).catch((error: unknown) => {
    core.log.warn({ err: error }, 'returners unavailable; announcing the join');
    return false;
  });
}

async function balanceAfterReady(core: ConnectionCore): Promise<ServerFrame | undefined> {
  try {
    return await core.deps.balanceFrame?.(core.user);
  } catch (error) {
    // the balance is a convenience here; the room works without it
    core.log.warn({ err: error }, 'could not read the balance for READY');
    return undefined;
  }
}

function isBalanceFrame(json: Buffer): boolean {
  return json.subarray(0, 40).toString().startsWith('{"type":"system","message":"BALANCE"');
}
