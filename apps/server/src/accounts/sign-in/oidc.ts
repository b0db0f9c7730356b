import { randomBytes } from 'node:crypto';
import type * as OpenId from 'openid-client';
import type { FastifyBaseLogger } from 'fastify';
import type { SignInStore } from '../sessions/sign-in-store.js';
import { hashSecret } from '../sessions/sign-in-store.js';
import { lazyModule } from '../../lazy-module.js';

/*
 * "Sign in with Google": an OpenID Connect authorisation-code flow with PKCE, state and nonce against
 * OIDC_ISSUER (Google by default, any OIDC provider works). Discovery is lazy and retried on the next
 * attempt when it fails, so the server starts and serves guests while the issuer is unreachable. What a
 * flow needs between the redirect and the callback lives in the database (any node may get the callback)
 * and is bound to the browser that started it by a cookie, so a callback URL handed to someone else is
 * worthless.
 */

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret?: string | undefined;
}

export interface OidcIdentity {
  issuer: string;
  subject: string;
  name?: string;
  email?: string;
}

/** A sign-in that cannot finish; the message is safe to show to the person. */
export class SignInError extends Error {}

export const FLOW_TTL_SECONDS = 600;
export const FLOW_COOKIE = 'xtalk_signin';

export interface Oidc {
  /** Starts a flow: stores its secrets and returns where to send the browser and the cookie value to set. */
  start(redirectUri: string): Promise<{ url: URL; browserSecret: string }>;
  /** Finishes a flow from the callback URL; throws SignInError for anything wrong. */
  finish(callbackUrl: URL, browserSecret: string | undefined): Promise<OidcIdentity>;
  /** Discovers the issuer in the background (start-up); failures are logged and retried on use. */
  warmUp(): void;
}

/** Loaded by the first sign-in (or the warm-up when sign-in is configured), not at start (decision 0116). */
const openId = lazyModule(() => import('openid-client'));

export function createOidc(settings: OidcSettings, store: SignInStore, logger: FastifyBaseLogger): Oidc {
  const issuerUrl = new URL(settings.issuer);
  // Plain http only for an issuer configured that way (a local provider in development and tests).
  const insecure = issuerUrl.protocol === 'http:';
  let discovered: Promise<OpenId.Configuration> | undefined;

  function configuration(): Promise<OpenId.Configuration> {
    discovered ??= openId()
      .then((client) =>
        client.discovery(
          issuerUrl,
          settings.clientId,
          settings.clientSecret,
          settings.clientSecret ? client.ClientSecretPost(settings.clientSecret) : client.None(),
          { timeout: 10, ...(insecure ? { execute: [client.allowInsecureRequests] } : {}) },
        ),
      )
      .catch((error: unknown) => {
        // forget the failure: the next sign-in tries again
        discovered = undefined;
        logger.warn({ err: error, issuer: settings.issuer }, 'OIDC discovery failed');
        throw new SignInError('Sign-in is unavailable right now (the identity provider cannot be reached).');
      });
    return discovered;
  }

  return {
    warmUp() {
      configuration().catch(() => undefined);
    },

    async start(redirectUri) {
      const config = await configuration();
      const client = await openId();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const browserSecret = randomBytes(24).toString('base64url');
      await store.saveFlow(
        { state, nonce, codeVerifier, redirectUri, browserHash: hashSecret(browserSecret) },
        FLOW_TTL_SECONDS,
      );
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid profile email',
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
        prompt: 'select_account',
      });
      return { url, browserSecret };
    },

    async finish(callbackUrl, browserSecret) {
      const params = callbackUrl.searchParams;
      const state = params.get('state');
      if (!state) throw new SignInError('The sign-in response has no state; please sign in again.');
      const flow = await store.takeFlow(state);
      if (!flow) throw new SignInError('This sign-in expired or was already used; please sign in again.');
      if (!browserSecret || hashSecret(browserSecret) !== flow.browserHash) {
        throw new SignInError('This sign-in was started in another browser; please sign in again here.');
      }
      const refusal = providerRefusal(params);
      if (refusal) throw refusal;
      const config = await configuration();
      const client = await openId();
      // The callback as the provider addressed it: the registered redirect URI plus the response.
      const current = new URL(flow.redirectUri);
      current.search = callbackUrl.search;
      let tokens: Awaited<ReturnType<typeof OpenId.authorizationCodeGrant>>;
      try {
        tokens = await client.authorizationCodeGrant(config, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
      } catch (failure) {
        logger.warn({ err: failure }, 'OIDC code exchange failed');
        throw new SignInError('The identity provider did not confirm the sign-in; please try again.');
      }
      return identityOf(tokens.claims());
    },
  };
}

/** The provider's own answer when it did not sign the person in: they cancelled, or it refused. */
function providerRefusal(params: URLSearchParams): SignInError | undefined {
  const error = params.get('error');
  if (!error) return undefined;
  return new SignInError(
    error === 'access_denied'
      ? 'Sign-in was cancelled.'
      : `The identity provider refused the sign-in: ${params.get('error_description') ?? error}`,
  );
}

/** Who signed in, from the ID token's claims: the subject always, a name and an email when given. */
function identityOf(claims: OpenId.IDToken | undefined): OidcIdentity {
  if (!claims?.sub) throw new SignInError('The identity provider did not say who signed in.');
  const name = typeof claims.name === 'string' ? claims.name : undefined;
  const email = typeof claims.email === 'string' ? claims.email : undefined;
  return {
    issuer: claims.iss,
    subject: claims.sub,
    ...(name ? { name } : {}),
    ...(email ? { email } : {}),
  };
}
