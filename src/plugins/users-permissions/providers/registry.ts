// Strapi's list of login providers (behaviour.md §10.8): for each, its OAuth client (arctic), the
// scope Strapi asks by default, where its API lives and how its profile is read.
import { AmazonCognito, Auth0, Discord, Facebook, GitHub, Google, KeyCloak, LinkedIn, MicrosoftEntraId, Patreon, Reddit, Twitch, Twitter, VK } from 'arctic';
import { endpointClient, pkce, plain, type ClientFactory } from './clients.js';
import * as profiles from './profiles.js';
import type { ProfileReader } from './profiles.js';
import type { ProviderSettings } from './settings.js';

export interface ProviderDef {
  readonly scope: readonly string[];
  /** settings the provider can't work without */
  readonly needs: readonly ('subdomain' | 'jwksurl')[];
  readonly subdomainHint?: string;
  readonly client: ClientFactory;
  /** the API base the profile is read from */
  readonly api: (s: ProviderSettings) => string;
  readonly profile: ProfileReader;
}

const host = (s: ProviderSettings): string => s.subdomain!;
const fixed = (url: string) => (): string => url;

export const PROVIDERS: ReadonlyMap<string, ProviderDef> = new Map<string, ProviderDef>([
  [
    'discord',
    { scope: ['identify', 'email'], needs: [], client: (s, r) => pkce(new Discord(s.key, s.secret, r), s), api: fixed('https://discord.com/api'), profile: profiles.discord },
  ],
  ['facebook', { scope: ['email'], needs: [], client: (s, r) => plain(new Facebook(s.key, s.secret, r), s), api: fixed('https://graph.facebook.com'), profile: profiles.facebook }],
  ['google', { scope: ['email'], needs: [], client: (s, r) => pkce(new Google(s.key, s.secret, r), s), api: fixed('https://oauth2.googleapis.com'), profile: profiles.google }],
  [
    'github',
    { scope: ['user', 'user:email'], needs: [], client: (s, r) => plain(new GitHub(s.key, s.secret, r), s), api: fixed('https://api.github.com'), profile: profiles.github },
  ],
  // Strapi signs in against the "common" tenant; a subdomain names another
  [
    'microsoft',
    {
      scope: ['user.read'],
      needs: [],
      client: (s, r) => pkce(new MicrosoftEntraId(s.subdomain ?? 'common', s.key, s.secret, r), s),
      api: fixed('https://graph.microsoft.com'),
      profile: profiles.microsoft,
    },
  ],
  [
    'twitter',
    {
      scope: ['users.read', 'tweet.read', 'users.email'],
      needs: [],
      client: (s, r) => pkce(new Twitter(s.key, s.secret, r), s),
      api: fixed('https://api.twitter.com'),
      profile: profiles.twitter,
    },
  ],
  [
    'instagram',
    {
      scope: ['user_profile'],
      needs: [],
      client: (s, r) => endpointClient(s, r, 'https://api.instagram.com/oauth/authorize', 'https://api.instagram.com/oauth/access_token', false),
      api: fixed('https://graph.instagram.com'),
      profile: profiles.instagram,
    },
  ],
  ['vk', { scope: ['email'], needs: [], client: (s, r) => plain(new VK(s.key, s.secret, r), s), api: fixed('https://api.vk.com'), profile: profiles.vk }],
  ['twitch', { scope: ['user:read:email'], needs: [], client: (s, r) => plain(new Twitch(s.key, s.secret, r), s), api: fixed('https://api.twitch.tv'), profile: profiles.twitch }],
  [
    'linkedin',
    {
      scope: ['openid', 'profile', 'email'],
      needs: [],
      client: (s, r) => plain(new LinkedIn(s.key, s.secret, r), s),
      api: fixed('https://api.linkedin.com'),
      profile: profiles.linkedin,
    },
  ],
  [
    'cognito',
    {
      scope: ['email', 'openid', 'profile'],
      needs: ['subdomain', 'jwksurl'],
      subdomainHint: 'the user pool domain, e.g. my-app.auth.eu-west-1.amazoncognito.com',
      client: (s, r) => pkce(new AmazonCognito(host(s), s.key, s.secret, r), s),
      api: (s) => `https://${host(s)}`,
      profile: profiles.cognito,
    },
  ],
  ['reddit', { scope: ['identity'], needs: [], client: (s, r) => plain(new Reddit(s.key, s.secret, r), s), api: fixed('https://oauth.reddit.com'), profile: profiles.reddit }],
  [
    'auth0',
    {
      scope: ['openid', 'email', 'profile'],
      needs: ['subdomain'],
      subdomainHint: 'the tenant, e.g. my-tenant.eu for my-tenant.eu.auth0.com',
      client: (s, r) => pkce(new Auth0(`${host(s)}.auth0.com`, s.key, s.secret, r), s),
      api: (s) => `https://${host(s)}.auth0.com`,
      profile: profiles.auth0,
    },
  ],
  [
    'cas',
    {
      scope: ['openid', 'email'],
      needs: ['subdomain'],
      subdomainHint: 'the CAS server and path, e.g. my.server.com/cas',
      client: (s, r) => endpointClient(s, r, `https://${host(s)}/oidc/authorize`, `https://${host(s)}/oidc/token`, false),
      api: (s) => `https://${host(s)}`,
      profile: profiles.cas,
    },
  ],
  [
    'patreon',
    {
      scope: ['identity', 'identity[email]'],
      needs: [],
      client: (s, r) => plain(new Patreon(s.key, s.secret, r), s),
      api: fixed('https://www.patreon.com'),
      profile: profiles.patreon,
    },
  ],
  [
    'keycloak',
    {
      scope: ['openid', 'email', 'profile'],
      needs: ['subdomain'],
      subdomainHint: 'the realm, e.g. keycloak.example.com/realms/myrealm',
      client: (s, r) => pkce(new KeyCloak(`https://${host(s)}`, s.key, s.secret, r), s),
      api: (s) => `https://${host(s)}`,
      profile: profiles.keycloak,
    },
  ],
]);
