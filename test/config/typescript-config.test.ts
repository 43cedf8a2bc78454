// config/*.ts in Strapi's usual shape loads unchanged: types stripped (not checked), env() helpers
// given, relative imports followed, __dirname where Strapi's compiled config would be.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { ConfigError } from '../../src/errors.js';
import { project, SECRETS } from './helpers.js';

const load = (dir: string, env: Record<string, string> = {}) => loadConfig(dir, { ...SECRETS, ...env }, { writeEnvFile: false });

// the files `npx create-strapi-app --typescript` writes, as they are
const STRAPI_TS = {
  'config/server.ts': `
import type { Core } from '@strapi/strapi';

const config = ({ env }: Core.Config.Shared.ConfigParams): Core.Config.Server => ({
  host: env('HOST', '0.0.0.0'),
  port: env.int('PORT', 1337),
  app: {
    keys: env.array('APP_KEYS'),
  },
});

export default config;
`,
  'config/admin.ts': `
export default ({ env }) => ({
  auth: { secret: env('ADMIN_JWT_SECRET') },
  apiToken: { salt: env('API_TOKEN_SALT') },
  flags: { nps: env.bool('FLAG_NPS', true) },
});
`,
  'config/database.ts': `
import path from 'path';

export default ({ env }) => {
  const client = env('DATABASE_CLIENT', 'sqlite');
  const connections = {
    postgres: {
      connection: {
        host: env('DATABASE_HOST', 'localhost'),
        port: env.int('DATABASE_PORT', 5432),
        database: env('DATABASE_NAME', 'strapi'),
        user: env('DATABASE_USERNAME', 'strapi'),
        password: env('DATABASE_PASSWORD', 'strapi'),
        ssl: env.bool('DATABASE_SSL', false) && { rejectUnauthorized: env.bool('DATABASE_SSL_REJECT_UNAUTHORIZED', true) },
      },
      pool: { min: env.int('DATABASE_POOL_MIN', 2), max: env.int('DATABASE_POOL_MAX', 10) },
    },
    sqlite: {
      connection: {
        filename: path.join(__dirname, '..', '..', env('DATABASE_FILENAME', '.tmp/data.db')),
      },
      useNullAsDefault: true,
    },
  };

  return {
    connection: {
      client,
      ...connections[client],
      acquireConnectionTimeout: env.int('DATABASE_CONNECTION_TIMEOUT', 60000),
    },
  };
};
`,
  'config/api.ts': `
interface RestLimits { defaultLimit: number; maxLimit: number }
const limits: RestLimits = { defaultLimit: 10, maxLimit: 50 };
export default {
  rest: { ...limits, withCount: true },
};
`,
  'config/plugins.ts': `
import { locales } from './locales';

export default ({ env }) => ({
  i18n: { config: { defaultLocale: env('DEFAULT_LOCALE', 'en'), locales } },
  'users-permissions': { config: { jwt: { expiresIn: env('JWT_TTL', '7d') } } },
});
`,
  'config/locales.ts': `export const locales: { code: string }[] = [{ code: 'en' }, { code: 'fr' }];\n`,
};

