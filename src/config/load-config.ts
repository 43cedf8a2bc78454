// Resolves a project's configuration from config/*.json|js files and the environment (Strapi's
// variable names). Development generates missing secrets once and keeps them in the project's .env;
// production refuses to start without them.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { randomBytes } from 'node:crypto';
import { parse as parseDotenv } from 'dotenv';
import { ConfigError } from '../errors.js';
import type { DatabaseConfig } from '../database/connect.js';
import type { FolioConfig, LocaleSeed } from './types.js';

type Obj = Record<string, unknown>;
type Env = Record<string, string | undefined>;

export interface LoadedConfig {
  readonly config: FolioConfig;
  /** names of secrets generated and written to .env by this load */
  readonly generated: readonly string[];
}

const SECRETS = ['API_TOKEN_SALT', 'JWT_SECRET', 'APP_KEYS'] as const;
const CLIENTS: Record<string, DatabaseConfig['client']> = {
  sqlite: 'sqlite', 'better-sqlite3': 'sqlite', sqlite3: 'sqlite',
  postgres: 'postgres', postgresql: 'postgres', pg: 'postgres',
  mysql: 'mysql', mysql2: 'mysql', mariadb: 'mysql',
};

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

async function readConfigFile(dir: string, name: string, env: Env): Promise<Obj> {
  for (const ext of ['json', 'js', 'mjs']) {
    const file = join(dir, 'config', `${name}.${ext}`);
    if (!existsSync(file)) continue;
    try {
      if (ext === 'json') return JSON.parse(readFileSync(file, 'utf8')) as Obj;
      const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
      const value = typeof mod.default === 'function' ? (mod.default as (a: { env: (k: string, d?: unknown) => unknown }) => unknown)({ env: (k, d) => env[k] ?? d }) : mod.default;
      return isObj(value) ? value : {};
    } catch (e) {
      throw new ConfigError(`config/${name}.${ext}: ${(e as Error).message}`);
    }
  }
  return {};
}

function int(env: Env, key: string, dflt: number | undefined, min = 1): number | undefined {
  const v = env[key];
  if (v === undefined || v === '') return dflt;
  if (!/^\d+$/.test(v.trim()) || Number(v) < min) throw new ConfigError(`${key} must be a whole number ≥ ${min}, got "${v}"`);
  return Number(v);
}

function positive(v: unknown, key: string, dflt: number): number {
  if (v === undefined) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ConfigError(`${key} must be a positive integer, got ${JSON.stringify(v)}`);
  return v;
}

function bool(v: unknown, key: string, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== 'boolean') throw new ConfigError(`${key} must be true or false, got ${JSON.stringify(v)}`);
  return v;
}

function database(dir: string, env: Env): DatabaseConfig {
  const name = (env['DATABASE_CLIENT'] ?? 'sqlite').toLowerCase();
  const client = CLIENTS[name];
  if (!client) throw new ConfigError(`DATABASE_CLIENT must be sqlite, postgres or mysql, got "${env['DATABASE_CLIENT']}"`);
  if (client === 'sqlite') return { client, filename: resolve(dir, env['DATABASE_FILENAME'] ?? join('.tmp', 'data.db')) };
  return {
    client,
    url: env['DATABASE_URL'] || undefined,
    host: env['DATABASE_HOST'] ?? '127.0.0.1',
    port: int(env, 'DATABASE_PORT', client === 'postgres' ? 5432 : 3306),
    database: env['DATABASE_NAME'] ?? 'folio',
    user: env['DATABASE_USERNAME'] ?? (client === 'postgres' ? 'postgres' : 'root'),
    password: env['DATABASE_PASSWORD'] ?? '',
    schema: env['DATABASE_SCHEMA'] || undefined,
    ssl: env['DATABASE_SSL'] === 'true',
    poolMax: int(env, 'DATABASE_POOL_MAX', 10),
  };
}

