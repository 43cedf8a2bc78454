// Refresh mode (`jwtManagement: 'refresh'`, behaviour.md §10.5): sessions in the database, so every
// process sees a rotation or a revocation by any other at once.
//
// Each refresh token names one session row. Refreshing marks that row `rotated` (a conditional
// update: of two processes racing with one token, one wins) and adds the next row of the same
// family, with the family's login time and absolute expiry. Presenting a rotated token again is
// refused, and revokes the whole family: someone holds a copy of a token already used (theft).
// An access token is accepted while its session row is not revoked; the row's state is read once per
// change mark (src/auth/fresh.ts), like a user's state, so a revocation counts from the next request.
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';
import type { Database } from '../../database/dialect.js';
import { lockKey } from '../../database/key-lock.js';
import { writeTransaction } from '../../database/write-transaction.js';
import type { Tx } from '../../documents/store/rows.js';
import { ConfigError } from '../../errors.js';
import { isObj, type Obj } from '../../config/config-files.js';
import type { UsersPermissionsConfig } from './config.js';
import { durationSeconds } from './duration.js';

const TABLE = 'folio_sessions';
const ORIGIN = 'users-permissions';
const KEY = 'plugins.users-permissions.config.sessions';
const MAX_ROW_ID = 2 ** 31 - 1;
/** session states one process keeps between writes */
const MAX_KEPT = 10_000;
const SESSION_ID = /^[0-9a-f]{32}$/;

export interface SessionConfig {
  readonly accessTokenLifespan: number;
  readonly idleRefreshTokenLifespan: number;
  readonly maxRefreshTokenLifespan: number;
  readonly httpOnly: boolean;
  readonly cookie: {
    readonly name: string;
    /** undefined: only in production */
    readonly secure: boolean | undefined;
    readonly sameSite: 'lax' | 'strict' | 'none';
    readonly path: string;
    readonly domain: string | undefined;
    /** milliseconds; undefined: a session cookie */
    readonly maxAge: number | undefined;
  };
}

function obj(v: unknown, key: string): Obj {
  if (v === undefined || v === null) return {};
  if (!isObj(v)) throw new ConfigError(`${key} must be an object`);
  return v;
}

function optString(v: unknown, key: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string' || v === '') throw new ConfigError(`${key} must be a non-empty string`);
  return v;
}

function optBool(v: unknown, key: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw new ConfigError(`${key} must be true or false`);
  return v;
}

/** `users-permissions.config.sessions`, with Strapi's names and defaults. */
export function sessionConfig(raw: Obj): SessionConfig {
  const s = obj(raw['sessions'], KEY);
  const c = obj(s['cookie'], `${KEY}.cookie`);
  const sameSite = optString(c['sameSite'], `${KEY}.cookie.sameSite`)?.toLowerCase() ?? 'lax';
  if (sameSite !== 'lax' && sameSite !== 'strict' && sameSite !== 'none') throw new ConfigError(`${KEY}.cookie.sameSite must be "lax", "strict" or "none"`);
  const maxAge = c['maxAge'];
  if (maxAge !== undefined && maxAge !== null && !(typeof maxAge === 'number' && Number.isInteger(maxAge) && maxAge > 0)) {
    throw new ConfigError(`${KEY}.cookie.maxAge must be a number of milliseconds`);
  }
  const name = optString(c['name'], `${KEY}.cookie.name`) ?? 'strapi_up_refresh';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) throw new ConfigError(`${KEY}.cookie.name must be a cookie name (letters, digits, - _ . and the like)`);
  const idle = durationSeconds(s['idleRefreshTokenLifespan'] ?? 14 * 86400, `${KEY}.idleRefreshTokenLifespan`);
  const max = durationSeconds(s['maxRefreshTokenLifespan'] ?? 30 * 86400, `${KEY}.maxRefreshTokenLifespan`);
  return {
    accessTokenLifespan: durationSeconds(s['accessTokenLifespan'] ?? 600, `${KEY}.accessTokenLifespan`),
    idleRefreshTokenLifespan: idle,
    maxRefreshTokenLifespan: max,
    httpOnly: optBool(s['httpOnly'], `${KEY}.httpOnly`) ?? false,
    cookie: {
      name,
      secure: optBool(c['secure'], `${KEY}.cookie.secure`),
      sameSite,
      path: optString(c['path'], `${KEY}.cookie.path`) ?? '/',
      domain: optString(c['domain'], `${KEY}.cookie.domain`),
      maxAge: typeof maxAge === 'number' ? maxAge : undefined,
    },
  };
}

