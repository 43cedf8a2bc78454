// `users-permissions.config.providers`: what a project writes, and the start-up error for each mistake in a
// provider Folio serves.
import { describe, expect, it } from 'vitest';
import { providerNotices, providerSettings } from '../../src/plugins/users-permissions/providers/settings.js';
import { PROVIDERS } from '../../src/plugins/users-permissions/providers/registry.js';

const front = (name: string): string => `http://cms.test/api/auth/${name}/callback`;
const parse = (providers: unknown) => providerSettings({ providers }, front);
const K = 'plugins.users-permissions.config.providers';

describe('provider settings', () => {
  it('Strapi’s sixteen providers are known', () => {
    expect([...PROVIDERS.keys()].sort()).toEqual(
      [
        'auth0',
        'cas',
        'cognito',
        'discord',
        'facebook',
        'github',
        'google',
        'instagram',
        'keycloak',
        'linkedin',
        'microsoft',
        'patreon',
        'reddit',
        'twitch',
        'twitter',
        'vk',
      ].sort(),
    );
  });

  it('an enabled provider takes its key, secret and scope; the default callback is the server’s own login URL', () => {
    const s = parse({ github: { enabled: true, key: 'id', secret: 'sh', scope: ['read:user', 'user:email'] }, google: { enabled: false } });
    expect([...s.keys()]).toEqual(['github']);
    const gh = s.get('github')!;
    expect(gh).toMatchObject({ key: 'id', secret: 'sh', scope: ['read:user', 'user:email'], callback: front('github') });
    expect(parse({ google: { enabled: true, key: 'a', secret: 'b' } }).get('google')!.scope).toEqual(['email']);
    // a scope string splits as Strapi's admin field does
    expect(parse({ google: { enabled: true, key: 'a', secret: 'b', scope: 'email profile' } }).get('google')!.scope).toEqual(['email', 'profile']);
  });

  it('each mistake is a start-up error naming the key', () => {
    const cases: [unknown, string][] = [
      [{ github: { enabled: true, secret: 's' } }, `${K}.github.key is required when the provider is enabled (the client id the provider gave you)`],
      [{ github: { enabled: true, key: 'k' } }, `${K}.github.secret is required when the provider is enabled (the client secret; read it with env())`],
      [{ github: { enabled: 'yes', key: 'k', secret: 's' } }, `${K}.github.enabled must be true or false, got "yes"`],
      [
        { github: { enabled: true, key: 'k', secret: 's', callbak: 'x' } },
        `${K}.github.callbak is not a setting; known: enabled, icon, key, secret, scope, subdomain, callback, jwksurl, authorize_url, access_url, api_url`,
      ],
      [{ github: { enabled: true, key: 'k', secret: 's', callback: '/relative' } }, `${K}.github.callback must be an absolute http(s) URL, got "/relative"`],
      [{ github: { enabled: true, key: 'k', secret: 's', scope: 3 } }, `${K}.github.scope must be a list of scopes or a string, got 3`],
      [{ keycloak: { enabled: true, key: 'k', secret: 's' } }, `${K}.keycloak.subdomain is required for keycloak (the realm, e.g. keycloak.example.com/realms/myrealm)`],
      [{ cognito: { enabled: true, key: 'k', secret: 's', subdomain: 'pool.test' } }, `${K}.cognito.jwksurl is required for cognito`],
      [{ github: { enabled: true, key: 'k', secret: 's', authorize_url: 'http://a.test/auth' } }, `${K}.github: authorize_url and access_url go together`],
      [[], `${K} must be an object of providers by name`],
    ];
    for (const [config, message] of cases) expect(() => parse(config), JSON.stringify(config)).toThrow(message);
  });

  it('an enabled provider Folio does not know is left off with a start-up line, as Strapi starts with it (Guest-Spot/api’s apple)', () => {
    const providers = { apple: { enabled: true, key: 'k', secret: 's', teamId: 't' }, constructor: { enabled: true }, github: { enabled: true, key: 'k', secret: 's' } };
    expect([...parse(providers).keys()]).toEqual(['github']);
    const known = [...PROVIDERS.keys()].join(', ');
    expect(providerNotices({ providers })).toEqual([
      `${K}.apple: not a provider Folio knows, so left off: /api/connect/apple answers "This provider is disabled" (known: ${known})`,
      `${K}.constructor: not a provider Folio knows, so left off: /api/connect/constructor answers "This provider is disabled" (known: ${known})`,
    ]);
  });

  it('an entry not enabled is left off unread: keys Strapi ignores and unknown names stop nothing', () => {
    expect(parse({ google: { clientId: 'id', callbackUrl: 'x' }, gitlab: { enabled: false, key: 'k' } }).size).toBe(0);
  });

  it('Strapi’s `email` entry (local login) is accepted and ignored', () => {
    expect(parse({ email: { enabled: true, icon: 'envelope' } }).size).toBe(0);
  });
});
