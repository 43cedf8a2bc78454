// The response cache as content read routes use it: look up after the permission check, serialize
// once on a miss and keep the body for the next identical request by the same caller.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caller } from '../auth/authenticate.js';
import { cacheableUrl } from './response-cache.js';
import type { Services } from './services.js';
import { jsonBytes, sendBytes, sendJson } from './send-json.js';

export interface CachedRead {
  /** the stored body for this request, when there is one */
  readonly hit: Buffer | undefined;
  /** sends a freshly read payload, keeping its serialization when the data didn't move meanwhile */
  send(reply: FastifyReply, payload: unknown): Promise<FastifyReply>;
}

/**
 * Whose view a response is: callers with the same key are allowed the same things. Content reads
 * don't depend on who the user is, only on what its role allows, so users of one role share bodies.
 */
function callerKey(caller: Caller): string | null {
  if (caller.kind === 'public') return 'public';
  if (caller.kind === 'api-token' && caller.token) return `token:${caller.token.id}`;
  if (caller.kind === 'user' && caller.roleId !== undefined) return `role:${caller.roleId}`;
  return null;
}

const uncached: CachedRead = { hit: undefined, send: async (reply, payload) => sendJson(reply, payload) };

export async function cachedRead(services: Services, req: FastifyRequest, caller: Caller): Promise<CachedRead> {
  const cache = services.responseCache;
  const who = callerKey(caller);
  // a long URL is not worth its memory: every character of a key is kept (response-cache.ts)
  if (cache === null || who === null || !cacheableUrl(req.url)) return uncached;
  const format = req.headers['strapi-response-format'] === 'v4' ? 'v4' : '';
  const key = `${who}\n${format}\n${req.url}`;
  // the mark authentication read when the request began: read before any of its data, as a lookup needs
  const mark = caller.mark ?? (await services.database.changeMark());
  return {
    hit: cache.get(key, mark),
    async send(reply, payload) {
      const body = jsonBytes(payload);
      cache.set(key, mark, await services.database.changeMark(), body);
      return sendBytes(reply, body);
    },
  };
}
