// Refresh mode's routes (behaviour.md §10.5): /auth/refresh, /auth/logout, /auth/sessions; the cookie
// variant reads cookies signed with APP_KEYS (plugin.ts parses them). In legacy mode the same routes
// check their permission as Strapi 5.54's do, then answer 404.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { BadRequestError, NotFoundError, UnauthorizedError } from '../../errors.js';
import { authorize } from '../../http/authorize.js';
import { sendJson } from '../../http/send-json.js';
import { UP, type UpContext } from './context.js';
import type { Sessions } from './sessions.js';
import { clearRefreshCookie, cookieMode, handOver } from './auth-response.js';
import { bodyOf } from './body.js';

/** The presented refresh token: the cookie first, else `body.refreshToken`; 'tampered' for a cookie whose signature fails. */
function presented(sessions: Sessions, req: FastifyRequest): string | 'tampered' | null {
  const cookie = req.cookies[sessions.config.cookie.name];
  if (cookie !== undefined && cookie !== '') {
    const r = req.unsignCookie(cookie);
    return r.valid && r.value ? r.value : 'tampered';
  }
  const token = bodyOf(req.body)['refreshToken'];
  return typeof token === 'string' && token !== '' ? token : null;
}

/** each session route: method, path under the prefix, and the action its caller needs */
const SESSION_ROUTES = [
  ['POST', '/auth/refresh', 'auth.refresh'],
  ['POST', '/auth/logout', 'auth.logout'],
  ['GET', '/auth/sessions', 'auth.getSessions'],
  ['DELETE', '/auth/sessions/:sessionId', 'auth.revokeSession'],
] as const;

/**
 * Legacy mode: Strapi 5.54 keeps these routes and their permission checks, and its handlers answer
 * 404 — so a caller without the permission is told 403 (401 for a bad token), one with it 404.
 */
export function registerLegacySessionRoutes(app: FastifyInstance, up: UpContext): void {
  const prefix = up.services.config.rest.prefix;
  for (const [method, path, action] of SESSION_ROUTES) {
    app.route({
      method,
      url: `${prefix}${path}`,
      handler: async (req) => {
        await authorize(up.services, req, `${UP}.${action}`);
        throw new NotFoundError('Not Found');
      },
    });
  }
}

export function registerSessionRoutes(app: FastifyInstance, up: UpContext, sessions: Sessions): void {
  const { services } = up;
  const prefix = services.config.rest.prefix;
  const adv = up.config.advanced;
  const invalid = (): never => {
    throw new UnauthorizedError('Invalid refresh token');
  };

  /** whether a user may still open or keep a session: it exists, isn't blocked, is confirmed where that is required */
  const userOk = async (userId: number): Promise<boolean> => {
    const row = await up.users.rowWhere({ column: 'id', value: userId });
    return !!row && !row.blocked && (!adv.email_confirmation || !!row.confirmed);
  };

  app.post(`${prefix}/auth/refresh`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.refresh`);
    const token = presented(sessions, req);
    if (token === null) throw new BadRequestError('Missing refresh token');
    if (token === 'tampered') invalid();
    const issued = (await sessions.rotate(token as string, userOk)) ?? invalid();
    return sendJson(reply, { jwt: issued.jwt, ...handOver(up, sessions, req, reply, issued.refreshToken) });
  });

  /**
   * The user these routes act for. An API token may hold their actions but has no sessions: Strapi 5.54
   * answers it 401 Missing authentication (logout included, which has nothing to revoke).
   */
  const sessionUser = (caller: Awaited<ReturnType<typeof authorize>>): { id: number; sessionId?: string | undefined } => {
    if (caller.kind !== 'user' || !caller.user) throw new UnauthorizedError('Missing authentication');
    return caller.user;
  };

  app.post(`${prefix}/auth/logout`, async (req, reply) => {
    const user = sessionUser(await authorize(services, req, `${UP}.auth.logout`));
    // the contract: logout revokes every session of the user (Strapi: only the current one without scope: 'all')
    await sessions.revokeUser(user.id);
    if (cookieMode(sessions, req) || req.cookies[sessions.config.cookie.name] !== undefined) clearRefreshCookie(up, sessions, reply);
    return sendJson(reply, { ok: true });
  });

  app.get(`${prefix}/auth/sessions`, async (req, reply) => {
    const user = sessionUser(await authorize(services, req, `${UP}.auth.getSessions`));
    return sendJson(reply, { data: await sessions.list(user.id, user.sessionId) });
  });

  app.delete(`${prefix}/auth/sessions/:sessionId`, async (req, reply) => {
    const user = sessionUser(await authorize(services, req, `${UP}.auth.revokeSession`));
    const { sessionId } = req.params as { sessionId: string };
    if (!(await sessions.revokeOne(user.id, sessionId))) throw new NotFoundError('Session not found');
    return sendJson(reply, { data: {} });
  });
}
