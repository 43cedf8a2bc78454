// `users-permissions.config.providers.<name>`: what Strapi keeps in its admin store as the "grant"
// settings (Folio has no admin panel), under the same key names. Secrets come from env() in the file.
import { ConfigError } from '../../../errors.js';
import { isObj, type Obj } from '../../../config/config-files.js';
import { fileBool, fileString } from '../../../config/values.js';
import { PROVIDERS, type ProviderDef } from './registry.js';

export interface ProviderSettings {
  readonly name: string;
  readonly def: ProviderDef;
  readonly key: string;
  readonly secret: string;
  readonly scope: readonly string[];
  /** the host part some providers are reached at (keycloak realm, auth0 tenant, cognito domain, cas server) */
  readonly subdomain: string | undefined;
  /** the front-end page the browser returns to after the provider */
  readonly callback: string;
  /** cognito: where the keys that sign its id tokens are published */
  readonly jwksurl: string | undefined;
  /** Folio: a self-hosted or test provider's endpoints in place of the built-in ones */
  readonly authorizeUrl: string | undefined;
  readonly accessUrl: string | undefined;
  readonly apiUrl: string | undefined;
}

const KEY = 'plugins.users-permissions.config.providers';
const SETTINGS = new Set(['enabled', 'icon', 'key', 'secret', 'scope', 'subdomain', 'callback', 'jwksurl', 'authorize_url', 'access_url', 'api_url']);

function url(v: unknown, key: string): string | undefined {
  const s = fileString(v, key);
  if (s === undefined || s === '') return undefined;
  if (!URL.canParse(s) || !/^https?:$/.test(new URL(s).protocol)) throw new ConfigError(`${key} must be an absolute http(s) URL, got "${s}"`);
  return s.replace(/\/+$/, '');
}

function scopeOf(v: unknown, key: string, dflt: readonly string[]): readonly string[] {
  if (v === undefined || v === null) return dflt;
  if (typeof v === 'string') return v.split(/[\s,]+/).filter(Boolean);
  if (Array.isArray(v) && v.every((s) => typeof s === 'string')) return v.flatMap((s) => s.split(/\s+/)).filter(Boolean);
  throw new ConfigError(`${key} must be a list of scopes or a string, got ${JSON.stringify(v)}`);
}

function one(name: string, def: ProviderDef, raw: Obj, defaultCallback: string): ProviderSettings | null {
  const k = (s: string): string => `${KEY}.${name}.${s}`;
  // an entry left off is read no further: Strapi never reads this section, so projects carry entries
  // written for other tools (`clientId`, `callbackUrl`…) that start Strapi; providerNotices names them
  if (!fileBool(raw['enabled'], k('enabled'), false)) return null;
  const unknown = Object.keys(raw).find((s) => !SETTINGS.has(s));
  if (unknown !== undefined) throw new ConfigError(`${k(unknown)} is not a setting; known: ${[...SETTINGS].join(', ')}`);
  const key = fileString(raw['key'], k('key'));
  const secret = fileString(raw['secret'], k('secret'));
  if (!key) throw new ConfigError(`${k('key')} is required when the provider is enabled (the client id the provider gave you)`);
  if (!secret) throw new ConfigError(`${k('secret')} is required when the provider is enabled (the client secret; read it with env())`);
  const subdomain = fileString(raw['subdomain'], k('subdomain')) || undefined;
  const s: ProviderSettings = {
    name,
    def,
    key,
    secret,
    scope: scopeOf(raw['scope'], k('scope'), def.scope),
    subdomain: subdomain?.replace(/^https?:\/\//, '').replace(/\/+$/, ''),
    callback: url(raw['callback'], k('callback')) ?? defaultCallback,
    jwksurl: url(raw['jwksurl'], k('jwksurl')),
    authorizeUrl: url(raw['authorize_url'], k('authorize_url')),
    accessUrl: url(raw['access_url'], k('access_url')),
    apiUrl: url(raw['api_url'], k('api_url')),
  };
  for (const need of def.needs) {
    if (s[need] === undefined) throw new ConfigError(`${k(need)} is required for ${name}${need === 'subdomain' ? ` (${def.subdomainHint ?? 'its host'})` : ''}`);
  }
  if ((s.authorizeUrl === undefined) !== (s.accessUrl === undefined)) throw new ConfigError(`${KEY}.${name}: authorize_url and access_url go together`);
  return s;
}

/**
 * The enabled providers by name. `frontCallback(name)` is the default front-end callback: Strapi's,
 * the server's own `/auth/<name>/callback`, which answers the login as JSON.
 */
export function providerSettings(raw: Obj, frontCallback: (name: string) => string): ReadonlyMap<string, ProviderSettings> {
  const section = raw['providers'];
  const out = new Map<string, ProviderSettings>();
  if (section === undefined || section === null) return out;
  if (!isObj(section)) throw new ConfigError(`${KEY} must be an object of providers by name`);
  for (const [name, v] of Object.entries(section)) {
    const def = PROVIDERS.get(name);
    // `email` is Strapi's name for local login, always on in Folio
    if (name === 'email') continue;
    if (!isObj(v)) throw new ConfigError(`${KEY}.${name} must be an object`);
    // Strapi reads no providers from config (its admin store holds them), so a project's own entry for a
    // provider of its own code (Guest-Spot/api's apple) starts there: it is left off (providerNotices says so)
    if (def === undefined) continue;
    const s = one(name, def, v, frontCallback(name));
    if (s) out.set(name, s);
  }
  return out;
}

/**
 * Start-up lines for the entries left off that say something Folio doesn't read (an unknown provider,
 * enabled or not; keys that are no setting): the project starts, as with Strapi, and the line tells why
 * that login is off.
 */
export function providerNotices(raw: Obj): string[] {
  const section = raw['providers'];
  if (!isObj(section)) return [];
  const out: string[] = [];
  for (const [name, v] of Object.entries(section)) {
    if (name === 'email' || !isObj(v)) continue;
    const enabled = v['enabled'] === true;
    if (!PROVIDERS.has(name)) {
      out.push(
        enabled
          ? `${KEY}.${name}: not a provider Folio knows, so left off: /api/connect/${name} answers "This provider is disabled" (known: ${[...PROVIDERS.keys()].join(', ')})`
          : `${KEY}.${name}: not a provider Folio knows, and not enabled: left off`,
      );
      continue;
    }
    const unknown = Object.keys(v).filter((s) => !SETTINGS.has(s));
    if (!enabled && unknown.length > 0) out.push(`${KEY}.${name}: not enabled, so ${unknown.join(', ')} (no setting Folio reads) left off; known: ${[...SETTINGS].join(', ')}`);
  }
  return out;
}
