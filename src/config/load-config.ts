// Resolves a project's configuration from its .env, config/ files (Strapi's layout) and the
// environment (Strapi's variable names), validated so a bad value fails start-up with one line.
// Async because config/*.mjs files can only be loaded with import().
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseDotenv } from 'dotenv';
import { DEFAULT_HEAVY_READS, SLOT_WAIT_MS, STALLED_READER_MS, type HeavyReadLimits } from '../query/heavy-reads.js';
import { ConfigError } from '../errors.js';
import { isLocaleCode, localeName } from '../i18n/locale-code.js';
import { isObj, readConfigFile, type Obj } from './config-files.js';
import { databaseConfig } from './database-config.js';
import { ensureSecrets, generatedNotices, type SecretName } from './secrets.js';
import type { Env } from './strapi-env.js';
import type { FolioConfig, LocaleSeed, RestConfig } from './types.js';
import { envBool, envInt, fileBool, fileBytes, fileInt, fileString } from './values.js';
import { proxyConfig } from './proxy-config.js';
import { middlewaresConfig } from './middlewares-config.js';
import { queryParserLimits } from './query-parser-config.js';
import { emailConfig } from './email-config.js';
import { customFieldsConfig } from './custom-fields-config.js';
import { loadSchemaModules } from '../schema/schema-modules.js';
import { uploadPluginConfig } from './upload-plugin-config.js';
import { sessionConfig } from '../plugins/users-permissions/sessions.js';
import { usersPermissionsConfig } from '../plugins/users-permissions/config.js';
import { providerNotices } from '../plugins/users-permissions/providers/settings.js';
import { installedPluginsNotRun, pluginsNotRun } from './plugins-not-run.js';
import { cronNotRun } from './cron-not-run.js';

export interface LoadedConfig {
  readonly config: FolioConfig;
  /** secrets generated (and kept in .env) by this load, for start-up to mention */
  readonly generated: readonly SecretName[];
  /** things ignored that the user probably meant to take effect */
  readonly warnings: readonly string[];
}

export interface LoadConfigOptions {
  /** append generated development secrets to <dir>/.env (default true) */
  readonly writeEnvFile?: boolean;
}

const section = (o: Obj, key: string): Obj => (isObj(o[key]) ? o[key] : {});

function rest(api: Obj, middlewares: unknown, env: Env, warnings: string[]): RestConfig {
  const r = section(api, 'rest');
  const prefix = fileString(r['prefix'], 'api.rest.prefix') ?? '/api';
  if (!/^\/[A-Za-z0-9/_-]*$/.test(prefix)) throw new ConfigError(`api.rest.prefix must be a path such as /api, got "${prefix}"`);
  // Strapi keeps the JSON limit on its body middleware: config/middlewares [{ name: 'strapi::body', config: { jsonLimit } }]
  const body = Array.isArray(middlewares) ? middlewares.find((m): m is Obj => isObj(m) && m['name'] === 'strapi::body') : undefined;
  return {
    prefix: prefix.length > 1 ? prefix.replace(/\/+$/, '') : prefix,
    defaultLimit: fileInt(r['defaultLimit'], 'api.rest.defaultLimit', 25, 1),
    maxLimit: r['maxLimit'] === null ? null : fileInt(r['maxLimit'], 'api.rest.maxLimit', 100, 1),
    withCount: fileBool(r['withCount'], 'api.rest.withCount', true),
    strictParams: fileBool(r['strictParams'], 'api.rest.strictParams', false),
    jsonLimit: fileBytes(body ? section(body, 'config')['jsonLimit'] : undefined, 'middlewares strapi::body jsonLimit', 1024 * 1024),
    queryLimits: queryParserLimits(middlewares, warnings),
    ...responseCache(r, env),
    ...(r['heavyReads'] === undefined ? {} : { heavyReads: heavyReads(r['heavyReads']) }),
  };
}

const HEAVY_READ_SETTINGS: readonly string[] = ['concurrent', 'rows', 'bytes', 'waitMs', 'stalledMs'];

