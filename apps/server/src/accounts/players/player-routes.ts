import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiPath,
  ApiSecurity,
  ApiTag,
  checkFullName,
  errorResponses,
  loadByGctIdBodySchema,
  loadByPlatformIdBodySchema,
  playerIdSchema,
  playerSchema,
  playersResponseSchema,
  putPlayerBodySchema,
  putPlayerDataBodySchema,
  type Player,
  type PlayerLink,
} from '@xtalk/protocol';
import { z } from 'zod';
import type { Authenticator } from '../sessions/authenticate.js';
import type { PlayerLinks } from '../links/player-links.js';
import { sameText } from '../sessions/same-text.js';
import { APP_ID, PLATFORM, type UserRow, type UsersRepo } from '../users/users-repo.js';
import { HttpError } from '../../http-errors.js';

/*
 * The player service: the same profiles as PATCH /users, as players (id, name, data).
 * Bearer-authenticated; each user reads and writes only their own player. The admin key (ADMIN_API_KEY,
 * header X-Admin-Key) reads and writes any. Guests may read theirs but not change it
 * (a guest edits no profile, docs/product.md#people).
 */

const MAX_DATA_BYTES = 16 * 1024;

/** a***@example.com: enough for an admin to tell accounts apart, not enough to mail the person. */
function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  return at > 0 ? `${email[0]}***${email.slice(at)}` : '***';
}

type Caller = { admin: true } | { admin: false; user: UserRow };

/** Who asks: an admin by the admin key, or a signed-in user by their token. */
async function callerOf(
  request: FastifyRequest,
  deps: { authenticator: Authenticator; adminKey: string | undefined },
): Promise<Caller> {
  const given = request.headers['x-admin-key'];
  if (typeof given === 'string' && given !== '') {
    if (deps.adminKey && sameText(given, deps.adminKey)) {
      return { admin: true };
    }
    throw new HttpError(401, 'The admin key is not valid.');
  }
  const { user } = await deps.authenticator.fromRequest(request);
  return { admin: false, user };
}

/** A user reads only their own player, and a guest changes nothing. */
function mayAccess(who: Caller, playerId: string, write: boolean): void {
  if (who.admin) return;
  if (who.user.id !== playerId) throw new HttpError(403, 'You can only access your own player.');
  if (write && who.user.provider === 'guest') {
    throw new HttpError(403, 'Login to customize your username and profile.', 'login_required');
  }
}

type PlayerRouteDeps = {
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
  adminKey: string | undefined;
};

/** Players as a caller sees them. */
function playerViews(deps: PlayerRouteDeps) {
  /** Every sign-in of the player; an email is shown in full only to its own player. */
  async function linksOf(row: UserRow, who: Caller): Promise<PlayerLink[]> {
    const own = !who.admin && who.user.id === row.id;
    return (await deps.links.list(row.id)).map((link) =>
      link.provider === 'email' && !own ? { ...link, subject: maskEmail(link.subject) } : link,
    );
  }

  async function players(rows: UserRow[], who: Caller): Promise<Player[]> {
    const data = await deps.users.playerData(rows.map((row) => row.id));
    const links = await Promise.all(rows.map((row) => linksOf(row, who)));
    return rows.map((row, index) => ({
      id: row.id,
      name: row.name,
      username: row.username,
      provider: row.provider,
      platform: PLATFORM,
      appId: APP_ID,
      platformPlayerID: row.subject,
      data: { ...data.get(row.id), name: row.name },
      links: links[index]!,
    }));
  }

  async function onePlayer(id: string, who: Caller): Promise<Player> {
    const row = await deps.users.findById(id);
    if (!row) throw new HttpError(404, `No player ${id}.`);
    return (await players([row], who))[0]!;
  }

  return { players, onePlayer };
}

export async function playerRoutes(app: FastifyInstance, deps: PlayerRouteDeps) {
  const { players, onePlayer } = playerViews(deps);
  const api = app.withTypeProvider<ZodTypeProvider>();
  // the caller is known before the body is read: a stranger learns nothing of its rules
  const callers = new WeakMap<FastifyRequest, Caller>();
  const callerFirst = {
    preValidation: async (request: FastifyRequest) => {
      callers.set(request, await callerOf(request, deps));
    },
  };
  const callerOfRequest = (request: FastifyRequest) => callers.get(request)!;
  const about = { tags: [ApiTag.players], security: ApiSecurity.bearerOrAdminKey };
  const idParams = z.object({ id: playerIdSchema });
  const answer = { 200: playerSchema, ...errorResponses(400, 401, 403, 404) };

  const rename = { summary: 'Rename a player', body: putPlayerBodySchema, response: answer };
  api.put(ApiPath.player, { ...callerFirst, schema: { ...about, ...rename } }, async (request) => {
    const who = callerOfRequest(request);
    const { body } = request;
    mayAccess(who, body.id, true);
    const name = checkFullName(body.name);
    if (!name.ok) throw new HttpError(400, name.message);
    await onePlayer(body.id, who);
    await deps.users.setName(body.id, name.value);
    return onePlayer(body.id, who);
  });

  const read = { summary: 'Read a player', params: idParams, response: answer };
  api.get(`${ApiPath.player}/:id`, { ...callerFirst, schema: { ...about, ...read } }, async (request) => {
    const who = callerOfRequest(request);
    const { id } = request.params;
    mayAccess(who, id, false);
    return onePlayer(id, who);
  });

  const write = {
    summary: "Replace a player's free-form data",
    params: idParams,
    body: putPlayerDataBodySchema,
    response: { ...answer, ...errorResponses(413) },
  };
  api.put(
    `${ApiPath.player}/:id/data`,
    { ...callerFirst, schema: { ...about, ...write } },
    async (request) => {
      const who = callerOfRequest(request);
      const { id } = request.params;
      mayAccess(who, id, true);
      // `name` lives in the profile; data carries it on the way out, not in storage
      const { name: _ignored, ...rest } = request.body.data;
      if (Buffer.byteLength(JSON.stringify(rest)) > MAX_DATA_BYTES) {
        throw new HttpError(413, `Player data is limited to ${MAX_DATA_BYTES} bytes.`);
      }
      await onePlayer(id, who);
      await deps.users.setPlayerData(id, rest);
      return onePlayer(id, who);
    },
  );

  const many = { 200: playersResponseSchema, ...errorResponses(400, 401, 403) };
  const byPlatform = {
    summary: 'Players by their platform ids',
    body: loadByPlatformIdBodySchema,
    response: many,
  };
  api.post(
    ApiPath.playersByPlatformId,
    { ...callerFirst, schema: { ...about, ...byPlatform } },
    async (request) => {
      const who = callerOfRequest(request);
      const { body } = request;
      if (body.appID !== undefined && body.appID !== APP_ID) return { players: [] };
      if (body.platform !== undefined && body.platform !== PLATFORM) return { players: [] };
      if (!who.admin && body.platformPlayerIds.some((id) => id !== who.user.subject)) {
        throw new HttpError(403, 'You can only access your own player.');
      }
      return { players: await players(await deps.users.findBySubjects(body.platformPlayerIds), who) };
    },
  );

  const byId = { summary: 'Players by their ids', body: loadByGctIdBodySchema, response: many };
  api.post(ApiPath.playersByGctId, { ...callerFirst, schema: { ...about, ...byId } }, async (request) => {
    const who = callerOfRequest(request);
    const { body } = request;
    if (!who.admin && body.gctIDs.some((id) => id !== who.user.id)) {
      throw new HttpError(403, 'You can only access your own player.');
    }
    return { players: await players(await deps.users.findByIds(body.gctIDs), who) };
  });
}
