// Who the provider says signed in: a username and an email, read from its API the way Strapi 5.54
// reads each one (behaviour.md §10.8), with the same refusals when the email isn't verified. A throw
// here reaches the client as the 400's message.
import { createRemoteJWKSet, jwtVerify } from 'jose';
import { field, getJson, str, type Json } from './http.js';
import type { ProviderSettings } from './settings.js';

export interface Profile {
  readonly username: string | undefined;
  readonly email: string | undefined;
}

export interface ProfileInput {
  readonly settings: ProviderSettings;
  /** the provider's API base (its built-in one, or `api_url`) */
  readonly api: string;
  readonly accessToken: string | undefined;
  /** the token endpoint's whole answer (vk puts the email there, cognito the id token) */
  readonly tokenResponse: Readonly<Record<string, unknown>>;
}

export type ProfileReader = (p: ProfileInput) => Promise<Profile>;

const UA = { 'user-agent': 'folio' };

function token(p: ProfileInput): string {
  if (p.accessToken === undefined) throw new Error('No access_token.');
  return p.accessToken;
}

const get = (p: ProfileInput, path: string, headers?: Record<string, string>): Promise<Json> => getJson(`${p.api}${path}`, token(p), headers);

const notVerified = (by: string): never => {
  throw new Error(`Email not verified by ${by}`);
};

const first = (v: Json): Json => (Array.isArray(v) ? v[0] : undefined);

export const discord: ProfileReader = async (p) => {
  const b = await get(p, '/users/@me');
  if (field(b, 'verified') !== true) notVerified('Discord');
  const name = str(field(b, 'username'));
  const disc = str(field(b, 'discriminator'));
  return { username: disc && disc !== '0' ? `${name}#${disc}` : name, email: str(field(b, 'email')) };
};

export const facebook: ProfileReader = async (p) => {
  const b = await get(p, '/me?fields=name,email');
  const email = str(field(b, 'email')) ?? notVerified('Facebook');
  return { username: str(field(b, 'name')), email };
};

export const google: ProfileReader = async (p) => {
  const b = await getJson(`${p.api}/tokeninfo?access_token=${encodeURIComponent(token(p))}`, null);
  const verified = field(b, 'verified_email') ?? field(b, 'email_verified');
  if (verified !== true && verified !== 'true') notVerified('Google');
  const email = str(field(b, 'email'));
  return { username: email?.split('@')[0], email };
};

export const github: ProfileReader = async (p) => {
  const user = await get(p, '/user', UA);
  const emails = await get(p, '/user/emails', UA);
  const list = Array.isArray(emails) ? emails : [];
  const publicEmail = str(field(user, 'email'));
  const chosen = publicEmail
    ? list.find((e) => field(e, 'email') === publicEmail && field(e, 'verified') === true)
    : list.find((e) => field(e, 'primary') === true && field(e, 'verified') === true);
  if (chosen === undefined) notVerified('GitHub');
  return { username: str(field(user, 'login')), email: str(field(chosen, 'email')) };
};

export const microsoft: ProfileReader = async (p) => {
  const upn = str(field(await get(p, '/v1.0/me'), 'userPrincipalName'));
  return { username: upn, email: upn };
};

/** X's OAuth 2 API (Strapi still uses the OAuth 1.0a one): the account's confirmed email needs the users.email scope */
export const twitter: ProfileReader = async (p) => {
  const data = field(await get(p, '/2/users/me?user.fields=confirmed_email'), 'data');
  const email = str(field(data, 'confirmed_email')) ?? notVerified('Twitter');
  return { username: str(field(data, 'username')), email };
};

/** Instagram gives no email: Strapi makes one up, and so does Folio, so accounts match Strapi's */
export const instagram: ProfileReader = async (p) => {
  const username = str(field(await get(p, '/me?fields=id,username'), 'username'));
  return { username, email: `${username}@strapi.io` };
};