/** `rest.heavyReads`: { concurrent, rows, bytes, waitMs, stalledMs } (src/query/heavy-reads.ts), each optional */
function heavyReads(raw: unknown): HeavyReadLimits {
  if (!isObj(raw)) throw new ConfigError('api.rest.heavyReads must be an object such as { concurrent: 2, rows: 5000, bytes: 4194304 }');
  const unknown = Object.keys(raw).find((k) => !HEAVY_READ_SETTINGS.includes(k));
  if (unknown !== undefined) throw new ConfigError(`api.rest.heavyReads.${unknown} is not a setting: ${HEAVY_READ_SETTINGS.join(', ')} are`);
  const key = (k: keyof HeavyReadLimits) => `api.rest.heavyReads.${k}`;
  return {
    concurrent: fileInt(raw['concurrent'], key('concurrent'), DEFAULT_HEAVY_READS.concurrent, 1),
    rows: fileInt(raw['rows'], key('rows'), DEFAULT_HEAVY_READS.rows, 1),
    bytes: fileInt(raw['bytes'], key('bytes'), DEFAULT_HEAVY_READS.bytes, 1),
    waitMs: fileInt(raw['waitMs'], key('waitMs'), SLOT_WAIT_MS, 1),
    stalledMs: fileInt(raw['stalledMs'], key('stalledMs'), STALLED_READER_MS, 1),
  };
}

function responseCache(r: Obj, env: Env): Pick<RestConfig, 'responseCache'> {
  if (env['FOLIO_RESPONSE_CACHE'] !== undefined && env['FOLIO_RESPONSE_CACHE'] !== '') return { responseCache: envBool(env, 'FOLIO_RESPONSE_CACHE', true) };
  return r['responseCache'] === undefined ? {} : { responseCache: fileBool(r['responseCache'], 'api.rest.responseCache', true) };
}

function i18n(plugins: Obj, env: Env): FolioConfig['i18n'] {
  const cfg = section(section(plugins, 'i18n'), 'config');
  // Strapi 5 takes the first default locale from this variable
  const defaultLocale = fileString(cfg['defaultLocale'], 'plugins.i18n.config.defaultLocale') ?? (env['STRAPI_PLUGIN_I18N_INIT_LOCALE_CODE'] || 'en');
  if (!isLocaleCode(defaultLocale)) throw new ConfigError(`plugins.i18n.config.defaultLocale must be a locale code such as en or pt-BR, got "${defaultLocale}"`);
  const raw = cfg['locales'] ?? [{ code: defaultLocale }];
  if (!Array.isArray(raw)) throw new ConfigError('plugins.i18n.config.locales must be a list of { code, name }');
  const locales: LocaleSeed[] = raw.map((l: unknown, i) => {
    const key = `plugins.i18n.config.locales[${i}]`;
    const code = isObj(l) ? l['code'] : l;
    if (typeof code !== 'string' || !isLocaleCode(code)) throw new ConfigError(`${key}.code must be a locale code such as en or pt-BR, got ${JSON.stringify(code)}`);
    return { code, name: (isObj(l) ? fileString(l['name'], `${key}.name`) : undefined) ?? localeName(code) };
  });
  const dup = locales.find((l, i) => locales.findIndex((o) => o.code === l.code) !== i);
  if (dup) throw new ConfigError(`plugins.i18n.config.locales lists "${dup.code}" twice`);
  return { defaultLocale, locales };
}

function nodeEnvOf(env: Env): FolioConfig['env'] {
  const v = env['NODE_ENV'];
  return v === 'production' || v === 'test' ? v : 'development';
}

