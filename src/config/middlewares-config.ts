// The strapi::cors and strapi::security entries of config/middlewares, with Strapi's option names,
// resolved over Strapi 5's defaults (as @strapi/core 5.54 ships them: middlewares/cors and
// middlewares/security). As in Strapi, only the middlewares the list names are applied: a project
// whose config/middlewares leaves out 'strapi::cors' serves no CORS headers; a project without the
// file gets both, as Strapi's generated file lists both.
import type { OriginFunction } from '../http/cors-origin-function.js';
import type { FastifyHelmetOptions } from '@fastify/helmet';
import { ConfigError } from '../errors.js';
import { isObj, type Obj } from './config-files.js';

export interface CorsConfig {
  /**
   * '*' for any origin, else the exact origins (scheme://host[:port]) a browser may call from, or the
   * project's function answering them per request (src/http/cors-origin-function.ts)
   */
  readonly origin: '*' | readonly string[] | OriginFunction;
  /** Access-Control-Allow-Methods */
  readonly methods: string;
  /** Access-Control-Allow-Headers; null echoes what the preflight asks for */
  readonly headers: string | null;
  /** Access-Control-Expose-Headers */
  readonly expose: string | null;
  /** Access-Control-Max-Age in seconds; null sends none */
  readonly maxAge: number | null;
  /** Access-Control-Allow-Credentials (cookies, HTTP auth) */
  readonly credentials: boolean;
}

/** helmet's options (a union, hence no Omit); helmet itself checks them when the server starts */
export type SecurityConfig = FastifyHelmetOptions;

export interface MiddlewaresConfig {
  /** null: config/middlewares doesn't list strapi::cors */
  readonly cors: CorsConfig | null;
  /** null: config/middlewares doesn't list strapi::security */
  readonly security: SecurityConfig | null;
}

const CORS_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const CORS_HEADERS = ['Content-Type', 'Authorization', 'Origin', 'Accept'];
/** a year, Strapi's value; browsers cap it (Chromium at 2 hours) */
const CORS_MAX_AGE = 31_536_000;

/**
 * Strapi's security defaults: helmet's, minus the cross-origin isolation headers (a headless API is
 * called and embedded from other origins, and media under /uploads must load on other sites) and
 * the obsolete X-XSS-Protection, with a year of HSTS and SAMEORIGIN framing. Strapi also allows
 * images from market-assets.strapi.io for its admin panel's marketplace; Folio has no admin panel.
 */
export function defaultSecurity(): Obj {
  return {
    crossOriginEmbedderPolicy: false,
    crossOriginOpenerPolicy: false,
    crossOriginResourcePolicy: false,
    originAgentCluster: false,
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        'connect-src': ["'self'", 'https:'],
        'img-src': ["'self'", 'data:', 'blob:'],
        'media-src': ["'self'", 'data:', 'blob:'],
        // an API may sit behind plain HTTP in development; HSTS covers HTTPS deployments
        'upgrade-insecure-requests': null,
      },
    },
    xssFilter: false,
    hsts: { maxAge: 31_536_000, includeSubDomains: true },
    frameguard: { action: 'sameorigin' },
  };
}

const show = (v: unknown): string => (typeof v === 'function' ? 'a function' : (JSON.stringify(v, (_, x: unknown) => (x instanceof RegExp ? String(x) : x)) ?? String(v)));

/** a header list as Strapi takes it: an array or a comma-separated string */
function headerList(v: unknown, key: string, dflt: readonly string[] | null): string | null {
  if (v === undefined) return dflt === null ? null : dflt.join(',');
  const items = typeof v === 'string' ? v.split(',') : Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null;
  if (items === null) throw new ConfigError(`${key} must be a list of names or a comma-separated string, got ${show(v)}`);
  const names = items.map((s) => s.trim()).filter(Boolean);
  return names.length > 0 ? names.join(',') : null;
}

