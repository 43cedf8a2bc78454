// A local OAuth 2 / OpenID provider for the provider-login tests: oauth2-mock-server's authorize, token
// and JWKS endpoints, plus the provider APIs a profile is read from (GitHub's /user, Keycloak's
// userinfo…) answering what each test puts there, and recording the bearer token each request carried.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OAuth2Issuer, OAuth2Service, type MutableToken } from 'oauth2-mock-server';

export interface ApiAnswer {
  readonly status?: number;
  readonly body: unknown;
}

export interface OAuthProvider {
  readonly url: string;
  /** where the provider APIs live: `${url}/api` */
  readonly apiUrl: string;
  readonly issuer: OAuth2Issuer;
  /** what GET `${apiUrl}${path}` answers (path with its query) */
  answer(path: string, a: ApiAnswer): void;
  /** claims added to every token the provider signs (id tokens included) */
  claims: Record<string, unknown>;
  /** the Authorization headers the API saw, by path */
  readonly seen: Map<string, string[]>;
  /** the token endpoint's form bodies */
  readonly tokenRequests: URLSearchParams[];
  close(): Promise<void>;
}

export async function startOAuthProvider(): Promise<OAuthProvider> {
  const issuer = new OAuth2Issuer();
  await issuer.keys.generate('RS256');
  const service = new OAuth2Service(issuer);
  const answers = new Map<string, ApiAnswer>();
  const seen = new Map<string, string[]>();
  const tokenRequests: URLSearchParams[] = [];
  const provider = { claims: {} as Record<string, unknown> };
  service.on('beforeTokenSigning', (token: MutableToken) => Object.assign(token.payload, provider.claims));

  const api = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url!.slice('/api'.length);
    seen.set(path, [...(seen.get(path) ?? []), req.headers.authorization ?? '']);
    const a = answers.get(path) ?? { status: 404, body: { message: `nothing at ${path}` } };
    res.writeHead(a.status ?? 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(a.body));
  };
  const handler = service.requestHandler as unknown as (req: IncomingMessage, res: ServerResponse) => void;
  const server: Server = createServer((req, res) => {
    if (req.url!.startsWith('/api/')) return api(req, res);
    if (req.method === 'POST' && req.url === '/token') {
      // a copy of the form body for the tests, the stream left intact for the provider
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => tokenRequests.push(new URLSearchParams(Buffer.concat(chunks).toString())));
    }
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  issuer.url = url;
  return Object.assign(provider, {
    url,
    apiUrl: `${url}/api`,
    issuer,
    seen,
    tokenRequests,
    answer: (path: string, a: ApiAnswer) => void answers.set(path, a),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