function appKeys(server: Obj, env: Env): string[] {
  const fromFile = section(server, 'app')['keys'];
  if (Array.isArray(fromFile) && fromFile.length > 0 && fromFile.every((k) => typeof k === 'string' && k !== '')) return fromFile as string[];
  return (env['APP_KEYS'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
}

/** The address links and redirects name when neither server.url nor PUBLIC_URL gives one. */
export function defaultPublicUrl(port: number): string {
  return `http://localhost:${port}`;
}

export async function loadConfig(dirArg: string, processEnv: NodeJS.ProcessEnv = process.env, opts: LoadConfigOptions = {}): Promise<LoadedConfig> {
  const dir = resolve(dirArg);
  if (!existsSync(join(dir, 'src'))) throw new ConfigError(`${dir} is not a Folio project: it has no src/ folder`);
  const envFile = join(dir, '.env');
  const fromFile = existsSync(envFile) ? parseDotenv(readFileSync(envFile)) : {};
  // values already in the environment win over .env, as with dotenv
  const env: Env = { ...fromFile, ...processEnv };
  // plugins (upload's UPLOAD_*, S3_*) read the process environment, as dotenv would have set it
  if (processEnv === process.env) for (const [k, v] of Object.entries(fromFile)) process.env[k] ??= v;

  const nodeEnv = nodeEnvOf(env);
  const generated = ensureSecrets(dir, env, nodeEnv === 'production', opts.writeEnvFile ?? true);
  try {
    return await readConfig(dir, env, nodeEnv, generated);
  } catch (e) {
    // the secrets are kept in .env all the same: say so now, as the next start has nothing to say about them
    if (generated.length > 0 && e instanceof ConfigError) throw new ConfigError([e.message, ...generatedNotices(envFile, generated)].join('\n'));
    throw e;
  }
}

async function readConfig(dir: string, env: Env, nodeEnv: FolioConfig['env'], generated: readonly SecretName[]): Promise<LoadedConfig> {
  const warnings: string[] = [];
  const read = (name: string): Promise<Obj | unknown[] | undefined> => readConfigFile(dir, name, env, env['NODE_ENV'] || 'development', warnings);
  const object = async (name: string): Promise<Obj> => {
    const v = await read(name);
    if (Array.isArray(v)) throw new ConfigError(`config/${name}: expected an object, got a list`);
    return v ?? {};
  };
  const [api, server, database, plugins, admin] = (await Promise.all(['api', 'server', 'database', 'plugins', 'admin'].map(object))) as [Obj, Obj, Obj, Obj, Obj];
  const middlewares = await read('middlewares');
  const customFields = customFieldsConfig(await object('custom-fields'));
  const schemaModules = await loadSchemaModules(dir);

  const port = server['port'] !== undefined ? fileInt(server['port'], 'server.port', 1337, 0, 65535) : envInt(env, 'PORT', 1337, 0, 65535);
  const host = fileString(server['host'], 'server.host') || env['HOST'] || '0.0.0.0';
  const keys = appKeys(server, env);
  const jwtSecret = fileString(section(section(plugins, 'users-permissions'), 'config')['jwtSecret'], 'plugins.users-permissions.config.jwtSecret');
  const config: FolioConfig = {
    dir,
    env: nodeEnv,
    host,
    port,
    publicUrl: (fileString(server['url'], 'server.url') || env['PUBLIC_URL'] || defaultPublicUrl(port)).replace(/\/+$/, ''),
    proxy: proxyConfig(server),
    database: databaseConfig(dir, env, database),
    rest: rest(api, middlewares, env, warnings),
    secrets: {
      apiTokenSalt: fileString(section(admin, 'apiToken')['salt'], 'admin.apiToken.salt') || env['API_TOKEN_SALT']!,
      jwtSecret: jwtSecret || env['JWT_SECRET']!,
      appKeys: keys,
    },
    i18n: i18n(plugins, env),
    usersPermissions: usersPermissionsConfig(plugins),
    email: emailConfig(plugins),
    middlewares: middlewaresConfig(middlewares, warnings),
    // Strapi logs every request (strapi::logger) in development and production alike
    logger: envBool(env, 'FOLIO_LOG', nodeEnv !== 'test'),
    customFields: customFields.size > 0 ? customFields : undefined,
    schemaModules: schemaModules.size > 0 ? schemaModules : undefined,
    upload: uploadPluginConfig(plugins, warnings),
  };
  // refresh mode's sessions settings, checked at start-up like every other setting
  if (config.usersPermissions.jwtManagement === 'refresh') sessionConfig(config.usersPermissions.raw);
  warnings.push(...providerNotices(config.usersPermissions.raw), ...pluginsNotRun(plugins), ...installedPluginsNotRun(dir, plugins), ...cronNotRun(server));
  return { config, generated, warnings };
}
