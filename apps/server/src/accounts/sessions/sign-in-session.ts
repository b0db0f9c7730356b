import type { FastifyRequest } from 'fastify';
import type { SignInResponse } from '@xtalk/protocol';
import { HttpError } from '../../http-errors.js';
import type { Authenticated, Authenticator } from './authenticate.js';
import { LinkConflictError, type Identity, type PlayerLinks } from '../links/player-links.js';
import type { Tokens } from './tokens.js';
import { toUser, type UserRow, type UsersRepo } from '../users/users-repo.js';

/*
 * What every sign-in ends with: a session token for the player. A guest who signs in from the room sends
 * their guest token along (Authorization), and keeps their player: the guest identity, room history and
 * username move into the account (docs/decisions/0050-linked-sign-ins.md).
 */

export interface SessionDeps {
  tokens: Tokens;
  users: UsersRepo;
  links: PlayerLinks;
  authenticator: Authenticator;
}

export function createSessions(deps: SessionDeps) {
  /** The request's bearer token checked with its player, if it carries a valid one; never throws. */
  async function callerSession(request: FastifyRequest): Promise<Authenticated | undefined> {
    if (!request.headers.authorization) return undefined;
    try {
      return await deps.authenticator.fromRequest(request);
    } catch {
      return undefined;
    }
  }
  /** The player of the request's bearer token, if it carries a valid one; never throws for a bad one. */
  const caller = async (request: FastifyRequest): Promise<UserRow | undefined> =>
    (await callerSession(request))?.user;

  async function issue(user: UserRow): Promise<SignInResponse> {
    const { token, expiresAt } = await deps.tokens.sign({
      userId: user.id,
      provider: user.provider,
      platformPlayerId: user.subject,
    });
    return { token, user: toUser(user, { expiresAt }) };
  }

  async function reload(id: string): Promise<UserRow> {
    const user = await deps.users.findById(id);
    if (!user) throw new HttpError(401, 'The player of this sign-in no longer exists.');
    return user;
  }

  return {
    caller,
    callerSession,
    userById: (id: string) => deps.users.findById(id),

    /** Signs in as `user`; a guest caller is absorbed into it first. */
    async signIn(request: FastifyRequest, user: UserRow): Promise<SignInResponse> {
      const guest = await caller(request);
      if (guest?.provider === 'guest' && guest.id !== user.id) {
        await deps.links.absorb(guest.id, user.id);
        request.log.info({ user: user.id, guestId: guest.id }, 'guest carried into the account');
      }
      return issue(await reload(user.id));
    },

    /**
     * Signs in with an identity proven by this request (a wallet, Telegram). A signed-in caller links it
     * instead; a guest caller keeps their player (the identity is linked into it, or, when an account
     * already holds it, the guest is carried into that account).
     */
    async signInOrLink(
      request: FastifyRequest,
      identity: Identity,
      profile: { name?: string } = {},
    ): Promise<SignInResponse> {
      const current = await caller(request);
      const holder = await deps.links.findUser(identity);
      if (current && (current.provider !== 'guest' || !holder)) {
        try {
          await deps.links.link(current.id, identity);
        } catch (error) {
          if (error instanceof LinkConflictError) throw new HttpError(409, error.message);
          throw error;
        }
        return issue(await reload(current.id));
      }
      const user = holder ?? (await deps.links.findOrCreate(identity, profile));
      if (current) await deps.links.absorb(current.id, user.id);
      return issue(await reload(user.id));
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;
