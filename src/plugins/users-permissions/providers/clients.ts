// The OAuth 2 client of each provider, from arctic: its endpoints, how it sends the client secret and
// whether it takes PKCE are arctic's knowledge. All of them behind one small interface, so the routes
// never ask which provider they are talking to.
import { CodeChallengeMethod, OAuth2Client, type OAuth2Tokens } from 'arctic';
import type { ProviderSettings } from './settings.js';

export interface OAuthFlow {
  /** the provider's login page for this flow */
  authorizationURL(state: string, codeVerifier: string): URL;
  /** trades the code the provider sent back for tokens */
  exchange(code: string, codeVerifier: string): Promise<OAuth2Tokens>;
}

export interface PlainClient {
  createAuthorizationURL(state: string, scopes: string[]): URL;
  validateAuthorizationCode(code: string): Promise<OAuth2Tokens>;
}

export interface PkceClient {
  createAuthorizationURL(state: string, codeVerifier: string, scopes: string[]): URL;
  validateAuthorizationCode(code: string, codeVerifier: string): Promise<OAuth2Tokens>;
}

export const plain = (c: PlainClient, s: ProviderSettings): OAuthFlow => ({
  authorizationURL: (state) => c.createAuthorizationURL(state, [...s.scope]),
  exchange: (code) => c.validateAuthorizationCode(code),
});

export const pkce = (c: PkceClient, s: ProviderSettings): OAuthFlow => ({
  authorizationURL: (state, verifier) => c.createAuthorizationURL(state, verifier, [...s.scope]),
  exchange: (code, verifier) => c.validateAuthorizationCode(code, verifier),
});

/** any standard provider at given endpoints: the secret as HTTP Basic credentials, with PKCE when asked */
export function endpointClient(s: ProviderSettings, redirectURI: string, authorizeUrl: string, accessUrl: string, withPkce: boolean): OAuthFlow {
  const c = new OAuth2Client(s.key, s.secret, redirectURI);
  return {
    authorizationURL: (state, verifier) =>
      withPkce
        ? c.createAuthorizationURLWithPKCE(authorizeUrl, state, CodeChallengeMethod.S256, verifier, [...s.scope])
        : c.createAuthorizationURL(authorizeUrl, state, [...s.scope]),
    exchange: (code, verifier) => c.validateAuthorizationCode(accessUrl, code, withPkce ? verifier : null),
  };
}

export type ClientFactory = (s: ProviderSettings, redirectURI: string) => OAuthFlow;

/** the client of a provider: its own, or a standard one at the endpoints the settings name */
export function clientOf(s: ProviderSettings, redirectURI: string): OAuthFlow {
  if (s.authorizeUrl !== undefined && s.accessUrl !== undefined) return endpointClient(s, redirectURI, s.authorizeUrl, s.accessUrl, true);
  return s.def.client(s, redirectURI);
}