export interface SessionView {
  readonly id: string;
  readonly deviceId: string | null;
  /** present only when the login's User-Agent was recognised, as in Strapi */
  readonly deviceName?: string;
  readonly current: boolean;
  readonly loginAt: string;
  readonly lastActiveAt: string;
}

export interface Issued {
  readonly jwt: string;
  readonly refreshToken: string;
}

interface Claims {
  readonly userId: number;
  readonly sessionId: string;
}

type Status = 'active' | 'rotated' | 'revoked';

interface NewSession {
  readonly sessionId: string;
  readonly userId: number;
  readonly deviceId: string | null;
  readonly deviceName: string | null;
  readonly familyId: string;
  /** when the family's first session signed in */
  readonly loginAt: number;
  readonly now: number;
  readonly expires: number;
  readonly absolute: number;
}

async function insertActive(tx: Tx, s: NewSession): Promise<void> {
  await tx
    .insertInto(TABLE)
    .values({
      session_id: s.sessionId,
      user_id: s.userId,
      device_id: s.deviceId,
      device_name: s.deviceName,
      family_id: s.familyId,
      origin: ORIGIN,
      status: 'active',
      login_at: s.loginAt,
      created_at: s.now,
      last_active_at: s.now,
      expires_at: s.expires,
      absolute_expires_at: s.absolute,
    })
    .execute();
}

export class Sessions {
  readonly config: SessionConfig;
  private readonly key: Uint8Array;
  private readonly alg: UsersPermissionsConfig['jwt']['algorithm'];
  private kept = new Map<string, { userId: number; status: Status } | null>();
  private keptMark = '';

  constructor(
    private readonly database: Database,
    secret: string,
    up: UsersPermissionsConfig,
  ) {
    this.config = sessionConfig(up.raw);
    this.key = new TextEncoder().encode(secret);
    this.alg = up.jwt.algorithm;
  }

  private get db() {
    return this.database.db;
  }

  /**
   * Runs `work` in a transaction holding the user's session lock. Every write to a user's sessions
   * takes it, so a revocation and a login or rotation never interleave: on PostgreSQL a revoking
   * UPDATE would otherwise not see a session a concurrent rotation inserts and commits meanwhile, and
   * that session would outlive the logout or password change. A write transaction as a document's
   * is (READ COMMITTED on MySQL, rerun after a deadlock): on MariaDB, different users' first locks and
   * new sessions, inserted at once at REPEATABLE READ, took gap locks and deadlocked, and the loser
   * answered 500 (a registration's account was then kept with no answer to its client).
   */
  private underUserLock<T>(userId: number, work: (tx: Tx) => Promise<T>): Promise<T> {
    return writeTransaction(this.database, async (tx) => {
      await lockKey(tx, this.database.dialect, `sessions:${userId}`);
      return work(tx);
    });
  }

  private async accessToken(userId: number, sessionId: string, now: number): Promise<string> {
    const iat = Math.floor(now / 1000);
    return new SignJWT({ userId: String(userId), sessionId, type: 'access' })
      .setProtectedHeader({ alg: this.alg, typ: 'JWT' })
      .setIssuedAt(iat)
      .setExpirationTime(iat + this.config.accessTokenLifespan)
      .sign(this.key);
  }

  private refreshToken(userId: number, sessionId: string, expiresAt: number): Promise<string> {
    return (
      new SignJWT({ userId: String(userId), sessionId, type: 'refresh' })
        .setProtectedHeader({ alg: this.alg, typ: 'JWT' })
        // rounded up: the row's expiry (milliseconds) is the exact limit
        .setExpirationTime(Math.ceil(expiresAt / 1000))
        .sign(this.key)
    );
  }

