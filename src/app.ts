// Builds a Folio application: model, database, services and the HTTP server, ready to listen.
import type { KyselyPlugin } from 'kysely';
import Fastify, { type FastifyInstance } from 'fastify';
import type { FolioConfig } from './config/types.js';
import type { Database } from './database/dialect.js';
import type { Model } from './schema/types.js';
import { loadModel } from './schema/load-model.js';
import { connect } from './database/connect.js';
import { syncSchema, type SyncReport } from './database/sync.js';
import { queryStringParser } from './query/parse/qs.js';
import { registerQueryLimitGuard } from './http/query-limit-guard.js';
import { answerClientError, frameworkErrorAnswer } from './http/framework-errors.js';
import { DocumentWriter } from './documents/write.js';
import { ApiTokenService } from './auth/api-tokens.js';
import { RoleStore } from './auth/roles.js';
import { Authenticator } from './auth/authenticate.js';
import { UserTokens } from './plugins/users-permissions/jwt.js';
import { UserStates } from './plugins/users-permissions/user-state.js';
import { userCredentials } from './plugins/users-permissions/credentials.js';
import { Sessions } from './plugins/users-permissions/sessions.js';
import { registerUsersPermissions } from './plugins/users-permissions/plugin.js';
import type { UpContext } from './plugins/users-permissions/context.js';
import { createMailer, type Mailer } from './email/mailer.js';
import { LocaleService } from './i18n/locales.js';
import { registerErrorHandler } from './http/error-handler.js';
import { registerBodyParsers } from './http/json-body.js';
import { registerNotFound } from './http/not-found.js';
import { registerContentRoutes } from './http/content-routes.js';
import type { LocaleView, Services } from './http/services.js';
import { DEFAULT_HEAVY_READS, HeavyReadGate } from './query/heavy-reads.js';
import { ResponseCache } from './http/response-cache.js';
import { registerLocaleRoutes } from './plugins/i18n/routes.js';
import { registerUpload } from './plugins/upload/routes.js';
import { registerNulGuard } from './http/nul-guard.js';
import { registerEncodedRouteNames } from './http/encoded-route-names.js';
import { registerCors } from './http/cors.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { serverLogOptions } from './http/request-log.js';

/**
 * How long a client may take to send a whole request: Node's own default, which Strapi's server runs
 * with. Fastify turns it off (0), so a client sending a body one byte at a time held its connection,
 * and a few thousand such clients every file descriptor, for ever.
 */
export const REQUEST_TIMEOUT_MS = 300_000;

/** memory the response cache may hold; the least recently used bodies go first */
const RESPONSE_CACHE_BYTES = 16 * 1024 * 1024;

export interface App {
  readonly fastify: FastifyInstance;
  readonly config: FolioConfig;
  readonly model: Model;
  readonly database: Database;
  readonly services: Services;
  readonly sync: SyncReport;
  /** the users-permissions area: accounts, roles, mail */
  readonly usersPermissions: UpContext;
  close(): Promise<void>;
}

export interface AppOptions {
  /** Kysely plugins added to the connection: tests make the database refuse chosen statements with them */
  readonly databasePlugins?: readonly KyselyPlugin[];
  /** where log lines go instead of stdout */
  readonly logStream?: { write(line: string): void };
  /** where mail goes instead of the configured provider */
  readonly mailer?: Mailer;
  /** how long a client may take to send one whole request, ms (default REQUEST_TIMEOUT_MS) */
  readonly requestTimeoutMs?: number;
}

function localeView(locales: LocaleService): LocaleView {
  // requests naming unknown locales together share one read (anyone may send ?locale=zz)
  let reading: Promise<void> | null = null;
  return {
    codes: () => locales.codes(),
    defaultCode: () => locales.currentDefault(),
    refresh: () =>
      (reading ??= locales
        .list()
        .then(() => undefined)
        .finally(() => {
          reading = null;
        })),
  };
}

