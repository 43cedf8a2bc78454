// Third-party login end to end (behaviour.md §10.8) against a local OAuth 2 / OpenID provider: the
// browser's three hops, the front end's login call, the accounts it makes or finds, and every refusal.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OAuth2Issuer } from 'oauth2-mock-server';
import { startOAuthProvider, type OAuthProvider } from '../support/oauth-provider.js';
import type { Response, TestApp } from '../support/app.js';
import { PUBLIC_URL, errorOf, expectError, expectNoSecrets, expectPublicUser, register, startAuthApp, type AuthEnv } from './auth-support.js';

const FRONT = 'http://front.test/connect/github/redirect';
const DISABLED = errorOf(400, 'ApplicationError', 'This provider is disabled');
const NO_SESSION = errorOf(400, 'ApplicationError', 'OAuth authentication requires a completed provider session');

let p: OAuthProvider;
let env: AuthEnv;
let t: TestApp;

function providersConfig(p: OAuthProvider): Record<string, unknown> {
  const endpoints = { authorize_url: `${p.url}/authorize`, access_url: `${p.url}/token` };
  return {
    github: { enabled: true, key: 'gh-client', secret: 'gh-secret', callback: FRONT, ...endpoints, api_url: `${p.apiUrl}/github` },
    keycloak: { enabled: true, key: 'kc-client', secret: 'kc-secret', subdomain: 'sso.test/realms/main', ...endpoints, api_url: `${p.apiUrl}/keycloak` },
    cognito: { enabled: true, key: 'cg-client', secret: 'cg-secret', subdomain: 'pool.test', jwksurl: `${p.apiUrl}/cognito/jwks`, ...endpoints },
    // a provider whose token endpoint refuses every code
    discord: { enabled: true, key: 'dc', secret: 'dc-secret', authorize_url: `${p.url}/authorize`, access_url: `${p.apiUrl}/failing-token` },
    facebook: { enabled: false, key: 'fb', secret: 'fb' },
  };
}

beforeAll(async () => {
  p = await startOAuthProvider();
  env = await startAuthApp({ plugin: { providers: providersConfig(p) } });
  t = env.t;
});

afterAll(async () => {
  await env?.close();
  await p?.close();
});

/** a browser's cookie jar for one login: the signed flow cookie Folio sets */
interface Browser {
  cookie: string;
}

async function raw(url: string, cookie = ''): Promise<globalThis.Response> {
  return fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
}

/** Folio's own URL for a redirect that names its public URL (the tests' server listens elsewhere) */
const local = (location: string): string => t.url + location.slice(PUBLIC_URL.length);

async function connect(provider: string, query = ''): Promise<{ res: globalThis.Response; browser: Browser }> {
  const res = await raw(`${t.url}/api/connect/${provider}${query}`);
  const set = res.headers.getSetCookie().find((c) => c.startsWith('folio_oauth='));
  return { res, browser: { cookie: set ? set.split(';')[0]! : '' } };
}

/** Through the provider and back to Folio's callback: the final redirect Folio answers with. */
async function signIn(provider: string, query = ''): Promise<{ location: string; browser: Browser }> {
  const { res, browser } = await connect(provider, query);
  expect(res.status).toBe(302);
  const atProvider = await raw(res.headers.get('location')!);
  expect(atProvider.status).toBe(302);
  const back = await raw(local(atProvider.headers.get('location')!), browser.cookie);
  expect(back.status).toBe(302);
  return { location: back.headers.get('location')!, browser };
}

function login(provider: string, browser: Browser): Promise<Response> {
  return t.request('GET', `/api/auth/${provider}/callback`, { token: null, headers: browser.cookie ? { cookie: browser.cookie } : {} });
}

function githubUser(login: string, email: string | null, emails: { email: string; primary: boolean; verified: boolean }[]): void {
  p.answer('/github/user', { body: { login, id: 1, email } });
  p.answer('/github/user/emails', { body: emails });
}

