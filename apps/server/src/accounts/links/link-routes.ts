import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  ApiSecurity,
  ApiTag,
  PlayerPath,
  errorResponses,
  linkBodySchema,
  mailSentResponseSchema,
  playerLinksResponseSchema,
  type LinkBody,
  type PlayerLinksResponse,
} from '@xtalk/protocol';
import { z } from 'zod';
import type { Authenticator } from '../sessions/authenticate.js';
import { MAIL_SENT_MESSAGE, type EmailAccounts } from '../sign-in/email/email-accounts.js';
import type { IdentityProofs, ProvenIdentity } from '../sign-in/identity-proofs.js';
import { LastSignInError, LinkConflictError, type PlayerLinks } from './player-links.js';
import { proveStoreAccount, type StoreLinkProofDeps } from './store-link-proof.js';
import type { SignInStore } from '../sessions/sign-in-store.js';
import type { SignInSessions } from '../sessions/sign-in-sessions.js';
import { HttpError } from '../../http-errors.js';

/*
 * One player, several sign-ins (link/unlink, store link): list, link and unlink the
 * identities of the bearer's own player. The last sign-in cannot be unlinked.
 */
type LinkRouteDeps = {
  authenticator: Authenticator;
  links: PlayerLinks;
  proofs: IdentityProofs;
  emails: EmailAccounts;
  store: SignInStore;
  /** An unlinked sign-in ends every other session of the player. */
  sessions: Pick<SignInSessions, 'endOthers'>;
  publicUrl: string;
  storeProof: StoreLinkProofDeps;
};

/** What a link body proves: an identity to link, a mail sent first, or a sign-in already folded in. */
async function prove(
  deps: LinkRouteDeps,
  request: FastifyRequest,
  body: z.output<typeof linkBodySchema>,
  userId: string,
): Promise<ProvenIdentity | 'mail' | 'done'> {
  switch (body.provider) {
    case 'email': {
      const requester = (await deps.authenticator.fromRequest(request)).user;
      await deps.emails.register(body.email, body.password, request.ip, deps.publicUrl, requester);
      return 'mail';
    }
    case 'evm':
      return deps.proofs.wallet(body);
    case 'tgw':
      return deps.proofs.telegramWidget(body.data);
    case 'tga':
      return deps.proofs.telegramMiniApp(body.signedPayload, body.data);
    case 'store':
      await proveStoreAccount(deps.storeProof, request, body);
      return { identity: { provider: 'store', issuer: body.store, subject: body.accountId } };
    case 'ggl': {
      // the OIDC redirect made (or found) a player for that identity; an untouched one is folded in here
      const owner = await deps.store.redeemCode(body.code);
      if (!owner)
        throw new HttpError(400, 'This sign-in code is invalid, expired or already used.', 'invalid_link');
      if (owner === userId) return 'done';
      if (!(await deps.links.isUntouched(owner))) {
        throw new HttpError(409, 'This sign-in belongs to another player.');
      }
      await deps.links.absorb(owner, userId);
      return 'done';
    }
  }
}

export async function linkRoutes(app: FastifyInstance, deps: LinkRouteDeps) {
  const list = async (userId: string): Promise<PlayerLinksResponse> => ({
    links: await deps.links.list(userId),
  });

  const api = app.withTypeProvider<ZodTypeProvider>();
  const about = { tags: [ApiTag.accounts], security: ApiSecurity.bearer };
  const { signedInFirst } = deps.authenticator;
  const links = {
    summary: "The sign-ins of the bearer's player",
    response: { 200: playerLinksResponseSchema, ...errorResponses(401) },
  };
  api.get(PlayerPath.links, { schema: { ...about, ...links } }, async (request, reply) => {
    const { user } = await deps.authenticator.fromRequest(request);
    reply.header('cache-control', 'no-store');
    return list(user.id);
  });

  const link = {
    summary: "Link another sign-in to the bearer's player (an email one is mailed a link first)",
    body: linkBodySchema,
    response: {
      200: playerLinksResponseSchema,
      202: mailSentResponseSchema,
      ...errorResponses(400, 401, 403, 409),
    },
  };
  // a guest may not link a store account, whatever else the body says
  const storeNeedsMember = {
    preValidation: async (request: FastifyRequest) => {
      const { user } = await deps.authenticator.fromRequest(request);
      const provider = (request.body as Partial<LinkBody> | undefined)?.provider;
      if (provider === 'store' && user.provider === 'guest') {
        throw new HttpError(403, 'Login to link a store account.');
      }
    },
  };
  api.post(
    PlayerPath.link,
    { ...storeNeedsMember, schema: { ...about, ...link } },
    async (request, reply) => {
      const { user } = await deps.authenticator.fromRequest(request);
      const { body } = request;
      const proven = await prove(deps, request, body, user.id);
      if (proven === 'mail') return reply.code(202).send({ ok: true, message: MAIL_SENT_MESSAGE });
      if (proven !== 'done') {
        try {
          await deps.links.link(user.id, proven.identity);
        } catch (error) {
          if (error instanceof LinkConflictError) throw new HttpError(409, error.message);
          throw error;
        }
      }
      request.log.info({ user: user.id, provider: body.provider }, 'sign-in linked');
      return list(user.id);
    },
  );

  const unlink = {
    summary: "Unlink one of the bearer's sign-ins (not the last); its other sessions end",
    params: z.object({ provider: z.string().min(1).max(20), subject: z.string().min(1).max(500) }),
    response: { 200: playerLinksResponseSchema, ...errorResponses(400, 401, 404, 409) },
  };
  const unlinkPath = '/api/player/link/:provider/:subject';
  api.delete(unlinkPath, { ...signedInFirst, schema: { ...about, ...unlink } }, async (request) => {
    const { user, claims } = await deps.authenticator.fromRequest(request);
    const { provider, subject } = request.params;
    try {
      if (!(await deps.links.unlink(user.id, provider, subject))) {
        throw new HttpError(404, 'Your player holds no such sign-in.');
      }
    } catch (error) {
      if (error instanceof LastSignInError) throw new HttpError(409, error.message);
      throw error;
    }
    // whoever signed in with what was unlinked is signed out; the caller goes on
    await deps.sessions.endOthers(claims);
    request.log.info({ user: user.id, provider }, 'sign-in unlinked; the other sessions ended');
    return list(user.id);
  });
}