export async function createApp(config: FolioConfig, options: AppOptions = {}): Promise<App> {
  const model = loadModel(config.dir, { customFields: config.customFields, schemaModules: config.schemaModules });
  const database = await connect(config.database, options.databasePlugins);
  let mailer: Mailer | undefined;
  try {
    const sync = await syncSchema(database, model);
    const roles = new RoleStore(database);
    await roles.seed();
    const locales = new LocaleService(database);
    await locales.seed(config.i18n);
    const view = localeView(locales);
    const tokens = new ApiTokenService(database, config.secrets.apiTokenSalt);
    const userTokens = new UserTokens(config.secrets.jwtSecret, config.usersPermissions.jwt);
    const sessions = config.usersPermissions.jwtManagement === 'refresh' ? new Sessions(database, config.secrets.jwtSecret, config.usersPermissions) : null;
    mailer = options.mailer ?? createMailer(config.email, { env: config.env, log: (line) => console.log(line) });
    const readContext = {
      model,
      database,
      get defaultLocale() {
        return view.defaultCode();
      },
    };
    const writer = new DocumentWriter({
      model,
      database,
      get defaultLocale() {
        return view.defaultCode();
      },
    });
    const services: Services = {
      config,
      model,
      database,
      readContext,
      writer,
      roles,
      tokens,
      locales: view,
      responseCache: (config.rest.responseCache ?? database.seesOtherWriters) ? new ResponseCache(RESPONSE_CACHE_BYTES) : null,
      heavyReads: new HeavyReadGate(config.rest.heavyReads ?? DEFAULT_HEAVY_READS),
      authenticator: new Authenticator(
        database,
        tokens,
        roles,
        userCredentials(userTokens, new UserStates(database, model), () => config.usersPermissions.advanced.email_confirmation, sessions),
      ),
    };
    const requestTimeout = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    let staticHeaders: Readonly<Record<string, string>> = {};
    const fastify = Fastify({
      // without request logging, server errors (500s) are still written
      ...serverLogOptions(config.logger, options.logStream),
      // any path parameter reaches its route, which answers an over-long id as the missing document it names
      // (the router's default of 100 characters answered a 414 of its own); the limit guards regex parameters, which Folio has none of
      routerOptions: { ignoreTrailingSlash: true, caseSensitive: false, querystringParser: queryStringParser(config.rest.queryLimits), maxParamLength: 16_384 },
      bodyLimit: config.rest.jsonLimit,
      frameworkErrors: frameworkErrorAnswer(() => staticHeaders),
      clientErrorHandler: answerClientError,
      requestTimeout: requestTimeout,
      // at the default these are Node's own (overdue requests looked for every 30 s, headers given at
      // most 60 s); a shorter timeout (tests) scales them: overdue requests looked for every tenth of
      // it, headers never given more than the whole request (a longer headers timeout keeps Node from
      // ever ending the request). Only then are server options passed: a 200 MB upload under test,
      // 70 s with Node's defaults, ran past two minutes with the same values passed explicitly.
      ...(requestTimeout === REQUEST_TIMEOUT_MS
        ? {}
        : { http: { connectionsCheckingInterval: Math.max(50, Math.round(requestTimeout / 10)), headersTimeout: Math.min(60_000, requestTimeout) } }),
      // a streamed file response must not hold close() for the keep-alive timeout
      forceCloseConnections: true,
    });
    registerErrorHandler(fastify);
    // before any route, so preflights, 404s and errors carry the headers too
    staticHeaders = await registerSecurityHeaders(fastify, config.middlewares.security);
    await registerCors(fastify, config.middlewares.cors);
    registerNulGuard(fastify);
    registerQueryLimitGuard(fastify);
    registerEncodedRouteNames(fastify);
    registerBodyParsers(fastify, config.rest.jsonLimit, config.rest.queryLimits);
    registerNotFound(fastify);
    registerContentRoutes(fastify, services);
    registerLocaleRoutes(fastify, services, locales);
    const usersPermissions = await registerUsersPermissions(fastify, services, userTokens, mailer, sessions);
    await registerUpload(fastify, services);
    await fastify.ready();
    return {
      fastify,
      config,
      model,
      database,
      services,
      sync,
      usersPermissions,
      async close() {
        await fastify.close();
        await mailer?.close();
        await database.close();
      },
    };
  } catch (e) {
    await database.close();
    throw e;
  }
}