  /**
   * A new session (a login): its access and refresh tokens; null when `stillValid`, asked under the
   * user's session lock, says the sign-in no longer holds (its password changed since it was checked).
   * `revokeOthers` (a password change or reset) revokes every other session of the user in the same
   * transaction.
   */
  async create(
    userId: number,
    deviceId: string | null,
    opts: { stillValid?: (tx: Tx) => Promise<boolean>; revokeOthers?: boolean; deviceName?: string | null } = {},
  ): Promise<Issued | null> {
    const now = Date.now();
    const sessionId = newId();
    const absolute = now + this.config.maxRefreshTokenLifespan * 1000;
    const expires = Math.min(now + this.config.idleRefreshTokenLifespan * 1000, absolute);
    const made = await this.underUserLock(userId, async (tx) => {
      if (opts.stillValid && !(await opts.stillValid(tx))) return false;
      if (opts.revokeOthers) await tx.updateTable(TABLE).set({ status: 'revoked' }).where('user_id', '=', userId).where('status', '<>', 'revoked').execute();
      // the user's families past their absolute expiry can never be refreshed again: their rows go
      await tx.deleteFrom(TABLE).where('user_id', '=', userId).where('absolute_expires_at', '<=', now).execute();
      await insertActive(tx, { sessionId, userId, deviceId, deviceName: opts.deviceName ?? null, familyId: sessionId, loginAt: now, now, expires, absolute });
      return true;
    });
    if (!made) return null;
    return { jwt: await this.accessToken(userId, sessionId, now), refreshToken: await this.refreshToken(userId, sessionId, expires) };
  }

