import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  glossaryPutBodySchema,
  normalizeRoomCode,
  type GlossaryEntry,
  type GlossaryPutBody,
  type GlossaryResponse,
  type ServerFrame,
} from '@xtalk/protocol';
import type { Authenticator } from '../accounts/index.js';
import { HttpError, parseOr400 } from '../http-errors.js';
import type { GlossaryRepo } from './repo.js';

export interface GlossaryRouteDeps {
  repo: GlossaryRepo;
  authenticator: Authenticator;
  rooms: {
    roomExists(roomId: string): Promise<boolean>;
    isMember(userId: string, roomId: string): Promise<boolean>;
  };
  /** The languages every room translates into (LANGUAGES). */
  languages: readonly string[];
  /** To the room on every node (the bus). */
  broadcast(roomId: string, frame: ServerFrame): Promise<void>;
}

/** The checks of a list that its schema cannot make: the room's languages, one entry per term. */
function checkEntries(body: GlossaryPutBody, languages: readonly string[]): GlossaryEntry[] {
  const known = (language: string) => languages.includes(language);
  const seen = new Set<string>();
  return body.entries.map((entry, index) => {
    const where = `entries.${index}`;
    for (const language of [entry.language, ...Object.keys(entry.renderings)]) {
      if (!known(language))
        throw new HttpError(
          400,
          `${where}: language ${language} is not one of the room's languages (${languages.join(', ')}).`,
        );
    }
    const key = `${entry.language}:${entry.term.toLowerCase()}`;
    if (seen.has(key)) throw new HttpError(400, `${where}: the term "${entry.term}" is already in the list.`);
    seen.add(key);
    return { ...entry, id: entry.id ?? randomUUID() };
  });
}

/**
 * GET/PUT /api/rooms/:roomId/glossary: members read it, signed-in members replace it whole. A refused
 * request changes nothing; a change is announced to the room (glossaryUpdated) on every node.
 */
export async function glossaryRoutes(app: FastifyInstance, deps: GlossaryRouteDeps) {
  // the protocol's path with its parameter (ApiPath.glossary would escape the colon)
  const path = '/api/rooms/:roomId/glossary';

  async function memberOf(request: FastifyRequest) {
    const { user } = await deps.authenticator.fromRequest(request);
    const roomId = normalizeRoomCode((request.params as { roomId: string }).roomId);
    if (!(await deps.rooms.roomExists(roomId)))
      throw new HttpError(404, `Room ${roomId} does not exist.`, 'room_not_found');
    if (!(await deps.rooms.isMember(user.id, roomId)))
      throw new HttpError(403, `Only members of room ${roomId} can see its glossary.`);
    return { user, roomId };
  }

  app.get(path, async (request, reply): Promise<GlossaryResponse> => {
    const { roomId } = await memberOf(request);
    reply.header('cache-control', 'no-store');
    return deps.repo.read(roomId);
  });

  app.put(path, async (request): Promise<GlossaryResponse> => {
    const { user, roomId } = await memberOf(request);
    if (user.provider === 'guest')
      throw new HttpError(403, 'Sign in to edit the glossary; guests can read it.', 'login_required');
    const entries = checkEntries(parseOr400(glossaryPutBodySchema, request.body), deps.languages);
    const version = await deps.repo.replace(roomId, entries, user.id);
    request.log.info({ room: roomId, user: user.id, version, entries: entries.length }, 'glossary changed');
    await deps.broadcast(roomId, { type: 'glossaryUpdated', room: roomId, version });
    return { version, entries };
  });
}