export const vk: ProfileReader = async (p) => {
  const email = str(field(p.tokenResponse, 'email'));
  const userId = field(p.tokenResponse, 'user_id');
  if (!email || (typeof userId !== 'number' && typeof userId !== 'string')) throw new Error('VK authentication requires a completed OAuth session');
  const person = first(field(await get(p, `/method/users.get?user_ids=${encodeURIComponent(String(userId))}&v=5.122`), 'response'));
  if (person === undefined) throw new Error('Invalid VK access token');
  return { username: `${str(field(person, 'last_name')) ?? ''} ${str(field(person, 'first_name')) ?? ''}`, email };
};

export const twitch: ProfileReader = async (p) => {
  const user = first(field(await get(p, '/helix/users', { 'client-id': p.settings.key }), 'data'));
  const email = str(field(user, 'email')) ?? notVerified('Twitch');
  return { username: str(field(user, 'login')), email };
};

/** LinkedIn's OpenID userinfo (the v2/me and emailAddress APIs Strapi reads are closed to new apps) */
export const linkedin: ProfileReader = async (p) => {
  const b = await get(p, '/v2/userinfo');
  if (field(b, 'email_verified') !== true) notVerified('LinkedIn');
  return { username: str(field(b, 'given_name')) ?? str(field(b, 'name')), email: str(field(b, 'email')) };
};

export const cognito: ProfileReader = async (p) => {
  const idToken = str(field(p.tokenResponse, 'id_token'));
  if (!idToken) throw new Error('Cognito authentication requires a completed OAuth session');
  let claims: Record<string, unknown>;
  try {
    ({ payload: claims } = await jwtVerify(idToken, createRemoteJWKSet(new URL(p.settings.jwksurl!)), { algorithms: ['RS256'] }));
  } catch {
    throw new Error('There was an error verifying the token');
  }
  if (claims['email_verified'] !== true) notVerified('Cognito');
  return { username: str(claims['cognito:username']), email: str(claims['email']) };
};

/** Reddit gives no email either: made up as Strapi does */
export const reddit: ProfileReader = async (p) => {
  const username = str(field(await get(p, '/api/v1/me', UA), 'name'));
  return { username, email: `${username}@strapi.io` };
};

export const auth0: ProfileReader = async (p) => {
  const b = await get(p, '/userinfo');
  const email = str(field(b, 'email'));
  if (email && field(b, 'email_verified') !== true) notVerified('Auth0');
  const username = str(field(b, 'username')) ?? str(field(b, 'nickname')) ?? str(field(b, 'name')) ?? email?.split('@')[0];
  return { username, email: email ?? (username === undefined ? undefined : `${username.replace(/\s+/g, '.')}@strapi.io`) };
};

export const cas: ProfileReader = async (p) => {
  const b = await get(p, '/oidc/profile');
  const attrs = field(b, 'attributes');
  const from = attrs === undefined ? b : attrs;
  const username = str(field(from, 'strapiusername')) ?? str(field(b, 'id')) ?? str(field(b, 'sub'));
  const email = str(field(from, 'strapiemail')) ?? str(field(from, 'email'));
  const verified = field(b, 'email_verified') ?? field(attrs, 'email_verified');
  if (email && verified !== true) notVerified('CAS');
  return { username, email };
};

export const patreon: ProfileReader = async (p) => {
  const attrs = field(field(await get(p, '/api/oauth2/v2/identity?fields%5Buser%5D=full_name,email,is_email_verified'), 'data'), 'attributes');
  if (field(attrs, 'is_email_verified') !== true) notVerified('Patreon');
  return { username: str(field(attrs, 'full_name')), email: str(field(attrs, 'email')) };
};

export const keycloak: ProfileReader = async (p) => {
  const b = await get(p, '/protocol/openid-connect/userinfo');
  if (field(b, 'email_verified') !== true) notVerified('Keycloak');
  return { username: str(field(b, 'preferred_username')), email: str(field(b, 'email')) };
};
