import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  deletePlayerBodySchema,
  deletePlayerResponseSchema,
  errorResponses,
  playerExportQuerySchema,
  playerIdSchema,
  type PlayerExportQuery,
} from '@xtalk/protocol';
import type { Clock } from '../../clock.js';
import { HttpError } from '../../http-errors.js';
import type { Db } from '../../store/index.js';
import type { Authenticated, Authenticator } from '../sessions/authenticate.js';
import { sameText } from '../sessions/same-text.js';
import type { PlayerDeletion } from './delete-player.js';
import { requireFreshSignIn } from './fresh-sign-in.js';
import { jsonExport, markdownExport, profileOf } from './player-export.js';
import type { PlayerRecords } from './player-records.js';

/*
 * A person's own data: DELETE /api/player deletes the caller's account (a fresh sign-in or the
 * password), GET /api/player/export streams a copy of it, and DELETE /api/player/:id lets an
 * administrator (X-Admin-Key) delete any player by the same rules. Guests hold no account: both are
 * refused to them (an idle guest is swept whole anyway). Who may call what: docs/security.md.
 */

export interface OwnDataDeps {
  db: Db;
  clock: Clock;
  authenticator: Authenticator;
  deletion: PlayerDeletion;
  records: PlayerRecords;
  adminKey: string | undefined;
}

/** The signed-in caller, who must hold an account. */
async function accountHolder(
  deps: OwnDataDeps,
  request: FastifyRequest,
  what: string,
): Promise<Authenticated> {
  const caller = await deps.authenticator.fromRequest(request);
  if (caller.user.provider === 'guest') {
    throw new HttpError(403, `Guests have no account ${what}; log in first.`, 'login_required');
  }
  return caller;
}

/** Markdown when asked by `?format=md` or an Accept header naming text/markdown, else JSON. */
function wantsMarkdown(request: FastifyRequest): boolean {
  const { format } = request.query as PlayerExportQuery;
  if (format) return format === 'md';
  return /\btext\/markdown\b/i.test(request.headers.accept ?? '');
}

async function sendExport(deps: OwnDataDeps, request: FastifyRequest, reply: FastifyReply) {
  const { user } = await accountHolder(deps, request, 'to export');
  const markdown = wantsMarkdown(request);
  const profile = await profileOf(deps.db, user.id);
  if (!profile) throw new HttpError(404, `No player ${user.id}.`);
  const now = new Date(deps.clock.now());
  const day = now.toISOString().slice(0, 10);
  const write = markdown ? markdownExport : jsonExport;
  reply
    .header('cache-control', 'no-store')
    .header('content-disposition', `attachment; filename="xtalk-export-${day}.${markdown ? 'md' : 'json'}"`)
    .type(markdown ? 'text/markdown; charset=utf-8' : 'application/json; charset=utf-8');
  return reply.send(Readable.from(write(deps.db, deps.records, profile, now)));
}

/** The administrator's key, checked before the id is read: a stranger learns nothing of the rules. */
function requireAdminKey(deps: OwnDataDeps, request: FastifyRequest): void {
  const given = request.headers['x-admin-key'];
  if (typeof given !== 'string' || given === '') {
    throw new HttpError(
      403,
      'Only an administrator deletes a player by id; delete your own at DELETE /api/player.',
    );
  }
  if (!deps.adminKey || !sameText(given, deps.adminKey))
    throw new HttpError(401, 'The admin key is not valid.');
}

export async function ownDataRoutes(app: FastifyInstance, deps: OwnDataDeps) {
  const api = app.withTypeProvider<ZodTypeProvider>();
  const deleted = { 200: deletePlayerResponseSchema };
  api.delete(
    ApiPath.player,
    {
      config: { limit: 'signIn' },
      // the caller is known before the body is read
      preValidation: async (request) => void (await accountHolder(deps, request, 'to delete')),
      schema: {
        tags: [ApiTag.players],
        summary: "Delete the caller's own account (a fresh sign-in, or the password)",
        security: ApiSecurity.bearer,
        body: deletePlayerBodySchema,
        response: { ...deleted, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { claims, user } = await accountHolder(deps, request, 'to delete');
      await requireFreshSignIn(deps.db, deps.clock, claims, request.body.password);
      const { unspentPaidCredits } = await deps.deletion.delete(user.id);
      request.log.info('a player deleted their account');
      return { deleted: true as const, unspentPaidCredits };
    },
  );

  api.delete(
    `${ApiPath.player}/:id`,
    {
      config: { limit: 'signIn' },
      preValidation: async (request) => requireAdminKey(deps, request),
      schema: {
        tags: [ApiTag.players],
        summary: 'Delete any player by id (an administrator), by the same rules',
        security: ApiSecurity.adminKey,
        params: z.object({ id: playerIdSchema }),
        response: { ...deleted, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { unspentPaidCredits } = await deps.deletion.delete(request.params.id);
      request.log.info('an administrator deleted a player');
      return { deleted: true as const, unspentPaidCredits };
    },
  );

  api.get(
    ApiPath.playerExport,
    {
      config: { limit: 'export' },
      preValidation: async (request) => void (await accountHolder(deps, request, 'to export')),
      schema: {
        tags: [ApiTag.players],
        summary: "Download the caller's own data: JSON, or Markdown with ?format=md",
        security: ApiSecurity.bearer,
        querystring: playerExportQuerySchema,
        response: {
          // streamed as it is read, never serialised whole: the schema only documents it
          200: z.unknown().describe('The export: application/json, or text/markdown with ?format=md.'),
          ...errorResponses(400, 401, 403, 404),
        },
      },
    },
    (request, reply) => sendExport(deps, request, reply),
  );
}
