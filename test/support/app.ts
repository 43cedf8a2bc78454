// Starts Folio on the example app against a fresh database and talks to it over real HTTP.
import { fileURLToPath } from 'node:url';
import { createApp, type App, type AppOptions } from '../../src/app.js';
import type { FolioConfig } from '../../src/config/types.js';
import type { ApiTokenType } from '../../src/auth/api-tokens.js';
import { createTestDatabase } from './database.js';
import { DEFAULT_MIDDLEWARES } from '../../src/config/middlewares-config.js';
import { DEFAULT_QUERY_LIMITS } from '../../src/config/query-parser-config.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';
import { emailConfig } from '../../src/config/email-config.js';
import { StatementLog } from './statement-log.js';

export const EXAMPLE_DIR = fileURLToPath(new URL('../../examples/blog', import.meta.url));

/** the rest settings tests start with: Strapi's defaults, the response cache as the dialect has it */
export const TEST_REST: FolioConfig['rest'] = {
  prefix: '/api',
  defaultLimit: 25,
  maxLimit: 100,
  withCount: true,
  strictParams: false,
  jsonLimit: 1024 * 1024,
  queryLimits: DEFAULT_QUERY_LIMITS,
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON
export interface Response<T = any> {
  status: number;
  body: T;
  text: string;
  headers: Headers;
}

export interface RequestOptions {
  body?: unknown;
  token?: string | null;
  headers?: Record<string, string>;
  raw?: string | FormData;
}

export interface TestApp {
  readonly app: App;
  readonly url: string;
  /** a full-access token */
  readonly token: string;
  tokenOf(type: ApiTokenType, permissions?: string[]): Promise<string>;
  request<T = any>(method: string, path: string, opts?: RequestOptions): Promise<Response<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  get<T = any>(path: string, opts?: RequestOptions): Promise<Response<T>>; // eslint-disable-line @typescript-eslint/no-explicit-any
  statements(): number;
  /** statements run so far leaving out the per-request bookkeeping (statement-log.ts) */
  dataStatements(): number;
  close(): Promise<void>;
}

export function testConfig(database: FolioConfig['database'], over: Partial<FolioConfig> = {}): FolioConfig {
  const config: FolioConfig = {
    dir: EXAMPLE_DIR,
    env: 'test',
    host: '127.0.0.1',
    port: 0,
    publicUrl: 'http://127.0.0.1',
    proxy: null,
    database,
    rest: TEST_REST,
    secrets: { apiTokenSalt: 'test-salt', jwtSecret: 'test-jwt', appKeys: ['a', 'b'] },
    i18n: {
      defaultLocale: 'en',
      locales: [
        { code: 'en', name: 'English (en)' },
        { code: 'fr', name: 'French (fr)' },
        { code: 'de', name: 'German (de)' },
      ],
    },
    usersPermissions: usersPermissionsConfig({}),
    email: emailConfig({}),
    middlewares: DEFAULT_MIDDLEWARES,
    logger: false,
    ...over,
  };
  // The suite logs in and registers from 127.0.0.1 far more often than the production default
  // allows (5 per 5 minutes per key): the rate limit is off unless a test's config sets `ratelimit`.
  const up = config.usersPermissions;
  if (up.raw['ratelimit'] === undefined) return { ...config, usersPermissions: { ...up, ratelimit: { ...up.ratelimit, enabled: false } } };
  return config;
}

export async function startTestApp(over: Partial<FolioConfig> = {}, options: AppOptions = {}): Promise<TestApp> {
  const db = await createTestDatabase();
  const log = new StatementLog();
  let app: App;
  try {
    app = await createApp(testConfig(db.config, over), { ...options, databasePlugins: [log, ...(options.databasePlugins ?? [])] });
  } catch (e) {
    // a start-up a test expects to fail leaves no database behind on the server
    await db.drop();
    throw e;
  }
  await app.fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = app.fastify.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;
  let n = 0;
  const tokenOf = async (type: ApiTokenType, permissions?: string[]): Promise<string> => (await app.services.tokens.create({ name: `t${++n}`, type, permissions })).accessKey;
  const token = await tokenOf('full-access');
  const request = async (method: string, path: string, opts: RequestOptions = {}): Promise<Response> => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const tok = opts.token === undefined ? token : opts.token;
    if (tok) headers['authorization'] = `Bearer ${tok}`;
    let body: string | FormData | undefined;
    if (opts.raw !== undefined) body = opts.raw;
    else if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = JSON.stringify(opts.body);
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  return {
    app,
    url,
    token,
    tokenOf,
    request,
    get: (path, opts) => request('GET', path, opts),
    statements: () => app.database.statements(),
    dataStatements: () => log.count,
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/** Sends `{ data }` and answers the documentId written; any other status than 200/201 fails the test with the body. */
export async function writeDocument(t: TestApp, method: string, path: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request(method, path, { body: { data } });
  if (r.status !== 200 && r.status !== 201) throw new Error(`${path}: ${r.status} ${r.text}`);
  return r.body.data.documentId as string;
}