describe('GET /api/connect/:provider', () => {
  it('redirects to the provider with the client id, Folio’s callback, the scope and a state, and sets a signed HttpOnly cookie', async () => {
    const { res } = await connect('github');
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(`${p.url}/authorize`);
    expect(to.searchParams.get('client_id')).toBe('gh-client');
    expect(to.searchParams.get('response_type')).toBe('code');
    expect(to.searchParams.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/connect/github/callback`);
    expect(to.searchParams.get('scope')).toBe('user user:email');
    expect(to.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const cookie = res.headers.getSetCookie().find((c) => c.startsWith('folio_oauth='))!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\/api/);
    // signed: the value carries a signature after the flow id
    expect(decodeURIComponent(cookie.split(';')[0]!.split('=')[1]!)).toMatch(/^[0-9a-f]{48}\.[^.]+$/);
  });

  it('refuses a disabled or unknown provider with Strapi’s 400', async () => {
    for (const name of ['facebook', 'nope', 'email', 'constructor', '__proto__']) {
      expectError(await t.request('GET', `/api/connect/${name}`, { token: null }), DISABLED);
      expectError(await t.request('GET', `/api/auth/${name}/callback`, { token: null }), DISABLED);
      expectError(await t.request('GET', `/api/connect/${name}/more/path`, { token: null }), DISABLED);
    }
    // Strapi's route is /connect/(.*): no provider at all is the same 400
    expectError(await t.request('GET', '/api/connect/', { token: null }), DISABLED);
    expectError(await t.request('GET', '/api/connect/github/more', { token: null }), errorOf(404, 'NotFoundError', 'Not Found'));
  });

  it('?callback= may change the query of the configured front-end URL, not its origin or path', async () => {
    for (const bad of ['http://evil.test/connect/github/redirect', `${FRONT}/more`, 'https://front.test/connect/github/redirect', 'not a url']) {
      const r = await t.request('GET', `/api/connect/github?callback=${encodeURIComponent(bad)}`, { token: null });
      expectError(r, errorOf(400, 'ValidationError', 'Invalid callback URL provided', { callback: bad }));
    }
    githubUser('cbuser', 'cb@example.com', [{ email: 'cb@example.com', primary: true, verified: true }]);
    const { location } = await signIn('github', `?callback=${encodeURIComponent(`${FRONT}?next=/admin`)}`);
    // the front end gets no query at all: never a token in a URL
    expect(location).toBe(FRONT);
  });
});

describe('the provider comes back to /api/connect/:provider/callback', () => {
  it('trades the code (with the PKCE verifier) and sends the browser to the front end with no query', async () => {
    githubUser('octo', 'octo@example.com', [{ email: 'octo@example.com', primary: true, verified: true }]);
    const before = p.tokenRequests.length;
    const { location } = await signIn('github');
    expect(location).toBe(FRONT);
    const form = p.tokenRequests[before]!;
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/connect/github/callback`);
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);
  });

  it('a state that isn’t the flow’s is refused with oauth_error, and the flow is over', async () => {
    const { res, browser } = await connect('github');
    const atProvider = await raw(res.headers.get('location')!);
    const back = new URL(local(atProvider.headers.get('location')!));
    back.searchParams.set('state', 'forged');
    const r = await raw(back.toString(), browser.cookie);
    expect(r.status).toBe(302);
    expect(r.headers.get('location')).toBe(`${FRONT}?error=oauth_error&error_description=OAuth2+state+mismatch`);
    expectError(await login('github', browser), NO_SESSION);
  });

  it('a callback without the browser’s cookie is refused as a state mismatch (login CSRF)', async () => {
    const { res } = await connect('github');
    const atProvider = await raw(res.headers.get('location')!);
    const r = await raw(local(atProvider.headers.get('location')!));
    expect(r.headers.get('location')).toBe(`${FRONT}?error=oauth_error&error_description=OAuth2+state+mismatch`);
  });

  it('a provider error and a missing code go to the front end as error and error_description', async () => {
    const { browser } = await connect('github');
    const denied = await raw(`${t.url}/api/connect/github/callback?error=access_denied&error_description=The+user+said+no`, browser.cookie);
    expect(denied.headers.get('location')).toBe(`${FRONT}?error=access_denied&error_description=The+user+said+no`);
    // Koa's redirect body: the target, HTML-escaped for a client that takes HTML
    expect(await denied.text()).toBe(`Redirecting to ${FRONT}?error=access_denied&amp;error_description=The+user+said+no.`);
    const noCode = await raw(`${t.url}/api/connect/github/callback?state=x`, (await connect('github')).browser.cookie);
    expect(noCode.headers.get('location')).toBe(`${FRONT}?error=oauth_error&error_description=OAuth2+missing+code+parameter`);
  });

  it('the provider’s return URL replayed (same code and state) ends the flow instead of trading the code again', async () => {
    githubUser('replayer', 'replayer@example.com', [{ email: 'replayer@example.com', primary: true, verified: true }]);
    const { res, browser } = await connect('github');
    const atProvider = await raw(res.headers.get('location')!);
    const backUrl = local(atProvider.headers.get('location')!);
    expect((await raw(backUrl, browser.cookie)).headers.get('location')).toBe(FRONT);
    const before = p.tokenRequests.length;
    const again = await raw(backUrl, browser.cookie);
    expect(again.headers.get('location')).toBe(`${FRONT}?error=oauth_error&error_description=OAuth2+state+mismatch`);
    expect(p.tokenRequests.length).toBe(before);
    expectError(await login('github', browser), NO_SESSION);
  });

  it('a token endpoint that refuses the code sends the front end oauth_error with its description, else its error or status; no login follows', async () => {
    const back = `${PUBLIC_URL}/api/auth/discord/callback?error=oauth_error&error_description=`;
    p.answer('/failing-token', { status: 401, body: { error: 'invalid_client', error_description: 'Client authentication failed' } });
    const { location, browser } = await signIn('discord');
    expect(location).toBe(`${back}Client+authentication+failed`);
    expectError(await login('discord', browser), NO_SESSION);
    p.answer('/failing-token', { status: 400, body: { error: 'invalid_grant' } });
    expect((await signIn('discord')).location).toBe(`${back}invalid_grant`);
    p.answer('/failing-token', { status: 502, body: 'bad gateway' });
    expect((await signIn('discord')).location).toBe(`${back}Token+exchange+failed+%28502%29`);
  });

  it('a cookie whose signature fails counts as no cookie', async () => {
    const { res, browser } = await connect('github');
    const atProvider = await raw(res.headers.get('location')!);
    const [name, value] = browser.cookie.split('=') as [string, string];
    const forged = `${name}=${value.replace(/\.[^.]+$/, '.AAAA')}`;
    const r = await raw(local(atProvider.headers.get('location')!), forged);
    expect(r.headers.get('location')).toBe(`${FRONT}?error=oauth_error&error_description=OAuth2+state+mismatch`);
  });
});

