// GET /api/i18n/locales: the locales documents can be written in (a bare array, like Strapi's).
import type { FastifyInstance } from 'fastify';
import { ForbiddenError } from '../../errors.js';
import type { LocaleService } from '../../i18n/locales.js';
import type { Services } from '../../http/services.js';

export const LIST_LOCALES = 'plugin::i18n.locales.listLocales';

export function registerLocaleRoutes(app: FastifyInstance, services: Services, locales: LocaleService): void {
  app.get(`${services.config.rest.prefix}/i18n/locales`, async (req, reply) => {
    const caller = await services.authenticator.authenticate(req.headers.authorization);
    if (!caller.ability.can(LIST_LOCALES)) throw new ForbiddenError('Forbidden');
    return reply.send(await locales.list());
  });
}
