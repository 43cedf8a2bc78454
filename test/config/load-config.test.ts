import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/errors.js';
import { DEFAULT_MIDDLEWARES } from '../../src/config/middlewares-config.js';
import { DEFAULT_QUERY_LIMITS } from '../../src/config/query-parser-config.js';
import { proxyConfig } from '../../src/config/proxy-config.js';
import { project, SECRETS } from './helpers.js';

const load = (dir: string, env: Record<string, string> = {}) => loadConfig(dir, { ...SECRETS, ...env }, { writeEnvFile: false });

async function configError(dir: string, env: Record<string, string>): Promise<string> {
  const e: unknown = await load(dir, env).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ConfigError);
  return (e as ConfigError).message;
}

describe('defaults', () => {
  it("a project with no config and no environment gets Strapi's defaults", async () => {
    const dir = project();
    const { config, generated, warnings } = await load(dir);
    expect(generated).toEqual([]);
    expect(warnings).toEqual([]);
    expect(config).toEqual({
      dir,
      env: 'development',
      host: '0.0.0.0',
      port: 1337,
      publicUrl: 'http://localhost:1337',
      proxy: null,
      database: { client: 'sqlite', filename: join(dir, '.tmp', 'data.db') },
      rest: { prefix: '/api', defaultLimit: 25, maxLimit: 100, withCount: true, strictParams: false, jsonLimit: 1024 * 1024, queryLimits: DEFAULT_QUERY_LIMITS },
      secrets: { apiTokenSalt: 'salt', jwtSecret: 'jwt', appKeys: ['k1', 'k2'] },
      i18n: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] },
      usersPermissions: {
        jwt: { expiresInSeconds: 30 * 86_400, algorithm: 'HS256' },
        register: { allowedFields: [] },
        jwtManagement: 'legacy-support',
        // the contract's login rate limit: 5 requests per 5 minutes
        ratelimit: { enabled: true, interval: 300_000, max: 5 },
        advanced: {
          unique_email: true,
          allow_register: true,
          email_confirmation: false,
          email_confirmation_redirection: null,
          email_reset_password: null,
          default_role: 'authenticated',
        },
        raw: {},
      },
      email: { provider: null, unavailable: null, providerOptions: {}, defaultFrom: 'Administration Panel <no-reply@strapi.io>', defaultReplyTo: null },
      middlewares: DEFAULT_MIDDLEWARES,
      // a line per request, as Strapi's default strapi::logger
      logger: true,
      upload: { sizeLimit: null, breakpoints: null, allowedTypes: null, deniedTypes: null, uploadsCacheControl: null },
    });
  });

  it('a folder without src/ is not a project', async () => {
    const e = await loadConfig('/nonexistent/folio', {}).catch((err: unknown) => err);
    expect(e).toEqual(new ConfigError('/nonexistent/folio is not a Folio project: it has no src/ folder'));
  });
});

