// What a successful login, registration, password change or provider callback answers: an access token
// and the user as login shows it (public fields; a registration adds the role for a caller who may find
// roles). In refresh mode (behaviour.md §10.5) the answer opens a session: `{jwt, refreshToken, user}`,
// or `{jwt, user}` with the refresh token in a signed HttpOnly cookie when the config or the request
// asks for the cookie.
import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALLOW_ALL, type Ability } from '../../auth/ability.js';
import { ValidationError } from '../../errors.js';
import { fieldError } from '../../documents/input/messages.js';
import type { UpContext } from './context.js';
import type { Sessions } from './sessions.js';
import { deviceNameOf } from './device-name.js';
import type { Tx } from '../../documents/store/rows.js';
import type { DocumentObject } from '../../documents/read.js';

/** the longest device id kept (a string column) */
const DEVICE_ID_MAX = 255;

/**
 * The optional `deviceId` of a body that opens a session (refresh mode). As Strapi reads it, anything
 * but a non-empty string is no device id; one past the column's length is a 400, checked before the
 * route writes anything.
 */
export function deviceIdOf(body: unknown): string | null {
  const v = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)['deviceId'] : undefined;
  if (typeof v !== 'string' || v === '') return null;
  if (v.length > DEVICE_ID_MAX) throw ValidationError.of([fieldError(['deviceId'], `deviceId must be at most ${DEVICE_ID_MAX} characters`, v)]);
  // no stored text holds U+0000 (PostgreSQL refuses it)
  if (v.includes('\u0000')) throw ValidationError.of([fieldError(['deviceId'], 'deviceId must not contain U+0000', v)]);
  return v;
}

/** whether this request gets its refresh token as a cookie */
export function cookieMode(sessions: Sessions, req: FastifyRequest): boolean {
  return sessions.config.httpOnly || req.headers['x-strapi-refresh-cookie'] === 'httpOnly';
}

function cookieOptions(up: UpContext, sessions: Sessions) {
  const c = sessions.config.cookie;
  return {
    httpOnly: true,
    signed: true,
    sameSite: c.sameSite,
    path: c.path,
    secure: c.secure ?? up.services.config.env === 'production',
    ...(c.domain === undefined ? {} : { domain: c.domain }),
  };
}

/** Sets the refresh cookie (cookie mode), or gives the token to put in the body. */
export function handOver(up: UpContext, sessions: Sessions, req: FastifyRequest, reply: FastifyReply, refreshToken: string): { refreshToken: string } | Record<string, never> {
  if (!cookieMode(sessions, req)) return { refreshToken };
  const maxAge = sessions.config.cookie.maxAge;
  reply.setCookie(sessions.config.cookie.name, refreshToken, { ...cookieOptions(up, sessions), ...(maxAge === undefined ? {} : { maxAge: Math.floor(maxAge / 1000) }) });
  return {};
}

export function clearRefreshCookie(up: UpContext, sessions: Sessions, reply: FastifyReply): void {
  reply.clearCookie(sessions.config.cookie.name, cookieOptions(up, sessions));
}

export interface AuthResponseOptions {
  /** a password change or reset: every session of the user is revoked as the new one opens */
  readonly revokeSessions?: boolean;
  /**
   * a login: the password hash it was checked against. The session opens only while it is still the
   * user's, so a login in flight when the password changes gets no session.
   */
  readonly passwordHash?: string | null;
  /** a registration or password change: without a device id the session gets a random one, as Strapi's */
  readonly newDevice?: boolean;
  /**
   * a registration, password change or reset: the refresh token goes in the JSON even in cookie mode.
   * Strapi 5.54 sets its cookie only on a login and a refresh, and clients written for it read the
   * token of these answers from the body.
   */
  readonly tokenInBody?: boolean;
  /**
   * a registration: the user is shown with its role to a caller who may find roles (a full-access API
   * token), as Strapi's register answers the user it created with its role and sanitizes it for the caller
   */
  readonly viewer?: Ability;
}

/** the user an auth answer carries: public attributes, and the role when the answer is a registration's */
export function answeredUser(up: UpContext, userId: number, viewer: Ability | undefined): Promise<DocumentObject | null> {
  return viewer === undefined ? up.users.view(userId, ALLOW_ALL) : up.users.view(userId, viewer, { populate: 'role' });
}

export async function authResponse(up: UpContext, userId: number, req: FastifyRequest, reply: FastifyReply, opts: AuthResponseOptions = {}): Promise<Record<string, unknown>> {
  const { sessions } = up;
  if (!sessions) return { jwt: await up.tokens.issue(userId), user: await answeredUser(up, userId, opts.viewer) };
  const hash = opts.passwordHash;
  const stillValid =
    hash === undefined
      ? undefined
      : async (tx: Tx): Promise<boolean> => {
          const now = await tx.selectFrom('up_users').select('password').where('id', '=', userId).executeTakeFirst();
          return now !== undefined && (now.password ?? null) === hash;
        };
  // Strapi names the device of a login or registration from its User-Agent, not that of a password change or reset
  const deviceName = opts.revokeSessions ? null : deviceNameOf(req.headers['user-agent']);
  const issued = await sessions.create(userId, deviceIdOf(req.body) ?? (opts.newDevice ? randomUUID() : null), {
    stillValid,
    revokeOthers: opts.revokeSessions === true,
    deviceName,
  });
  if (!issued) throw new ValidationError('Invalid identifier or password');
  const refresh = opts.tokenInBody ? { refreshToken: issued.refreshToken } : handOver(up, sessions, req, reply, issued.refreshToken);
  // a refresh cookie sent with a password change names a session just revoked, and refresh reads the cookie
  // before the body: cleared, the token of this answer works when sent in the body (Strapi leaves it)
  if (opts.revokeSessions && req.cookies[sessions.config.cookie.name] !== undefined) clearRefreshCookie(up, sessions, reply);
  return { jwt: issued.jwt, ...refresh, user: await answeredUser(up, userId, opts.viewer) };
}
