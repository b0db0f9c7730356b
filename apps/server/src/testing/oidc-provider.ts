import { OAuth2Server, type MutableToken } from 'oauth2-mock-server';

/*
 * A real OpenID provider for tests (oauth2-mock-server): discovery, authorisation endpoint with PKCE,
 * token endpoint and signed ID tokens, on 127.0.0.1. It signs everyone in at once; `nextIdentity` says who
 * the next sign-in is, and `tamper` lets a test spoil the next ID token.
 */

export interface TestIdentity {
  sub: string;
  name?: string;
  email?: string;
}

export interface TestOidcProvider {
  issuer: string;
  server: OAuth2Server;
  /** Who the next sign-ins are (until changed). */
  nextIdentity(identity: TestIdentity): void;
  /** Changes the payload of the next ID token only (expired, wrong nonce, wrong audience...). */
  tamperNextIdToken(change: (payload: Record<string, unknown>) => void): void;
  close(): Promise<void>;
}

export async function startOidcProvider(port = 0): Promise<TestOidcProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(port, '127.0.0.1');
  const issuer = `http://127.0.0.1:${server.address().port}`;
  server.issuer.url = issuer;
  let identity: TestIdentity = { sub: 'johndoe' };
  let tamper: ((payload: Record<string, unknown>) => void) | undefined;
  server.service.on('beforeTokenSigning', (token: MutableToken) => {
    token.payload.sub = identity.sub;
    // only the ID token has the client as its audience and carries profile claims
    if (token.payload.aud !== undefined) {
      if (identity.name) token.payload.name = identity.name;
      if (identity.email) token.payload.email = identity.email;
    }
  });
  // The ID token is built after the access token; the tamper hook waits for it.
  server.service.on('beforeTokenSigning', (token: MutableToken) => {
    if (tamper && token.payload.aud !== undefined) {
      const change = tamper;
      tamper = undefined;
      change(token.payload);
    }
  });
  return {
    issuer,
    server,
    nextIdentity(next) {
      identity = next;
    },
    tamperNextIdToken(change) {
      tamper = change;
    },
    close: () => server.stop(),
  };
}
