// Unknown routes get the 404 envelope; a known path called with the wrong method gets 405
// (plain text, as Strapi's router answers).
import type { FastifyInstance } from 'fastify';
import { errorBody } from './error-handler.js';
import type { Model } from '../schema/types.js';

export function registerNotFound(app: FastifyInstance, model: Model, prefix: string): void {
  const collections = new Set<string>();
  const singles = new Set<string>();
  for (const t of model.contentTypes.values()) {
    if (t.origin !== 'api') continue;
    (t.kind === 'collectionType' ? collections : singles).add(t.kind === 'collectionType' ? t.pluralName.toLowerCase() : t.singularName.toLowerCase());
  }
  const base = prefix.toLowerCase();
  app.setNotFoundHandler((req, reply) => {
    const path = (req.url.split('?')[0] ?? '').toLowerCase().replace(/\/+$/, '');
    if (path.startsWith(`${base}/`)) {
      const parts = path.slice(base.length + 1).split('/');
      const known = (parts.length === 1 && (collections.has(parts[0]!) || singles.has(parts[0]!))) || (parts.length === 2 && collections.has(parts[0]!));
      if (known) return reply.code(405).type('text/plain; charset=utf-8').send('Method Not Allowed');
    }
    return reply.code(404).send(errorBody(404, 'NotFoundError', 'Not Found', {}));
  });
}
