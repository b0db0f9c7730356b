import {
  CloseCode,
  MEMBER_COUNT_PROTOCOL_VERSION,
  MIN_PROTOCOL_VERSION,
  PROTOCOL_VERSION,
  type ServerFrame,
  type SetUsernameFrame,
} from '@xtalk/protocol';
import { announcePresence, clientIdRequired, listenIn } from './connection-presence.js';
import type { JoinServices, Joiner } from './connection-ports.js';
import { checkLanguage, checkRoom } from './frame-handlers.js';
import { checkProtocolVersion } from './protocol-version.js';
import { framesForVersion } from './legacy-frames.js';
import { catchUpFor } from './resume.js';

/*
 * setUsername: the first one joins (protocol check, attach, replay or resume, READY, balance, buffered live
 * frames, JOIN); a repeated one only updates the language. It takes what it uses of the node (JoinServices)
 * and the connection as its join makes it (Joiner).
 */

export async function join(deps: JoinServices, joiner: Joiner, frame: SetUsernameFrame) {
  // joiner.log, not a destructured `log`: reading the getter makes the connection's child logger, which only
  // the rare paths below need (it was a few hundred bytes on every idle connection)
  if (frame.username !== joiner.user.username) {
    joiner.sendError('forbidden', 'You can only join as yourself: username does not match your login.');
    return;
  }
  if (!checkRoom(joiner, frame.room) || !checkLanguage(deps.languages, joiner, frame.language)) return;
  if (joiner.state === 'new') {
    const refusal = checkProtocolVersion(
      frame.protocolVersion,
      deps.minProtocolVersion ?? MIN_PROTOCOL_VERSION,
    );
    if (refusal) {
      const { protocolVersion } = frame;
      joiner.sampledLog.info('protocol', { protocolVersion }, 'refused a protocol version', joiner.user.id);
      joiner.sendError('bad_frame', refusal);
      return joiner.close(CloseCode.UnsupportedVersion, refusal);
    }
    joiner.protocolVersion = frame.protocolVersion ?? 1;
  }
  joiner.language = frame.language;
  if (joiner.state !== 'new') {
    // a repeated setUsername only updates the language
    if (joiner.state === 'joined') await listenIn(deps, joiner, frame.language);
    return;
  }
  joiner.state = 'joining';
  joiner.pending = [];
  joiner.attached = true;
  let catchUp: Awaited<ReturnType<typeof catchUpFor>>;
  try {
    // a joiner without a resume position reads the recent window: a room new to this node starts from it
    await deps.hub.attach(joiner.member, frame.resume ? {} : { window: deps.replayLimit });
    await deps.hub.attachUser(joiner.userMember);
    catchUp = await catchUpFor(deps, joiner.roomId, frame.resume);
  } catch (error) {
    // Half-joined is no state to stay in: the client reconnects (and resumes) once we can serve it.
    joiner.log.error({ err: error }, 'joining the room failed');
    joiner.sendError('unavailable', 'The room could not be loaded just now; reconnecting.');
    joiner.close(1011, 'Room unavailable; reconnecting.');
    return;
  }
  const position = { epoch: catchUp.position.epoch, offset: catchUp.position.offset };
  if (catchUp.resync)
    joiner.sendFrame({ type: 'system', message: 'RESYNC', timestamp: deps.clock.now(), ...position });
  if (catchUp.json) {
    // a message is the same frame in every protocol version; sendLogged leaves an older client's form to
    // legacy-frames.ts all the same (no offset: nothing here is filtered against lastOffset)
    for (const json of catchUp.json) joiner.sendLogged(json, undefined);
  } else {
    for (const replayed of catchUp.frames) {
      for (const frame of framesForVersion(replayed, joiner.protocolVersion)) joiner.sendFrame(frame);
    }
  }
  joiner.lastOffset = position.offset;
  if ((joiner.state as string) === 'closed') return;
  joiner.sendFrame({
    type: 'system',
    message: 'READY',
    timestamp: deps.clock.now(),
    roomId: joiner.roomId,
    protocolVersion: PROTOCOL_VERSION,
    ...position,
    // protocol 3: what a listener may pick to listen in, and how long a correction is possible
    languages: [...deps.languages],
    editWindowSeconds: deps.editWindowSeconds ?? 0,
    // protocol 7: older clients get no such field and chat as before
    ...(clientIdRequired(joiner.protocolVersion, deps.clientIdRequiredFrom)
      ? { clientIdRequired: true }
      : {}),
  });
  if (!(await flushAfterReady(deps, joiner))) return;
  await listenIn(deps, joiner, joiner.language);
  await announceJoin(deps, joiner);
}

/** The balance, then the live frames held back during the replay; false when the socket closed meanwhile. */
async function flushAfterReady(deps: JoinServices, joiner: Joiner): Promise<boolean> {
  const balance = await balanceAfterReady(deps, joiner);
  if (balance) joiner.sendFrame(balance);
  const buffered = joiner.pending;
  if (!buffered) return false; // the socket closed while the balance was read
  joiner.pending = undefined;
  joiner.state = 'joined';
  for (const { json, offset } of buffered) {
    // the balance read after READY is newer than any BALANCE that arrived before it
    if (balance && offset === undefined && isBalanceFrame(json)) continue;
    joiner.sendLogged(json, offset);
  }
  return true;
}

async function announceJoin(deps: JoinServices, joiner: Joiner) {
  // Presence only decides whether to announce JOIN: while its store is away the join still works.
  const first = await deps.presence.join(joiner.roomId, joiner.user.username, joiner.displayName).then(
    (isFirst) => {
      joiner.present = true;
      return isFirst;
    },
    (error: unknown) => {
      joiner.log.warn({ err: error }, 'presence unavailable; joined without announcing');
      return false;
    },
  );
  if (first && !(await backAfterRestart(deps, joiner))) await announcePresence(deps, joiner, 'JOIN');
  if (joiner.protocolVersion < MEMBER_COUNT_PROTOCOL_VERSION) return;
  // a hot room announces its count in steps: a joiner learns it now, not at the next step
  const count = await deps.announcer?.countFor(joiner.roomId);
  if (count) joiner.sendFrame(count);
}

/** Someone a restart sent away, back within the grace (decision 0161): nobody hears they joined. */
async function backAfterRestart(deps: JoinServices, joiner: Joiner): Promise<boolean> {
  const returners = deps.returners;
  if (!returners) return false;
  return returners.returning(joiner.roomId, joiner.user.username).catch((error: unknown) => {
    joiner.log.warn({ err: error }, 'returners unavailable; announcing the join');
    return false;
  });
}

async function balanceAfterReady(deps: JoinServices, joiner: Joiner): Promise<ServerFrame | undefined> {
  try {
    return await deps.balanceFrame?.(joiner.user);
  } catch (error) {
    // the balance is a convenience here; the room works without it
    joiner.log.warn({ err: error }, 'could not read the balance for READY');
    return undefined;
  }
}

function isBalanceFrame(json: Buffer): boolean {
  return json.subarray(0, 40).toString().startsWith('{"type":"system","message":"BALANCE"');
}
