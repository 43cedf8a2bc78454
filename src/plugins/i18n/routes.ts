// GET /api/i18n/locales: the locales documents can be written in (a bare array, like Strapi's).
import type { FastifyInstance } from 'fastify';
import { authorize } from '../../http/authorize.js';
import type { LocaleService } from '../../i18n/locales.js';
import type { Services } from '../../http/services.js';

export const LIST_LOCALES = 'plugin::i18n.locales.listLocales';

export function registerLocaleRoutes(app: FastifyInstance, services: Services, locales: LocaleService): void {
  app.get(`${services.config.rest.prefix}/i18n/locales`, async (req, reply) => {
    await authorize(services, req, LIST_LOCALES);
    return reply.send(await locales.list());
  });
}
