import { randomUUID } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  errorResponses,
  glossaryPutBodySchema,
  glossaryResponseSchema,
  normalizeRoomCode,
  type GlossaryEntry,
  type GlossaryPutBody,
  type ServerFrame,
} from '@xtalk/protocol';
import { z } from 'zod';
import type { Authenticator } from '../accounts/index.js';
import { HttpError } from '../http-errors.js';
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

  const api = app.withTypeProvider<ZodTypeProvider>();
  const about = {
    tags: [ApiTag.glossary],
    security: ApiSecurity.bearer,
    params: z.object({ roomId: z.string().min(1).max(100) }),
  };
  const read = {
    summary: "A room's glossary, for its members",
    response: { 200: glossaryResponseSchema, ...errorResponses(400, 401, 403, 404) },
  };
  api.get(path, { schema: { ...about, ...read } }, async (request, reply) => {
    const { roomId } = await memberOf(request);
    reply.header('cache-control', 'no-store');
    return deps.repo.read(roomId);
  });

  const replace = {
    summary: "Replace a room's glossary whole (signed-in members)",
    body: glossaryPutBodySchema,
    response: { 200: glossaryResponseSchema, ...errorResponses(400, 401, 403, 404) },
  };
  // who asks and for which room comes before the body: a stranger or a guest learns nothing of its rules
  const editors = new WeakMap<FastifyRequest, Awaited<ReturnType<typeof memberOf>>>();
  async function editorFirst(request: FastifyRequest): Promise<void> {
    const member = await memberOf(request);
    if (member.user.provider === 'guest')
      throw new HttpError(403, 'Sign in to edit the glossary; guests can read it.', 'login_required');
    editors.set(request, member);
  }
  api.put(path, { preValidation: editorFirst, schema: { ...about, ...replace } }, async (request) => {
    const { user, roomId } = editors.get(request)!;
    const entries = checkEntries(request.body, deps.languages);
    const version = await deps.repo.replace(roomId, entries, user.id);
    request.log.info({ room: roomId, user: user.id, version, entries: entries.length }, 'glossary changed');
    await deps.broadcast(roomId, { type: 'glossaryUpdated', room: roomId, version });
    return { version, entries };
  });
}