describe('GET /api/auth/:provider/callback', () => {
  it('answers {jwt, user} for a new account: confirmed, the provider’s name, the profile’s username and email', async () => {
    githubUser('newbie', 'Newbie@Example.com', [{ email: 'Newbie@Example.com', primary: true, verified: true }]);
    const { browser } = await signIn('github');
    const r = await login('github', browser);
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
    expectPublicUser(r.body.user, { username: 'newbie', email: 'newbie@example.com', provider: 'github', confirmed: true, blocked: false });
    expectNoSecrets(r);
    // the profile was read with the provider's access token
    expect(p.seen.get('/github/user')!.at(-1)).toMatch(/^Bearer .+/);
    const me = await t.request('GET', '/api/users/me', { token: r.body.jwt });
    expect(me.status).toBe(200);
    expect(me.body.id).toBe(r.body.user.id);
  });

  it('the same profile signs into the same account next time', async () => {
    githubUser('again', 'again@example.com', [{ email: 'again@example.com', primary: true, verified: true }]);
    const first = await login('github', (await signIn('github')).browser);
    const second = await login('github', (await signIn('github')).browser);
    expect(second.status).toBe(200);
    expect(second.body.user.id).toBe(first.body.user.id);
  });

  it('a login is spent once: the same cookie again, or none, is refused', async () => {
    githubUser('once', 'once@example.com', [{ email: 'once@example.com', primary: true, verified: true }]);
    const { browser } = await signIn('github');
    expect((await login('github', browser)).status).toBe(200);
    expectError(await login('github', browser), NO_SESSION);
    expectError(await login('github', { cookie: '' }), NO_SESSION);
  });

  it('a flow made for one provider doesn’t sign in through another', async () => {
    githubUser('cross', 'cross@example.com', [{ email: 'cross@example.com', primary: true, verified: true }]);
    const { browser } = await signIn('github');
    expectError(await login('keycloak', browser), NO_SESSION);
    expect((await login('github', browser)).status).toBe(200);
  });

  it('two logins racing with the same new profile make one account', async () => {
    githubUser('racer', 'racer@example.com', [{ email: 'racer@example.com', primary: true, verified: true }]);
    const browsers = await Promise.all(Array.from({ length: 6 }, async () => (await signIn('github')).browser));
    const rs = await Promise.all(browsers.map((b) => login('github', b)));
    for (const r of rs) expect(r.status, r.text).toBe(200);
    expect(new Set(rs.map((r) => r.body.user.id)).size).toBe(1);
    const users = await t.request('GET', '/api/users?filters[email][$eq]=racer@example.com');
    expect(users.body).toHaveLength(1);
  });

  it('a username already taken gets four digits', async () => {
    expect((await register(t, 'taken', 'taken-local@example.com')).status).toBe(200);
    githubUser('taken', 'taken-gh@example.com', [{ email: 'taken-gh@example.com', primary: true, verified: true }]);
    const r = await login('github', (await signIn('github')).browser);
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.username).toMatch(/^taken\d{4}$/);
  });

  it('an email a local account has is refused while emails are unique', async () => {
    expect((await register(t, 'localann', 'ann-local@example.com')).status).toBe(200);
    githubUser('ann-gh', 'ann-local@example.com', [{ email: 'ann-local@example.com', primary: true, verified: true }]);
    expectError(await login('github', (await signIn('github')).browser), errorOf(400, 'ApplicationError', 'Email is already taken.'));
  });

  it('an unverified GitHub email is refused with Strapi’s message', async () => {
    githubUser('unverified', null, [{ email: 'unverified@example.com', primary: true, verified: false }]);
    expectError(await login('github', (await signIn('github')).browser), errorOf(400, 'ApplicationError', 'Email not verified by GitHub'));
    // a public email must be one of the verified ones
    githubUser('unverified', 'other@example.com', [{ email: 'unverified@example.com', primary: true, verified: true }]);
    expectError(await login('github', (await signIn('github')).browser), errorOf(400, 'ApplicationError', 'Email not verified by GitHub'));
  });

  it('a provider API error reaches the client as the 400’s message', async () => {
    p.answer('/github/user', { status: 401, body: { message: 'Bad credentials' } });
    expectError(await login('github', (await signIn('github')).browser), errorOf(400, 'ApplicationError', 'Bad credentials'));
  });

  it('a blocked account is refused', async () => {
    githubUser('blocky', 'blocky@example.com', [{ email: 'blocky@example.com', primary: true, verified: true }]);
    const first = await login('github', (await signIn('github')).browser);
    expect((await t.request('PUT', `/api/users/${first.body.user.id}`, { body: { blocked: true } })).status).toBe(200);
    expectError(await login('github', (await signIn('github')).browser), errorOf(400, 'ApplicationError', 'Your account has been blocked by an administrator'));
  });

  it('keycloak: preferred_username and a verified email from the realm’s userinfo', async () => {
    p.answer('/keycloak/protocol/openid-connect/userinfo', { body: { preferred_username: 'kcuser', email: 'kc@example.com', email_verified: true } });
    const { location, browser } = await signIn('keycloak');
    // keycloak's default front-end callback is Folio's own login URL, which answers the login as JSON
    expect(location).toBe(`${PUBLIC_URL}/api/auth/keycloak/callback`);
    const r = await login('keycloak', browser);
    expect(r.status, r.text).toBe(200);
    expectPublicUser(r.body.user, { username: 'kcuser', email: 'kc@example.com', provider: 'keycloak' });
    p.answer('/keycloak/protocol/openid-connect/userinfo', { body: { preferred_username: 'kc2', email: 'kc2@example.com', email_verified: false } });
    expectError(await login('keycloak', (await signIn('keycloak')).browser), errorOf(400, 'ApplicationError', 'Email not verified by Keycloak'));
  });

  it('a profile without an email is refused: Email was not available.', async () => {
    p.answer('/keycloak/protocol/openid-connect/userinfo', { body: { preferred_username: 'noemail', email_verified: true } });
    expectError(await login('keycloak', (await signIn('keycloak')).browser), errorOf(400, 'ApplicationError', 'Email was not available.'));
  });

  it('the same email through another provider is refused while emails are unique', async () => {
    p.answer('/keycloak/protocol/openid-connect/userinfo', { body: { preferred_username: 'octo-kc', email: 'octo@example.com', email_verified: true } });
    githubUser('octo', 'octo@example.com', [{ email: 'octo@example.com', primary: true, verified: true }]);
    expect((await login('github', (await signIn('github')).browser)).status).toBe(200);
    expectError(await login('keycloak', (await signIn('keycloak')).browser), errorOf(400, 'ApplicationError', 'Email is already taken.'));
  });

  it('cognito: the id token is verified against the pool’s published keys', async () => {
    p.claims = { email: 'cog@example.com', email_verified: true, 'cognito:username': 'coguser' };
    try {
      p.answer('/cognito/jwks', { body: { keys: p.issuer.keys.toJSON() } });
      const r = await login('cognito', (await signIn('cognito')).browser);
      expect(r.status, r.text).toBe(200);
      expectPublicUser(r.body.user, { username: 'coguser', email: 'cog@example.com', provider: 'cognito' });
      // the pool publishes other keys than the one that signed: refused
      const other = new OAuth2Issuer();
      await other.keys.generate('RS256');
      p.answer('/cognito/jwks', { body: { keys: other.keys.toJSON() } });
      expectError(await login('cognito', (await signIn('cognito')).browser), errorOf(400, 'ApplicationError', 'There was an error verifying the token'));
    } finally {
      p.claims = {};
    }
  });
});