function locales(plugins: Obj): { defaultLocale: string; locales: LocaleSeed[] } {
  const i18n = isObj(plugins['i18n']) && isObj(plugins['i18n']['config']) ? plugins['i18n']['config'] : {};
  const defaultLocale = typeof i18n['defaultLocale'] === 'string' ? i18n['defaultLocale'] : 'en';
  const list = Array.isArray(i18n['locales']) ? i18n['locales'] : [{ code: defaultLocale, name: `English (${defaultLocale})` }];
  const out: LocaleSeed[] = [];
  for (const l of list) {
    if (!isObj(l) || typeof l['code'] !== 'string') throw new ConfigError('config/plugins i18n.config.locales entries need a "code"');
    out.push({ code: l['code'], name: typeof l['name'] === 'string' ? l['name'] : l['code'] });
  }
  return { defaultLocale, locales: out };
}

/** Missing secrets: an error in production, generated and appended to .env in development. */
function secrets(dir: string, env: Env, production: boolean, write: boolean): string[] {
  const missing = SECRETS.filter((k) => !env[k]);
  if (missing.length === 0) return [];
  if (production) throw new ConfigError(`Missing required environment variable ${missing[0]} (needed in production)`);
  const lines: string[] = [];
  for (const k of missing) {
    const value = k === 'APP_KEYS' ? [1, 2].map(() => randomBytes(16).toString('base64')).join(',') : randomBytes(32).toString('base64');
    env[k] = value;
    lines.push(`${k}=${value}`);
  }
  if (write) appendFileSync(join(dir, '.env'), `${lines.join('\n')}\n`);
  return missing;
}

export async function loadConfig(dirArg: string, processEnv: Env = process.env, opts: { writeEnvFile?: boolean } = {}): Promise<LoadedConfig> {
  const dir = resolve(dirArg);
  if (!existsSync(join(dir, 'src'))) throw new ConfigError(`${dir} is not a Folio project: it has no src/ folder`);
  const envFile = join(dir, '.env');
  const fromFile = existsSync(envFile) ? parseDotenv(readFileSync(envFile)) : {};
  const env: Env = { ...fromFile, ...processEnv };
  // plugins read their own variables (UPLOAD_*, S3_*) from the process environment, as dotenv would set it
  if (processEnv === process.env) for (const [k, v] of Object.entries(fromFile)) if (process.env[k] === undefined) process.env[k] = v;
  const nodeEnv = env['NODE_ENV'] === 'production' ? 'production' : env['NODE_ENV'] === 'test' ? 'test' : 'development';
  const generated = secrets(dir, env, nodeEnv === 'production', opts.writeEnvFile ?? true);
  const api = await readConfigFile(dir, 'api', env);
  const plugins = await readConfigFile(dir, 'plugins', env);
  const rest = isObj(api['rest']) ? api['rest'] : {};
  const maxLimit = rest['maxLimit'] === null ? null : positive(rest['maxLimit'], 'api.rest.maxLimit', 100);
  const port = int(env, 'PORT', 1337, 0)!;
  const host = env['HOST'] ?? '0.0.0.0';
  const config: FolioConfig = {
    dir, env: nodeEnv, host, port,
    publicUrl: env['PUBLIC_URL'] ?? `http://localhost:${port}`,
    database: database(dir, env),
    rest: {
      prefix: typeof rest['prefix'] === 'string' ? rest['prefix'] : '/api',
      defaultLimit: positive(rest['defaultLimit'], 'api.rest.defaultLimit', 25),
      maxLimit,
      withCount: bool(rest['withCount'], 'api.rest.withCount', true),
      strictParams: bool(rest['strictParams'], 'api.rest.strictParams', false),
      jsonLimit: 1024 * 1024,
    },
    secrets: { apiTokenSalt: env['API_TOKEN_SALT']!, jwtSecret: env['JWT_SECRET']!, appKeys: env['APP_KEYS']!.split(',') },
    i18n: locales(plugins),
    logger: env['FOLIO_LOG'] === 'true' || env['FOLIO_LOG'] === '1',
  };
  return { config, generated };
}