  /** The user and session a token of this type names, or null for anything else (bad signature, expired, another type). */
  private async claims(token: string, type: 'access' | 'refresh'): Promise<Claims | null> {
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: [this.alg] });
      if (payload['type'] !== type) return null;
      const uid = payload['userId'];
      const n = typeof uid === 'number' ? uid : typeof uid === 'string' && /^\d{1,10}$/.test(uid) ? Number(uid) : NaN;
      const sessionId = payload['sessionId'];
      if (!Number.isSafeInteger(n) || n < 1 || n > MAX_ROW_ID || typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) return null;
      return { userId: n, sessionId };
    } catch {
      return null;
    }
  }

  /** An access token's user and session while the session stands; null when it isn't one or its session was revoked. */
  async access(token: string, mark: string | null): Promise<Claims | null> {
    const c = await this.claims(token, 'access');
    if (!c) return null;
    const state = await this.state(c.sessionId, mark);
    return state && state.userId === c.userId && state.status !== 'revoked' ? c : null;
  }

  private async state(sessionId: string, mark: string | null): Promise<{ userId: number; status: Status } | null> {
    if (mark !== null) {
      if (mark !== this.keptMark) {
        this.kept = new Map();
        this.keptMark = mark;
      }
      const hit = this.kept.get(sessionId);
      if (hit !== undefined) return hit;
    }
    const row = await this.database.reads.selectFrom(TABLE).select(['user_id', 'status']).where('session_id', '=', sessionId).executeTakeFirst();
    const state = row ? { userId: Number(row.user_id), status: String(row.status) as Status } : null;
    if (mark !== null && this.keptMark === mark && this.kept.size < MAX_KEPT) this.kept.set(sessionId, state);
    return state;
  }

  /**
   * Rotates a refresh token: the session it names becomes `rotated`, and a new session of the same
   * family is issued. null for a token that isn't one, or whose session is rotated (its family is
   * then revoked), revoked, idle too long or past the family's absolute expiry. `userOk` decides
   * whether the user may still sign in (exists, not blocked).
   */
  async rotate(token: string, userOk: (userId: number) => Promise<boolean>): Promise<(Issued & { userId: number }) | null> {
    const c = await this.claims(token, 'refresh');
    if (!c) return null;
    const row = await this.db.selectFrom(TABLE).selectAll().where('session_id', '=', c.sessionId).executeTakeFirst();
    if (!row || Number(row['user_id']) !== c.userId) return null;
    const status = String(row['status']);
    const familyId = String(row['family_id']);
    if (status === 'rotated') {
      await this.revokeFamily(c.userId, familyId);
      return null;
    }
    const now = Date.now();
    if (status !== 'active' || Number(row['expires_at']) <= now || Number(row['absolute_expires_at']) <= now) return null;
    if (!(await userOk(c.userId))) return null;
    const sessionId = newId();
    const absolute = Number(row['absolute_expires_at']);
    const expires = Math.min(now + this.config.idleRefreshTokenLifespan * 1000, absolute);
    // under the lock a revocation committed before this rotation is seen (the session is no longer active)
    const won = await this.underUserLock(c.userId, async (tx) => {
      const r = await tx.updateTable(TABLE).set({ status: 'rotated', last_active_at: now }).where('session_id', '=', c.sessionId).where('status', '=', 'active').executeTakeFirst();
      if (Number(r.numUpdatedRows) !== 1) return false;
      await insertActive(tx, {
        sessionId,
        userId: c.userId,
        deviceId: (row['device_id'] as string | null) ?? null,
        deviceName: (row['device_name'] as string | null) ?? null,
        familyId,
        loginAt: Number(row['login_at']),
        now,
        expires,
        absolute,
      });
      return true;
    });
    if (!won) {
      // another request rotated it between the read and the update (this one presents a used token),
      // or it was revoked meanwhile
      await this.revokeFamily(c.userId, familyId);
      return null;
    }
    return { userId: c.userId, jwt: await this.accessToken(c.userId, sessionId, now), refreshToken: await this.refreshToken(c.userId, sessionId, expires) };
  }

  private async revokeFamily(userId: number, familyId: string): Promise<void> {
    await this.underUserLock(userId, (tx) => tx.updateTable(TABLE).set({ status: 'revoked' }).where('family_id', '=', familyId).where('status', '<>', 'revoked').execute());
  }

  /** Revokes every session of a user (logout, the user deleted or blocked). */
  async revokeUser(userId: number): Promise<void> {
    await this.underUserLock(userId, (tx) => tx.updateTable(TABLE).set({ status: 'revoked' }).where('user_id', '=', userId).where('status', '<>', 'revoked').execute());
  }

  /** Revokes one session of a user (with its family); false when the user has no such session standing. */
  async revokeOne(userId: number, sessionId: string): Promise<boolean> {
    if (!SESSION_ID.test(sessionId)) return false;
    const row = await this.db
      .selectFrom(TABLE)
      .select(['family_id'])
      .where('session_id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('status', '<>', 'revoked')
      .executeTakeFirst();
    if (!row) return false;
    await this.revokeFamily(userId, String(row.family_id));
    return true;
  }

  /**
   * The user's sessions that can still be refreshed: the current one first, then the most recently
   * used (its last rotation, or its login), as Strapi 5.54 orders them for display.
   */
  async list(userId: number, currentSessionId: string | undefined): Promise<SessionView[]> {
    const now = Date.now();
    const rows = await this.db
      .selectFrom(TABLE)
      .select(['session_id', 'device_id', 'device_name', 'family_id', 'login_at', 'last_active_at'])
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .where('expires_at', '>', now)
      .where('absolute_expires_at', '>', now)
      .orderBy('last_active_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    // the access token may name a session rotated since: its family's standing session is the current one
    let currentFamily: string | undefined;
    if (currentSessionId !== undefined) {
      const r = await this.db.selectFrom(TABLE).select('family_id').where('session_id', '=', currentSessionId).executeTakeFirst();
      currentFamily = r ? String(r.family_id) : undefined;
    }
    const views = rows.map((r) => ({
      id: String(r.session_id),
      deviceId: r.device_id === null || r.device_id === undefined ? null : String(r.device_id),
      ...(r.device_name === null || r.device_name === undefined ? {} : { deviceName: String(r.device_name) }),
      current: currentFamily !== undefined && String(r.family_id) === currentFamily,
      loginAt: new Date(Number(r.login_at)).toISOString(),
      lastActiveAt: new Date(Number(r.last_active_at)).toISOString(),
    }));
    // a stable sort: the current session moves to the front, the rest keep the query's order
    return views.sort((a, b) => Number(b.current) - Number(a.current));
  }
}

function newId(): string {
  return randomBytes(16).toString('hex');
}