describe('in refresh mode', () => {
  let refreshEnv: AuthEnv;
  beforeAll(async () => {
    refreshEnv = await startAuthApp({ plugin: { jwtManagement: 'refresh', providers: providersConfig(p) }, advanced: { allow_register: false } });
  });
  afterAll(async () => {
    await refreshEnv?.close();
  });

  /** the whole browser flow against the refresh-mode app, then the front end's login call */
  async function refreshLogin(): Promise<Response> {
    const rt = refreshEnv.t;
    const start = await raw(`${rt.url}/api/connect/github`);
    const cookie = start.headers.getSetCookie()[0]!.split(';')[0]!;
    const atProvider = await raw(start.headers.get('location')!);
    const back = await raw(rt.url + atProvider.headers.get('location')!.slice(PUBLIC_URL.length), cookie);
    expect(back.headers.get('location')).toBe(FRONT);
    return rt.request('GET', '/api/auth/github/callback', { token: null, headers: { cookie } });
  }

  it('with registration closed, a new profile is refused and an account made for it signs in', async () => {
    githubUser('closed', 'closed@example.com', [{ email: 'closed@example.com', primary: true, verified: true }]);
    expectError(await refreshLogin(), errorOf(400, 'ApplicationError', 'Register action is actually not available.'));
  });

  it('a provider login opens a session: {jwt, refreshToken, user}, and the refresh token rotates', async () => {
    const rt = refreshEnv.t;
    const made = await rt.request('POST', '/api/users', {
      body: { username: 'sessioned', email: 'sessioned@example.com', password: 'unused123', provider: 'github', role: 1, confirmed: true },
    });
    expect(made.status, made.text).toBe(201);
    // a create makes a local account whatever the body says (as Strapi); an update may move it to a provider
    expect(made.body.provider).toBe('local');
    const moved = await rt.request('PUT', `/api/users/${made.body.id}`, { body: { provider: 'github' } });
    expect(moved.body.provider).toBe('github');
    githubUser('sessioned', 'sessioned@example.com', [{ email: 'sessioned@example.com', primary: true, verified: true }]);
    const r = await refreshLogin();
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'refreshToken', 'user']);
    const next = await rt.request('POST', '/api/auth/refresh', { token: null, body: { refreshToken: r.body.refreshToken } });
    expect(next.status, next.text).toBe(200);
  });
});