describe('TypeScript config files', () => {
  it("Strapi's TypeScript template loads unchanged", async () => {
    const dir = project(STRAPI_TS);
    const { config, warnings } = await load(dir, { PORT: '4000', APP_KEYS: 'a,b', DEFAULT_LOCALE: 'fr' });
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({ port: 4000, host: '0.0.0.0', secrets: { appKeys: ['a', 'b'], apiTokenSalt: 'salt' } });
    // __dirname is dist/config, where Strapi runs compiled config from: ../.. is the project
    expect(config.database).toEqual({ client: 'sqlite', filename: join(dir, '.tmp', 'data.db') });
    expect(config.rest).toMatchObject({ defaultLimit: 10, maxLimit: 50, withCount: true });
    expect(config.i18n).toEqual({
      defaultLocale: 'fr',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
      ],
    });
    expect(config.usersPermissions.jwt.expiresInSeconds).toBe(7 * 86_400);
  });

  it('env() helpers: int, float, bool, array, json, date', async () => {
    const dir = project({
      'config/server.ts': `
export default ({ env }) => {
  const seen = {
    int: env.int('N'),
    float: env.float('F'),
    bool: env.bool('B'),
    array: env.array('A'),
    json: env.json('J'),
    date: env.date('D').toISOString(),
    missing: env.int('NOPE', 7),
  };
  if (JSON.stringify(seen) !== JSON.stringify({ int: 12, float: 1.5, bool: true, array: ['x', 'y'], json: { k: [1] }, date: '2024-01-02T00:00:00.000Z', missing: 7 })) {
    throw new Error('env helpers gave ' + JSON.stringify(seen));
  }
  return { port: env.int('N') };
};
`,
    });
    const { config } = await load(dir, { N: '12', F: '1.5', B: 'true', A: '[x, "y"]', J: '{"k":[1]}', D: '2024-01-02T00:00:00Z' });
    expect(config.port).toBe(12);
  });

  it('config/env/<NODE_ENV>/*.ts is merged over config/*.ts', async () => {
    const dir = project({
      'config/api.ts': 'export default { rest: { defaultLimit: 10 } };',
      'config/env/production/api.ts': 'export default () => ({ rest: { maxLimit: 20 } });',
    });
    const { config } = await load(dir, { NODE_ENV: 'production' });
    expect(config.rest).toMatchObject({ defaultLimit: 10, maxLimit: 20 });
  });

  it('a file that does not compile, or throws, is refused naming it', async () => {
    const broken = await load(project({ 'config/api.ts': 'export default { rest: { defaultLimit: 10 };' })).catch((e: unknown) => e);
    expect(broken).toBeInstanceOf(ConfigError);
    expect((broken as Error).message).toBe('config/api.ts: line 1, column 44: Expected "}" but found ";"');
    const throws = await load(project({ 'config/server.ts': "export default (): never => { throw new Error('no port'); };" })).catch((e: unknown) => e);
    expect(throws).toEqual(new ConfigError('config/server.ts: no port'));
    // a package the project hasn't installed, imported through a relative module (Ararat-chess-federation/website)
    const missing = await load(
      project({
        'config/server.ts': "import { jobs } from './cron';\nexport default { cron: { tasks: jobs } };",
        'config/cron.ts': "import { parseString } from 'xml2js';\nexport const jobs = { parseString };",
      }),
    ).catch((e: unknown) => e);
    expect(missing).toEqual(new ConfigError('config/server.ts: "xml2js" is not installed in the project (npm install): config/cron.ts, which it loads, imports it'));
    // imported by the config file itself, or reached through src/ (waldoclick/waldo-project's cron tasks)
    const direct = await load(project({ 'config/server.ts': "import { parseString } from 'xml2js';\nexport default { parseString };" })).catch((e: unknown) => e);
    expect(direct).toEqual(new ConfigError('config/server.ts: it imports "xml2js", which is not installed in the project (npm install)'));
    const deep = await load(
      project({
        'config/server.ts': "import tasks from './cron-tasks';\nexport default { cron: { tasks } };",
        'config/cron-tasks.ts': "import { logger } from '../src/utils/logtail';\nexport default { daily: () => logger };",
        'src/utils/logtail/index.ts': "import { Logtail } from '@logtail/node';\nexport const logger = new Logtail('x');",
      }),
    ).catch((e: unknown) => e);
    expect(deep).toEqual(
      new ConfigError('config/server.ts: "@logtail/node" is not installed in the project (npm install): src/utils/logtail/index.ts, which it loads, imports it'),
    );
  });

  it("a package's JSON file imported by name is read as Strapi's compiled require() reads it (notum-cz's tiptap settings)", async () => {
    const dir = project({
      'node_modules/@repo/design-system/package.json': JSON.stringify({ name: '@repo/design-system', version: '1.0.0' }),
      'node_modules/@repo/design-system/limits.json': JSON.stringify({ defaultLimit: 7, maxLimit: 70 }),
      'config/api.ts': 'import limits from "@repo/design-system/limits.json";\nexport default { rest: { defaultLimit: limits.defaultLimit, maxLimit: limits.maxLimit } };',
    });
    const { config } = await load(dir);
    expect(config.rest).toMatchObject({ defaultLimit: 7, maxLimit: 70 });
  });

  it('packages load as Strapi compiles config to CommonJS: require(), require.resolve() and named imports from a CommonJS package (notum-cz, pg-connection-string)', async () => {
    const lib = {
      'node_modules/cjs-lib/package.json': JSON.stringify({ name: 'cjs-lib', version: '1.0.0', main: 'index.js' }),
      // a CommonJS package whose named exports Node's ESM loader can't see
      'node_modules/cjs-lib/index.js': 'const parse = (u) => ({ port: Number(u.split(":").pop()) });\nmodule.exports = { parse };',
      'node_modules/cjs-lib/theme.css': 'body{}',
    };
    const { config } = await load(
      project({
        ...lib,
        'config/api.ts': `import { parse } from 'cjs-lib';\nconst lib = require('cjs-lib');\nimport { readFileSync } from 'fs';\nconst css = readFileSync(require.resolve('cjs-lib/theme.css'), 'utf8');\nexport default { rest: { defaultLimit: parse('h:7').port, maxLimit: lib.parse('h:70').port + css.length - 6 } };`,
      }),
    );
    expect(config.rest).toMatchObject({ defaultLimit: 7, maxLimit: 70 });
  });

  it('a TypeScript file written as CommonJS (module.exports =) loads too', async () => {
    const { config } = await load(project({ 'config/api.ts': 'module.exports = { rest: { defaultLimit: 9 } };' }));
    expect(config.rest.defaultLimit).toBe(9);
  });

  it('type errors are not checked: Strapi loads such config too', async () => {
    const { config } = await load(
      project({ 'config/api.ts': 'const limit: string = 5 as unknown as string;\nexport default { rest: { defaultLimit: limit as unknown as number } };' }),
    );
    expect(config.rest.defaultLimit).toBe(5);
  });
});
