import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { importSPKI, jwtVerify } from 'jose';

/*
 * A stand-in for Google, started inside a test: the OAuth 2.0 token endpoint of a service account (the
 * JWT-bearer grant, RS256 assertion checked against the account's public key) and the Play Developer
 * API's purchases.products.get, answering its real shapes (ProductPurchase, or Google's error body).
 */

export interface FakePlayPurchase {
  packageName: string;
  productId: string;
  /** 0 purchased, 1 canceled, 2 pending (as Google). */
  purchaseState: 0 | 1 | 2;
  quantity?: number;
  obfuscatedExternalAccountId?: string;
}

export interface FakeGooglePlay {
  apiUrl: string;
  /** The service-account key file pointing at this server's token endpoint. */
  serviceAccount: Record<string, string>;
  purchases: Map<string, FakePlayPurchase>;
  /** Every request, as `METHOD path`. */
  requests: string[];
  close(): Promise<void>;
}

const SCOPE = 'https://www.googleapis.com/auth/androidpublisher';
const PURCHASE_PATH =
  /^\/androidpublisher\/v3\/applications\/([^/]+)\/purchases\/products\/([^/]+)\/tokens\/([^/?]+)$/;

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => resolve(body));
    request.on('error', reject);
  });
}

const googleError = (code: number, status: string, message: string, reason: string) => ({
  error: { code, message, status, errors: [{ message, domain: 'global', reason }] },
});

export async function startFakeGooglePlay(): Promise<FakeGooglePlay> {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  const verifyKey = await importSPKI(publicKey, 'RS256');
  const clientEmail = 'xtalk-verifier@xtalk-test.iam.gserviceaccount.com';
  const accessTokens = new Set<string>();
  const purchases = new Map<string, FakePlayPurchase>();
  const requests: string[] = [];

  const server: Server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    requests.push(`${request.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json; charset=UTF-8' });
      response.end(JSON.stringify(body));
    };
    void (async () => {
      if (request.method === 'POST' && url.pathname === '/token') {
        const form = new URLSearchParams(await readBody(request));
        if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') {
          return send(400, { error: 'unsupported_grant_type' });
        }
        try {
          const { payload } = await jwtVerify(form.get('assertion') ?? '', verifyKey, {
            issuer: clientEmail,
          });
          if (payload.scope !== SCOPE) return send(400, { error: 'invalid_scope' });
        } catch {
          return send(400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
        }
        const token = `ya29.${randomUUID()}`;
        accessTokens.add(token);
        return send(200, { access_token: token, expires_in: 3599, token_type: 'Bearer' });
      }
      const match = request.method === 'GET' ? PURCHASE_PATH.exec(url.pathname) : null;
      if (!match) return send(404, googleError(404, 'NOT_FOUND', 'Not Found', 'notFound'));
      const bearer = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
      if (!accessTokens.has(bearer)) {
        return send(
          401,
          googleError(401, 'UNAUTHENTICATED', 'Request had invalid authentication credentials.', 'authError'),
        );
      }
      const [packageName, productId, token] = match.slice(1).map(decodeURIComponent) as [
        string,
        string,
        string,
      ];
      const purchase = purchases.get(token);
      if (!purchase || purchase.packageName !== packageName || purchase.productId !== productId) {
        return send(400, googleError(400, 'INVALID_ARGUMENT', 'Invalid Value', 'invalid'));
      }
      return send(200, {
        kind: 'androidpublisher#productPurchase',
        purchaseTimeMillis: '1763856000000',
        purchaseState: purchase.purchaseState,
        consumptionState: 0,
        developerPayload: '',
        orderId: `GPA.3301-${token.slice(0, 4)}-0000`,
        purchaseType: 0,
        acknowledgementState: 0,
        productId: purchase.productId,
        quantity: purchase.quantity ?? 1,
        regionCode: 'JP',
        ...(purchase.obfuscatedExternalAccountId
          ? { obfuscatedExternalAccountId: purchase.obfuscatedExternalAccountId }
          : {}),
      });
    })().catch((error: unknown) => send(500, { error: String(error) }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  return {
    apiUrl: `${base}/`,
    serviceAccount: {
      type: 'service_account',
      project_id: 'xtalk-test',
      private_key_id: 'test-key-1',
      private_key: privateKey,
      client_email: clientEmail,
      client_id: '100000000000000000001',
      token_uri: `${base}/token`,
    },
    purchases,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
