// The users-permissions area in one place: its services, and the auth, provider, users and roles routes.
import fastifyCookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../http/services.js';
import type { Mailer } from '../../email/mailer.js';
import { emailTemplates } from './email-templates.js';
import type { UserTokens } from './jwt.js';
import { Users } from './users.js';
import type { UpContext } from './context.js';
import { registerAuthRoutes } from './auth-routes.js';
import { acceptAuthForms } from './auth-form.js';
import { registerUserRoutes } from './users-routes.js';
import { registerRoleRoutes } from './roles-routes.js';
import { registerRateLimit } from './rate-limit.js';
import type { Sessions } from './sessions.js';
import { registerLegacySessionRoutes, registerSessionRoutes } from './session-routes.js';
import { providerSettings } from './providers/settings.js';
import { ProviderFlows } from './providers/flows.js';
import { registerProviderRoutes } from './providers/routes.js';

export async function registerUsersPermissions(app: FastifyInstance, services: Services, tokens: UserTokens, mailer: Mailer, sessions: Sessions | null = null): Promise<UpContext> {
  const config = services.config.usersPermissions;
  const up: UpContext = {
    services,
    config,
    tokens,
    sessions,
    mailer,
    users: new Users(services),
    templates: emailTemplates(config.raw),
    apiUrl: `${services.config.publicUrl}${services.config.rest.prefix}`,
    logError: (message) => app.log.error(message),
  };
  const providers = providerSettings(config.raw, (name) => `${up.apiUrl}/auth/${name}/callback`);
  // signed cookies: the refresh token's (refresh mode) and a provider login's
  const keys = services.config.secrets.appKeys;
  await app.register(fastifyCookie, { secret: keys.length ? [...keys] : services.config.secrets.jwtSecret });
  if (sessions) registerSessionRoutes(app, up, sessions);
  else registerLegacySessionRoutes(app, up);
  // before the routes: it limits those §10.1 marks as they are registered
  registerRateLimit(app, services.database, services.config.rest.prefix, config.ratelimit, services.config.proxy);
  await app.register(async (scope) => {
    await acceptAuthForms(scope);
    // and a text/plain body as its text, which their checks refuse as Strapi's do (not an object)
    scope.addContentTypeParser('text/plain', { parseAs: 'string', bodyLimit: services.config.rest.jsonLimit }, (_req, body, done) => {
      done(null, body === '' ? undefined : body);
    });
    registerAuthRoutes(scope, up);
  });
  registerProviderRoutes(app, up, providers, new ProviderFlows(services.database));
  registerUserRoutes(app, up);
  registerRoleRoutes(app, up);
  return up;
}