function corsOrigin(v: unknown, warnings: string[]): CorsConfig['origin'] {
  const key = 'middlewares strapi::cors origin';
  if (v === undefined || v === null) return '*';
  if (typeof v === 'function') return v as OriginFunction;
  // Strapi 5.54 looks a request's origin up in the list as text: a regular expression there matches no
  // origin (amankumar-in/cfc-events lists some), and the project starts all the same
  const patterns = Array.isArray(v) ? v.filter((x): x is RegExp => x instanceof RegExp) : [];
  if (patterns.length > 0) {
    warnings.push(
      `Ignored ${patterns.map(String).join(', ')} in ${key}: a regular expression matches no origin in Strapi 5.54 (it compares origins as text), nor in Folio; list the origins themselves`,
    );
  }
  const texts = Array.isArray(v) ? v.filter((x) => !(x instanceof RegExp)) : v;
  const items = typeof texts === 'string' ? texts.split(',') : Array.isArray(texts) && texts.every((x) => typeof x === 'string') ? (texts as string[]) : null;
  if (items === null) throw new ConfigError(`${key} must be "*", a list of origins or a comma-separated string, got ${show(v)}`);
  // a browser's Origin never ends in a slash, so "https://site.example/" would never match
  const origins = items.map((s) => s.trim().replace(/\/+$/, '')).filter(Boolean);
  return origins.includes('*') ? '*' : [...new Set(origins)];
}

const CORS_KEYS = new Set(['origin', 'methods', 'headers', 'expose', 'maxAge', 'credentials', 'keepHeaderOnError', 'keepHeadersOnError', 'enabled']);

export function corsConfig(raw: Obj, warnings: string[]): CorsConfig {
  const key = (k: string): string => `middlewares strapi::cors ${k}`;
  for (const k of Object.keys(raw)) if (!CORS_KEYS.has(k)) warnings.push(`Ignored ${key(k)}: not an option of strapi::cors`);
  // `enabled: true` asks for what the entry does anyway; anything else would be read as turning CORS off, which it doesn't
  if (raw['enabled'] !== undefined && raw['enabled'] !== true)
    warnings.push(`Ignored ${key('enabled')}: to serve no CORS headers, leave strapi::cors out of config/middlewares (as in Strapi)`);
  const origin = corsOrigin(raw['origin'], warnings);
  // Strapi's default is credentials: true, which with origin '*' answers every origin by name with
  // credentials allowed: any site could read cookie-authenticated responses. Folio allows
  // credentials by default only for listed origins; `credentials: true` with '*' still reflects.
  const credentials = raw['credentials'] ?? origin !== '*';
  if (typeof credentials !== 'boolean') throw new ConfigError(`${key('credentials')} must be true or false, got ${show(credentials)}`);
  for (const k of ['keepHeaderOnError', 'keepHeadersOnError']) {
    // Folio's error responses always carry the CORS headers (a browser can't read the error otherwise)
    if (raw[k] !== undefined && typeof raw[k] !== 'boolean') throw new ConfigError(`${key(k)} must be true or false, got ${show(raw[k])}`);
  }
  const maxAge = raw['maxAge'] ?? CORS_MAX_AGE;
  const maxAgeN = typeof maxAge === 'string' && /^\d+$/.test(maxAge.trim()) ? Number(maxAge) : maxAge;
  if (maxAgeN !== false && (typeof maxAgeN !== 'number' || !Number.isInteger(maxAgeN) || maxAgeN < 0)) {
    throw new ConfigError(`${key('maxAge')} must be a whole number of seconds, got ${show(maxAge)}`);
  }
  return {
    origin,
    methods: headerList(raw['methods'], key('methods'), CORS_METHODS) ?? CORS_METHODS.join(','),
    headers: headerList(raw['headers'], key('headers'), CORS_HEADERS),
    expose: headerList(raw['expose'], key('expose'), null),
    maxAge: maxAgeN === false || maxAgeN === 0 ? null : (maxAgeN as number),
    credentials,
  };
}