describe("environment (Strapi's names)", () => {
  it('HOST, PORT, PUBLIC_URL, NODE_ENV, FOLIO_LOG', async () => {
    const { config } = await load(project(), { HOST: '127.0.0.1', PORT: '8080', NODE_ENV: 'test', FOLIO_LOG: 'true' });
    expect(config).toMatchObject({ host: '127.0.0.1', port: 8080, publicUrl: 'http://localhost:8080', env: 'test', logger: true });
    const { config: c2 } = await load(project(), { PUBLIC_URL: 'https://cms.example/', NODE_ENV: 'staging', FOLIO_LOG: 'off' });
    expect(c2).toMatchObject({ publicUrl: 'https://cms.example', env: 'development', logger: false });
  });

  it('.env is read, and the environment wins over it', async () => {
    const dir = project({ '.env': 'PORT=4000\nHOST=10.0.0.1\n# a comment\nAPP_KEYS="x,y"\n' });
    const { config } = await loadConfig(dir, { API_TOKEN_SALT: 's', JWT_SECRET: 'j', PORT: '5000' }, { writeEnvFile: false });
    expect(config).toMatchObject({ port: 5000, host: '10.0.0.1', secrets: { apiTokenSalt: 's', jwtSecret: 'j', appKeys: ['x', 'y'] } });
  });

  it('the environment object given is not changed', async () => {
    const env = { PORT: '1' };
    await loadConfig(project(), env, { writeEnvFile: false });
    expect(env).toEqual({ PORT: '1' });
  });

  it.each([
    ['sqlite', 'sqlite'],
    ['better-sqlite3', 'sqlite'],
    ['sqlite3', 'sqlite'],
    ['postgres', 'postgres'],
    ['postgresql', 'postgres'],
    ['pg', 'postgres'],
    ['mysql', 'mysql'],
    ['mysql2', 'mysql'],
    ['mariadb', 'mysql'],
    ['MySQL', 'mysql'],
  ])('DATABASE_CLIENT=%s is %s', async (name, client) => {
    expect((await load(project(), { DATABASE_CLIENT: name })).config.database.client).toBe(client);
  });

  it('a DATABASE_URL without DATABASE_CLIENT picks the client its scheme names; DATABASE_CLIENT, when set, decides', async () => {
    const clientOf = async (env: Record<string, string>): Promise<string> => (await load(project(), env)).config.database.client;
    expect(await clientOf({ DATABASE_URL: 'postgres://u@db/cms' })).toBe('postgres');
    expect(await clientOf({ DATABASE_URL: 'postgresql://u@db/cms' })).toBe('postgres');
    expect(await clientOf({ DATABASE_URL: 'mysql://root@db/cms' })).toBe('mysql');
    expect(await clientOf({ DATABASE_URL: 'mariadb://root@db/cms' })).toBe('mysql');
    expect(await clientOf({ DATABASE_URL: 'redis://cache' })).toBe('sqlite');
    expect(await clientOf({ DATABASE_URL: 'postgres://u@db/cms', DATABASE_CLIENT: 'sqlite' })).toBe('sqlite');
  });

  it('DATABASE_FILENAME is relative to the project', async () => {
    const dir = project();
    expect((await load(dir, { DATABASE_FILENAME: 'db/site.db' })).config.database).toEqual({ client: 'sqlite', filename: join(dir, 'db', 'site.db') });
    expect((await load(dir, { DATABASE_FILENAME: '/var/folio.db' })).config.database.filename).toBe('/var/folio.db');
  });

  it('DATABASE_* for PostgreSQL and MySQL, with their defaults', async () => {
    const { config } = await load(project(), {
      DATABASE_CLIENT: 'postgres',
      DATABASE_HOST: 'db',
      DATABASE_PORT: '6543',
      DATABASE_NAME: 'cms',
      DATABASE_USERNAME: 'u',
      DATABASE_PASSWORD: 'p',
      DATABASE_SCHEMA: 'content',
      DATABASE_SSL: 'true',
      DATABASE_POOL_MAX: '20',
      DATABASE_PREPARED_STATEMENTS: 'false',
      DATABASE_URL: 'postgres://x@y/z',
    });
    expect(config.database).toEqual({
      client: 'postgres',
      url: 'postgres://x@y/z',
      host: 'db',
      port: 6543,
      database: 'cms',
      user: 'u',
      password: 'p',
      schema: 'content',
      ssl: true,
      poolMax: 20,
      preparedStatements: false,
    });
    expect((await load(project(), { DATABASE_CLIENT: 'mysql' })).config.database).toEqual({
      client: 'mysql',
      url: undefined,
      host: '127.0.0.1',
      port: 3306,
      database: 'folio',
      user: 'root',
      password: '',
      schema: undefined,
      ssl: false,
      poolMax: 10,
      preparedStatements: true,
    });
    expect((await load(project(), { DATABASE_CLIENT: 'postgres' })).config.database).toMatchObject({ port: 5432, user: 'postgres' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    [{ PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [{ PORT: '-1' }, 'PORT must be a whole number from 0 to 65535, got "-1"'],
    [{ DATABASE_CLIENT: 'oracle' }, 'DATABASE_CLIENT must be sqlite, postgres or mysql, got "oracle"'],
    [{ DATABASE_CLIENT: 'postgres', DATABASE_PORT: '5432x' }, 'DATABASE_PORT must be a whole number from 1 to 65535, got "5432x"'],
    [{ DATABASE_CLIENT: 'mysql', DATABASE_POOL_MAX: '0' }, 'DATABASE_POOL_MAX must be a whole number from 1 to 9007199254740991, got "0"'],
    [{ DATABASE_CLIENT: 'mysql', DATABASE_SSL: 'maybe' }, 'DATABASE_SSL must be true or false, got "maybe"'],
    [{ DATABASE_CLIENT: 'postgres', DATABASE_PREPARED_STATEMENTS: 'maybe' }, 'DATABASE_PREPARED_STATEMENTS must be true or false, got "maybe"'],
    [{ FOLIO_LOG: 'loud' }, 'FOLIO_LOG must be true or false, got "loud"'],
  ])('%j is refused: %s', async (env, message) => {
    expect(await configError(project(), env)).toBe(message);
  });
});

describe('secrets', () => {
  it('development generates the missing ones, appends them to .env once, and reuses them', async () => {
    const dir = project({ '.env': 'JWT_SECRET=mine' });
    const first = await loadConfig(dir, {});
    expect(first.generated).toEqual(['API_TOKEN_SALT', 'APP_KEYS']);
    expect(first.config.secrets.jwtSecret).toBe('mine');
    expect(first.config.secrets.apiTokenSalt).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(first.config.secrets.appKeys).toHaveLength(4);
    const text = readFileSync(join(dir, '.env'), 'utf8');
    // the existing last line had no newline: it must stay a line of its own
    expect(text.split('\n')[0]).toBe('JWT_SECRET=mine');
    expect(text).toMatch(/^API_TOKEN_SALT=.+$/m);

    const second = await loadConfig(dir, {});
    expect(second.generated).toEqual([]);
    expect(second.config.secrets).toEqual(first.config.secrets);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toBe(text);
  });

  it('creates .env when there is none; writeEnvFile: false leaves the folder alone', async () => {
    const dir = project();
    const dry = await loadConfig(dir, {}, { writeEnvFile: false });
    expect(dry.generated).toEqual(['API_TOKEN_SALT', 'JWT_SECRET', 'APP_KEYS']);
    expect(existsSync(join(dir, '.env'))).toBe(false);
    await loadConfig(dir, {});
    expect(readFileSync(join(dir, '.env'), 'utf8').match(/^[A-Z_]+=/gm)).toEqual(['API_TOKEN_SALT=', 'JWT_SECRET=', 'APP_KEYS=']);
  });

  it.each(['API_TOKEN_SALT', 'JWT_SECRET', 'APP_KEYS'])('production without %s is refused, naming it', async (name) => {
    const env: Record<string, string> = { ...SECRETS, NODE_ENV: 'production' };
    delete env[name];
    const dir = project();
    const e = await loadConfig(dir, env).catch((err: unknown) => err);
    expect(e).toEqual(new ConfigError(`Missing required environment variable ${name} (needed in production)`));
    expect(existsSync(join(dir, '.env'))).toBe(false);
  });

  it('production without several secrets names them all in one error', async () => {
    const e = await loadConfig(project(), { NODE_ENV: 'production', JWT_SECRET: 'j' }).catch((err: unknown) => err);
    expect(e).toEqual(new ConfigError('Missing required environment variables API_TOKEN_SALT, APP_KEYS (needed in production)'));
  });

  it('production with every secret loads', async () => {
    const { config, generated } = await loadConfig(project(), { ...SECRETS, NODE_ENV: 'production' });
    expect(generated).toEqual([]);
    expect(config.env).toBe('production');
  });
});

describe('config/api', () => {
  it('rest.heavyReads: the settings given, the defaults for the others', async () => {
    const { config } = await load(project({ 'config/api.json': JSON.stringify({ rest: { heavyReads: { concurrent: 4, rows: '800' } } }) }));
    expect(config.rest.heavyReads).toEqual({ concurrent: 4, rows: 800, bytes: 4 * 1024 * 1024, waitMs: 60_000, stalledMs: 30_000 });
  });

  it('rest settings from config/api.json', async () => {
    const dir = project({ 'config/api.json': JSON.stringify({ rest: { prefix: '/content/', defaultLimit: 10, maxLimit: null, withCount: false, strictParams: true } }) });
    expect((await load(dir)).config.rest).toEqual({
      prefix: '/content',
      defaultLimit: 10,
      maxLimit: null,
      withCount: false,
      strictParams: true,
      jsonLimit: 1024 * 1024,
      queryLimits: DEFAULT_QUERY_LIMITS,
    });
  });

  it.each([
    [{ defaultLimit: 0 }, 'api.rest.defaultLimit must be a positive integer, got 0'],
    [{ defaultLimit: 2.5 }, 'api.rest.defaultLimit must be a positive integer, got 2.5'],
    [{ defaultLimit: 'ten' }, 'api.rest.defaultLimit must be a positive integer, got "ten"'],
    [{ maxLimit: -5 }, 'api.rest.maxLimit must be a positive integer, got -5'],
    [{ withCount: 'yes' }, 'api.rest.withCount must be true or false, got "yes"'],
    [{ strictParams: 1 }, 'api.rest.strictParams must be true or false, got 1'],
    [{ prefix: 'api' }, 'api.rest.prefix must be a path such as /api, got "api"'],
    [{ heavyReads: 2 }, 'api.rest.heavyReads must be an object such as { concurrent: 2, rows: 5000, bytes: 4194304 }'],
    [{ heavyReads: { concurrent: 0 } }, 'api.rest.heavyReads.concurrent must be a positive integer, got 0'],
    [{ heavyReads: { slots: 4 } }, 'api.rest.heavyReads.slots is not a setting: concurrent, rows, bytes, waitMs, stalledMs are'],
  ])('rest %j is refused', async (rest, message) => {
    expect(await configError(project({ 'config/api.json': JSON.stringify({ rest }) }), {})).toBe(message);
  });

  it('a JSON syntax error names the file', async () => {
    const message = await configError(project({ 'config/api.json': '{ "rest": ' }), {});
    expect(message).toMatch(/^config\/api\.json: /);
  });

  it("a CommonJS config/api.js exporting a function of { env } gets Strapi's env helper", async () => {
    const dir = project({
      'config/api.js': `module.exports = ({ env }) => ({ rest: {
        defaultLimit: env.int('API_LIMIT', 25), maxLimit: env.int('API_MAX', 100), withCount: env.bool('API_COUNT', true),
      } });`,
    });
    expect((await load(dir, { API_LIMIT: '50', API_COUNT: 'false' })).config.rest).toMatchObject({ defaultLimit: 50, maxLimit: 100, withCount: false });
  });

  it('an ES module config/api.mjs exporting an object', async () => {
    const dir = project({ 'config/api.mjs': 'export default { rest: { defaultLimit: 5 } };' });
    expect((await load(dir)).config.rest.defaultLimit).toBe(5);
  });

  it('a package the project has not installed is named in one line with the fix, in CommonJS and ES module config files', async () => {
    const direct = project({ 'config/server.js': "const cron = require('node-cron');\nmodule.exports = { cron };" });
    expect(await configError(direct, {})).toBe('config/server.js: it imports "node-cron", which is not installed in the project (npm install)');
    const lazy = project({ 'config/server.js': "module.exports = () => ({ cron: require('@scope/cron-tasks') });" });
    expect(await configError(lazy, {})).toBe('config/server.js: it imports "@scope/cron-tasks", which is not installed in the project (npm install)');
    const esm = project({ 'config/api.mjs': "import limits from 'api-limits';\nexport default { rest: limits };" });
    expect(await configError(esm, {})).toBe('config/api.mjs: it imports "api-limits", which is not installed in the project (npm install)');
  });

  it('a start that fails after generating the secrets says where it kept them, as a start that succeeds does', async () => {
    const dir = project({ 'config/server.js': "module.exports = { cron: require('node-cron') };" });
    const e: unknown = await loadConfig(dir, {}, { writeEnvFile: true }).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    const envFile = join(dir, '.env');
    expect((e as ConfigError).message).toBe(
      [
        'config/server.js: it imports "node-cron", which is not installed in the project (npm install)',
        ...['API_TOKEN_SALT', 'JWT_SECRET', 'APP_KEYS'].map((k) => `Generated ${k} and kept it in ${envFile}`),
      ].join('\n'),
    );
    expect(readFileSync(envFile, 'utf8')).toMatch(/^JWT_SECRET=/m);
    // the next start reads them from .env, and has nothing more to say about them
    const again: unknown = await loadConfig(dir, {}, { writeEnvFile: true }).catch((err: unknown) => err);
    expect((again as ConfigError).message).toBe('config/server.js: it imports "node-cron", which is not installed in the project (npm install)');
  });

  it('a package missing under an installed one names both: the config file does not import the missing one itself (LucaNerlich/m10z)', async () => {
    const files = {
      'node_modules/markdown-to-txt/package.json': JSON.stringify({ name: 'markdown-to-txt', main: 'dist/index.js' }),
      'node_modules/markdown-to-txt/dist/index.js': "module.exports = require('lodash');",
      'node_modules/@feeds/render/package.json': JSON.stringify({ name: '@feeds/render', main: 'index.js' }),
      'node_modules/@feeds/render/index.js': "module.exports = require('markdown-to-txt');",
    };
    const cjs = project({ ...files, 'config/server.js': "const toText = require('@feeds/render');\nmodule.exports = { toText };" });
    expect(await configError(cjs, {})).toBe('config/server.js: "lodash" is not installed in the project (npm install): the package "markdown-to-txt" it loads needs it');
    // a project file the config requires is the one to look at
    const helper = project({
      'config/server.js': "module.exports = { cron: require('./cron-tasks') };",
      'config/cron-tasks.js': "module.exports = require('./helpers/cron-helper.js');",
      'config/helpers/cron-helper.js': "module.exports = require('left-pad');",
    });
    expect(await configError(helper, {})).toBe(
      'config/server.js: "left-pad" is not installed in the project (npm install): config/helpers/cron-helper.js, which it loads, imports it',
    );
    const ts = project({ ...files, 'config/server.ts': "import toText from 'markdown-to-txt';\nexport default { toText };" });
    expect(await configError(ts, {})).toBe('config/server.ts: "lodash" is not installed in the project (npm install): the package "markdown-to-txt" it loads needs it');
  });

  it('of two files with one name, the one a directory lists first is read (plugins.js before plugins.json), as Strapi reads it, and start-up says so', async () => {
    const dir = project({ 'config/api.js': 'module.exports = { rest: { defaultLimit: 7 } };', 'config/api.json': JSON.stringify({ rest: { defaultLimit: 9 } }) });
    const loaded = await load(dir);
    expect(loaded.config.rest.defaultLimit).toBe(7);
    expect(loaded.warnings).toContain('config/api.json is not read: config/api.js is (one config file per name, as in Strapi)');
  });

  it('in a TypeScript project (a tsconfig.json) config/<name>.ts is read, not a .js beside it, as Strapi runs the compiled .ts (RateBox/Rate)', async () => {
    const files = {
      'config/api.ts': 'export default { rest: { defaultLimit: 2 } };',
      'config/api.js': 'module.exports = { rest: { defaultLimit: 50 } };',
      // a stale compiled copy requiring a module that exists only as .ts
      'config/env/production/server.js': "module.exports = { cron: require('../../cron-tasks') };",
      'config/env/production/server.ts': "export default { host: '127.0.0.2' };",
    };
    const ts = project({ ...files, 'tsconfig.json': JSON.stringify({ compilerOptions: { outDir: 'dist' } }) });
    const loaded = await load(ts, { NODE_ENV: 'production' });
    expect(loaded.config.rest.defaultLimit).toBe(2);
    expect(loaded.config.host).toBe('127.0.0.2');
    expect(loaded.warnings).toContain('config/api.js is not read: config/api.ts is (a TypeScript project runs its compiled .ts, as Strapi does)');
    expect(loaded.warnings).toContain(
      'config/env/production/server.js is not read: config/env/production/server.ts is (a TypeScript project runs its compiled .ts, as Strapi does)',
    );
    // without a tsconfig.json the project is JavaScript: the .js is the one Strapi reads
    const js = await load(project({ 'config/api.ts': files['config/api.ts'], 'config/api.js': files['config/api.js'] }));
    expect(js.config.rest.defaultLimit).toBe(50);
    expect(js.warnings).toContain('config/api.ts is not read: config/api.js is (one config file per name, as in Strapi)');
  });

  it('config/env/<NODE_ENV>/ is merged over config/', async () => {
    const dir = project({
      'config/api.json': JSON.stringify({ rest: { defaultLimit: 10, maxLimit: 50 } }),
      'config/env/production/api.json': JSON.stringify({ rest: { maxLimit: 20 } }),
    });
    expect((await load(dir)).config.rest).toMatchObject({ defaultLimit: 10, maxLimit: 50 });
    expect((await load(dir, { NODE_ENV: 'production' })).config.rest).toMatchObject({ defaultLimit: 10, maxLimit: 20 });
  });

  it('a config file that throws names the file; one that exports no object is refused', async () => {
    expect(await configError(project({ 'config/api.js': "module.exports = () => { throw new Error('boom'); };" }), {})).toBe('config/api.js: boom');
    expect(await configError(project({ 'config/api.js': 'module.exports = 42;' }), {})).toBe('config/api.js: expected an object (or a function returning one)');
  });

  it('TypeScript config files are loaded like JavaScript ones (more in typescript-config.test.ts)', async () => {
    const { config, warnings } = await load(project({ 'config/api.ts': 'export default { rest: { defaultLimit: 3 as number } };' }));
    expect(config.rest.defaultLimit).toBe(3);
    expect(warnings).toEqual([]);
  });

  it('the JSON body limit comes from the strapi::body middleware', async () => {
    const mw = (limit: unknown): string => `module.exports = ['strapi::errors', { name: 'strapi::body', config: { jsonLimit: ${JSON.stringify(limit)} } }];`;
    expect((await load(project({ 'config/middlewares.js': mw('2mb') }))).config.rest.jsonLimit).toBe(2 * 1024 * 1024);
    expect((await load(project({ 'config/middlewares.js': mw(1000) }))).config.rest.jsonLimit).toBe(1000);
    expect(await configError(project({ 'config/middlewares.js': mw('lots') }), {})).toBe('middlewares strapi::body jsonLimit must be a size such as 1mb or 524288, got "lots"');
  });

  it('the query-string limits come from the strapi::query middleware, other qs options named as not applied', async () => {
    const mw = (config: string): string => `module.exports = ['strapi::errors', { name: 'strapi::query', config: ${config} }, 'strapi::body'];`;
    expect((await load(project({ 'config/middlewares.js': mw('{ arrayLimit: 2000, parameterLimit: 3000, depth: 30 }') }))).config.rest.queryLimits).toEqual({
      arrayLimit: 2000,
      parameterLimit: 3000,
      depth: 30,
    });
    const some = await load(project({ 'config/middlewares.js': mw('{ arrayLimit: 50, allowDots: true }') }));
    expect(some.config.rest.queryLimits).toEqual({ ...DEFAULT_QUERY_LIMITS, arrayLimit: 50 });
    expect(some.warnings).toEqual(['config/middlewares strapi::query: allowDots not applied (Folio reads arrayLimit, parameterLimit and depth)']);
    expect(await configError(project({ 'config/middlewares.js': mw("{ parameterLimit: 'many' }") }), {})).toBe(
      'middlewares strapi::query parameterLimit must be a whole number from 1 to 100000, got "many"',
    );
    expect(await configError(project({ 'config/middlewares.js': mw('{ depth: 1000 }') }), {})).toBe(
      'middlewares strapi::query depth must be a whole number from 1 to 100, got 1000',
    );
  });
});

describe("config/server, config/database, config/admin (Strapi's project template)", () => {
  const SERVER = `module.exports = ({ env }) => ({
    host: env('HOST', '0.0.0.0'), port: env.int('PORT', 1337), url: env('URL', ''), app: { keys: env.array('APP_KEYS') },
  });`;
  // Strapi 5's generated config/database.js
  const DATABASE = `const path = require('path');
  module.exports = ({ env }) => {
    const client = env('DATABASE_CLIENT', 'sqlite');
    const connections = {
      mysql: { connection: { host: env('DATABASE_HOST', 'localhost'), port: env.int('DATABASE_PORT', 3306), database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'strapi'), password: env('DATABASE_PASSWORD', 'strapi'),
        ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) } },
        pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) } },
      postgres: { connection: { connectionString: env('DATABASE_URL'), host: env('DATABASE_HOST', 'localhost'), port: env.int('DATABASE_PORT', 5432),
        database: env('DATABASE_NAME', 'strapi'), user: env('DATABASE_USERNAME', 'strapi'), password: env('DATABASE_PASSWORD', 'strapi'),
        ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) },
        schema: env('DATABASE_SCHEMA', 'public') }, pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) } },
      sqlite: { connection: { filename: path.join(__dirname, '..', env('DATABASE_FILENAME', '.tmp/data.db')) }, useNullAsDefault: true },
    };
    return { connection: { client, ...connections[client], acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000) } };
  };`;

  it('server.js gives host, port, url and app keys', async () => {
    const dir = project({ 'config/server.js': SERVER });
    const { config } = await load(dir, { PORT: '3000', APP_KEYS: '[a, b,c]' });
    expect(config).toMatchObject({ host: '0.0.0.0', port: 3000, publicUrl: 'http://localhost:3000', secrets: { appKeys: ['a', 'b', 'c'] } });
    expect((await load(dir, { URL: 'https://x.example' })).config.publicUrl).toBe('https://x.example');
    expect(await configError(dir, { PORT: 'abc' })).toBe('server.port must be a whole number from 0 to 65535, got NaN');
  });

  it('database.js: SQLite file next to the config folder', async () => {
    const dir = project({ 'config/database.js': DATABASE });
    expect((await load(dir)).config.database).toEqual({ client: 'sqlite', filename: join(dir, '.tmp', 'data.db') });
  });

  it("database.js: PostgreSQL with the template's defaults and the environment's values", async () => {
    const dir = project({ 'config/database.js': DATABASE });
    const { config } = await load(dir, { DATABASE_CLIENT: 'postgres', DATABASE_HOST: 'db.internal', DATABASE_SSL: 'true', DATABASE_POOL_MAX: '4' });
    expect(config.database).toEqual({
      client: 'postgres',
      url: undefined,
      host: 'db.internal',
      port: 5432,
      database: 'strapi',
      user: 'strapi',
      password: 'strapi',
      schema: 'public',
      ssl: true,
      poolMax: 4,
      preparedStatements: true,
    });
  });

  it("database: connection.statement_timeout (node-postgres' key, which knex passes on) bounds statements; 0 is no bound", async () => {
    const at = (v: unknown): string => project({ 'config/database.json': JSON.stringify({ connection: { client: 'postgres', connection: { statement_timeout: v } } }) });
    expect((await load(at(15000))).config.database.statementTimeout).toBe(15000);
    expect((await load(at(0))).config.database.statementTimeout).toBe(0);
    expect((await load(project({ 'config/database.js': DATABASE }), { DATABASE_CLIENT: 'postgres' })).config.database.statementTimeout).toBeUndefined();
    expect(await configError(at('soon'), {})).toBe('database.connection.connection.statement_timeout must be a whole number from 0 to 2147483647, got "soon"');
  });

  it('database.js: an unknown client is refused naming the key', async () => {
    const dir = project({ 'config/database.json': JSON.stringify({ connection: { client: 'mssql', connection: {} } }) });
    expect(await configError(dir, {})).toBe('database.connection.client must be sqlite, postgres or mysql, got "mssql"');
  });

  it('admin.apiToken.salt and the users-permissions jwtSecret are honoured', async () => {
    const dir = project({
      'config/admin.js': "module.exports = ({ env }) => ({ apiToken: { salt: env('MY_SALT') } });",
      'config/plugins.json': JSON.stringify({ 'users-permissions': { config: { jwtSecret: 'from-file' } } }),
    });
    expect((await load(dir, { MY_SALT: 'from-admin' })).config.secrets).toMatchObject({ apiTokenSalt: 'from-admin', jwtSecret: 'from-file' });
  });
});

describe('config/plugins i18n', () => {
  it('default locale and locales, names filled in where missing', async () => {
    const dir = project({
      'config/plugins.json': JSON.stringify({ i18n: { config: { defaultLocale: 'fr', locales: [{ code: 'fr' }, { code: 'pt-BR', name: 'Português' }, 'de'] } } }),
    });
    expect((await load(dir)).config.i18n).toEqual({
      defaultLocale: 'fr',
      locales: [
        { code: 'fr', name: 'French (fr)' },
        { code: 'pt-BR', name: 'Português' },
        { code: 'de', name: 'German (de)' },
      ],
    });
  });

  it("STRAPI_PLUGIN_I18N_INIT_LOCALE_CODE sets the first default locale when config doesn't", async () => {
    expect((await load(project(), { STRAPI_PLUGIN_I18N_INIT_LOCALE_CODE: 'es' })).config.i18n).toEqual({
      defaultLocale: 'es',
      locales: [{ code: 'es', name: 'Spanish (es)' }],
    });
  });

  it.each([
    [{ defaultLocale: 'English' }, 'plugins.i18n.config.defaultLocale must be a locale code such as en or pt-BR, got "English"'],
    [{ locales: 'en,fr' }, 'plugins.i18n.config.locales must be a list of { code, name }'],
    [{ locales: [{ code: 'en' }, { name: 'French' }] }, 'plugins.i18n.config.locales[1].code must be a locale code such as en or pt-BR, got undefined'],
    [{ locales: [{ code: 'en' }, { code: 'en' }] }, 'plugins.i18n.config.locales lists "en" twice'],
  ])('%j is refused', async (cfg, message) => {
    expect(await configError(project({ 'config/plugins.json': JSON.stringify({ i18n: { config: cfg } }) }), {})).toBe(message);
  });
});

describe('users-permissions and email settings', () => {
  it("reads Strapi's plugin keys, advanced settings included", async () => {
    const dir = project({
      'config/plugins.js': `module.exports = () => ({
      'users-permissions': { config: { jwt: { expiresIn: '7d' }, register: { allowedFields: ['bio'] }, advanced: { email_confirmation: true, default_role: 'reader' } } },
      email: { config: { provider: 'nodemailer', providerOptions: { host: 'smtp.test', port: 2525 }, settings: { defaultFrom: 'cms@example.test' } } },
    });`,
    });
    const { config } = await load(dir);
    expect(config.usersPermissions).toMatchObject({ jwt: { expiresInSeconds: 7 * 86_400 }, register: { allowedFields: ['bio'] } });
    expect(config.usersPermissions.advanced).toMatchObject({ email_confirmation: true, default_role: 'reader', unique_email: true, allow_register: true });
    expect(config.email).toMatchObject({ provider: 'nodemailer', providerOptions: { host: 'smtp.test', port: 2525 }, defaultFrom: 'cms@example.test' });
  });

  it('refresh mode loads without a warning, its sessions settings read', async () => {
    const { config, warnings } = await load(
      project({
        'config/plugins.js': `module.exports = { 'users-permissions': { config: { jwtManagement: 'refresh', sessions: { accessTokenLifespan: 60, httpOnly: true } } } };`,
      }),
    );
    expect(warnings).toEqual([]);
    expect(config.usersPermissions.jwtManagement).toBe('refresh');
  });

  it.each([
    [`{ 'users-permissions': { config: { advanced: { allow_registration: true } } } }`, 'plugins.users-permissions.config.advanced.allow_registration is not a setting'],
    [`{ 'users-permissions': { config: { jwt: { expiresIn: 'soon' } } } }`, 'plugins.users-permissions.config.jwt.expiresIn must be a duration'],
    [`{ 'users-permissions': { config: { jwt: { algorithm: 'RS256' } } } }`, 'plugins.users-permissions.config.jwt.algorithm must be one of HS256, HS384, HS512'],
    [`{ 'users-permissions': { config: { jwtManagement: 'cookies' } } }`, 'plugins.users-permissions.config.jwtManagement must be "legacy-support" or "refresh"'],
    [
      `{ 'users-permissions': { config: { jwtManagement: 'refresh', sessions: { idleRefreshTokenLifespan: 'soon' } } } }`,
      'plugins.users-permissions.config.sessions.idleRefreshTokenLifespan must be a duration',
    ],
    [
      `{ 'users-permissions': { config: { jwtManagement: 'refresh', sessions: { httpOnly: 'yes' } } } }`,
      'plugins.users-permissions.config.sessions.httpOnly must be true or false',
    ],
    [`{ 'users-permissions': { config: { advanced: { email_confirmation: 'yes' } } } }`, 'plugins.users-permissions.config.advanced.email_confirmation must be true or false'],
  ])('a bad setting is one line naming its key: %s', async (file, message) => {
    const dir = project({ 'config/plugins.js': `module.exports = ${file};` });
    const e = await load(dir).catch((err: unknown) => err);
    expect(e).toBeInstanceOf(ConfigError);
    expect((e as Error).message).toContain(message);
  });
});

describe('config/plugins: plugins Folio does not run', () => {
  it('each enabled plugin other than upload, email, i18n and users-permissions is named at start-up; a disabled one is not', async () => {
    const dir = project({
      'config/plugins.js': `module.exports = {
        graphql: { config: { endpoint: '/graphql', shadowCRUD: true } },
        documentation: { enabled: true },
        'strapi-v5-plugin-populate-deep': { config: { defaultDepth: 5 } },
        sentry: { enabled: false },
        seo: false,
        upload: { config: { sizeLimit: 1000 } },
        email: { config: {} },
        i18n: { config: {} },
        'users-permissions': { config: {} },
      };`,
    });
    const loaded = await load(dir);
    expect(loaded.warnings.filter((w) => w.startsWith('plugins.'))).toEqual([
      'plugins.graphql is not run by Folio: Folio serves the REST API only, so /graphql answers 404 (README, "What is not run")',
      'plugins.documentation is not run by Folio: no OpenAPI documentation is served (README, "What is not run")',
      'plugins.strapi-v5-plugin-populate-deep is not run by Folio: its routes and settings are not served (README, "What is not run")',
    ]);
  });
});

describe('plugins Strapi enables by being installed, and cron tasks', () => {
  it('names each dependency that is a plugin (by its package.json where installed, by its published name where not), unless served, admin-only or named in config/plugins', async () => {
    const dir = project({
      'package.json': JSON.stringify({
        dependencies: {
          '@strapi/strapi': '5.36.1',
          '@strapi/plugin-users-permissions': '5.36.1',
          '@strapi/plugin-cloud': '5.36.1',
          '@strapi/plugin-documentation': '^5.36.1',
          'strapi-plugin-config-sync': '^3.0.0',
          '@acme/strapi-plugin-menus': '1.0.0',
          'my-cms-addon': '1.0.0',
          lodash: '4.17.21',
          '@strapi/plugin-graphql': '5.36.1',
        },
      }),
      'node_modules/my-cms-addon/package.json': JSON.stringify({ name: 'my-cms-addon', strapi: { kind: 'plugin', name: 'addon' } }),
      'node_modules/lodash/package.json': JSON.stringify({ name: 'lodash' }),
      'config/plugins.js': 'module.exports = { graphql: { enabled: false } };',
    });
    const notice = (dep: string, missed: string) =>
      `package.json: "${dep}" is a plugin Strapi runs because it is installed; Folio does not run it: ${missed} (README, "What is not run")`;
    expect((await load(dir)).warnings.filter((w) => w.startsWith('package.json'))).toEqual([
      notice('@strapi/plugin-documentation', 'no OpenAPI documentation is served'),
      notice('strapi-plugin-config-sync', 'its routes and settings are not served'),
      notice('@acme/strapi-plugin-menus', 'its routes and settings are not served'),
      notice('my-cms-addon', 'its routes and settings are not served'),
    ]);
  });

  it('an enabled server.cron is named with its tasks; a disabled one says nothing', async () => {
    const tasks = "{ '0 0 * * *': () => {}, cleanup: { task: () => {}, options: { rule: '*/5 * * * *' } } }";
    const on = project({ 'config/server.js': `module.exports = ({ env }) => ({ cron: { enabled: env.bool('CRON_ENABLED', true), tasks: ${tasks} } });` });
    expect((await load(on)).warnings.filter((w) => w.startsWith('server.cron'))).toEqual([
      'server.cron is not run by Folio: its tasks ("0 0 * * *", "cleanup") never run; schedule that work outside Folio, e.g. a system cron job calling the REST API (README, "What is not run")',
    ]);
    expect((await load(on, { CRON_ENABLED: 'false' })).warnings.filter((w) => w.startsWith('server.cron'))).toEqual([]);
  });
});

describe('config/server proxy', () => {
  const server = (proxy: unknown) => proxyConfig({ proxy });
  it("trusts a proxy's header only with proxy.koa, as Strapi 5 reads it (Strapi 4's proxy: true is not read)", () => {
    expect(server(undefined)).toBeNull();
    expect(server(true)).toBeNull();
    expect(server({ koa: false })).toBeNull();
    expect(server({ koa: true })).toEqual({ header: 'x-forwarded-for', maxIps: 0 });
    expect(server({ koa: true, ipHeader: 'X-Real-IP', maxIpsCount: 1 })).toEqual({ header: 'x-real-ip', maxIps: 1 });
    // Koa's own options object, which Strapi passes on as a truthy `proxy`
    expect(server({ koa: { proxy: true } })).toEqual({ header: 'x-forwarded-for', maxIps: 0 });
  });
  it('refuses a wrong value with the key it is at', () => {
    expect(() => server({ koa: 'yes' })).toThrow('server.proxy.koa must be true or false, got "yes"');
    expect(() => server({ koa: true, maxIpsCount: -1 })).toThrow(/^server\.proxy\.maxIpsCount must be a whole number from 0/);
  });
});