/** helmet takes a directive as camelCase or kebab-case and refuses both at once */
const kebab = (name: string): string => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

// CSP keywords only mean themselves quoted; helmet 6 (Strapi's) passed `self` through bare (a host named
// "self" to browsers), today's helmet refuses it
const KEYWORDS: ReadonlySet<string> = new Set(['self', 'none', 'unsafe-inline', 'unsafe-eval', 'unsafe-hashes', 'strict-dynamic', 'report-sample', 'wasm-unsafe-eval']);

function quotedKeywords(directive: string, v: unknown, warnings: string[]): unknown {
  if (!Array.isArray(v)) return v;
  return v.map((item: unknown) => {
    if (typeof item !== 'string' || !KEYWORDS.has(item)) return item;
    warnings.push(`config/middlewares strapi::security: "${item}" in ${directive} is read as '${item}' (a CSP keyword is written quoted)`);
    return `'${item}'`;
  });
}

function mergeDirectives(base: Obj, over: Obj, warnings: string[]): Obj {
  const out: Obj = Object.create(null) as Obj;
  for (const [k, v] of Object.entries(base)) out[kebab(k)] = v;
  // a directive the project sets replaces Strapi's whole list for it
  for (const [k, v] of Object.entries(over)) {
    // helmet iterates a value that is neither a string nor null, and says only "directiveValue is not iterable"
    // (`upgradeInsecureRequests: isProduction ? true : null`: Strapi 5.54 starts, then answers every request 500)
    if (v === true || typeof v === 'number' || isObj(v)) {
      throw new ConfigError(
        `config/middlewares strapi::security: contentSecurityPolicy.directives.${k} is ${show(v)}: write a list of sources ([] for a directive that takes none), or null to leave it out`,
      );
    }
    out[kebab(k)] = quotedKeywords(kebab(k), v, warnings);
  }
  return out;
}

/** the project's helmet options over Strapi's defaults: objects merge one level deep, directives by name */
export function securityConfig(raw: Obj, warnings: string[] = []): SecurityConfig {
  const out: Obj = defaultSecurity();
  for (const [k, v] of Object.entries(raw)) {
    const base = out[k];
    if (k === 'contentSecurityPolicy' && isObj(v) && isObj(base)) {
      const directives = isObj(v['directives']) ? mergeDirectives(isObj(base['directives']) ? base['directives'] : {}, v['directives'], warnings) : base['directives'];
      out[k] = { ...base, ...v, directives };
    } else {
      out[k] = isObj(base) && isObj(v) ? { ...base, ...v } : v;
    }
  }
  // shape checked by helmet when the server starts (src/http/security-headers.ts)
  return out as SecurityConfig;
}

function entry(list: readonly unknown[], name: string): Obj | null {
  for (const m of list) {
    if (m === name) return {};
    if (isObj(m) && m['name'] === name) {
      const cfg = m['config'] ?? {};
      if (!isObj(cfg)) throw new ConfigError(`middlewares ${name} config must be an object, got ${show(cfg)}`);
      return cfg;
    }
  }
  return null;
}

export function middlewaresConfig(raw: unknown, warnings: string[]): MiddlewaresConfig {
  if (raw === undefined) return { cors: corsConfig({}, warnings), security: securityConfig({}) };
  if (!Array.isArray(raw)) throw new ConfigError('config/middlewares: expected a list of middleware names or { name, config } entries');
  const cors = entry(raw, 'strapi::cors');
  const security = entry(raw, 'strapi::security');
  return { cors: cors && corsConfig(cors, warnings), security: security && securityConfig(security, warnings) };
}

/** what a configuration object literal (tests, embedding) gets when it names no middlewares */
export const DEFAULT_MIDDLEWARES: MiddlewaresConfig = middlewaresConfig(undefined, []);
