// API tokens: created by the CLI, stored as HMAC-SHA512 hashes, verified on every request.
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { ValidationError } from '../errors.js';
import { formatDatetime } from '../values/format-value.js';
import { rowId } from '../documents/input/refs.js';
import { requestMark } from './fresh.js';

export type ApiTokenType = 'read-only' | 'full-access' | 'custom';
export const API_TOKEN_TYPES: readonly ApiTokenType[] = ['read-only', 'full-access', 'custom'];

export interface ApiToken {
  id: number;
  name: string;
  description: string | null;
  type: ApiTokenType;
  permissions: string[];
  /** ms */
  lifespan: number | null;
  expiresAt: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface CreateTokenInput {
  name: string;
  type: ApiTokenType;
  description?: string;
  permissions?: string[];
  /** Strapi offers 7, 30 and 90; any whole number of days is accepted; null = never expires */
  lifespanDays?: number | null;
}

const TABLE = 'folio_api_tokens';
const ACTION = /^(api|plugin)::[a-z0-9-]+\.[a-zA-Z0-9-]+\.[a-zA-Z]+$/;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;
const NAME_MAX = 255;

export function hashAccessKey(accessKey: string, salt: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

function toToken(r: Record<string, unknown>): ApiToken {
  const perms = typeof r['permissions'] === 'string' ? (JSON.parse(r['permissions']) as unknown) : [];
  return {
    id: Number(r['id']),
    name: String(r['name']),
    description: typeof r['description'] === 'string' ? r['description'] : null,
    type: r['type'] as ApiTokenType,
    permissions: Array.isArray(perms) ? perms.filter((p): p is string => typeof p === 'string') : [],
    // bigint columns come back as strings from pg and mysql2
    lifespan: r['lifespan'] === null || r['lifespan'] === undefined ? null : Number(r['lifespan']),
    expiresAt: formatDatetime(r['expires_at']),
    lastUsedAt: formatDatetime(r['last_used_at']),
    createdAt: formatDatetime(r['created_at']) ?? '',
  };
}

const LAST_EXPIRY = Date.UTC(9999, 11, 31, 23, 59, 59);

function checkInput(input: CreateTokenInput): { name: string; permissions: string[]; lifespan: number | null } {
  const name = typeof input.name === 'string' ? input.name.trim() : '';
  if (!name) throw new ValidationError('name is a required field');
  if (name.length > NAME_MAX) throw new ValidationError(`name must be at most ${NAME_MAX} characters`);
  if (!API_TOKEN_TYPES.includes(input.type)) throw new ValidationError(`type must be one of the following values: ${API_TOKEN_TYPES.join(', ')}`);
  // read-only and full-access tokens get their abilities from the type alone
  const permissions = input.type === 'custom' ? [...new Set(input.permissions ?? [])] : [];
  if (input.type === 'custom' && permissions.length === 0) throw new ValidationError('A custom token needs at least one permission');
  const bad = permissions.find((p) => !ACTION.test(p));
  if (bad !== undefined) throw new ValidationError(`Invalid permission "${bad}": expected an action such as api::article.article.find`);
  const days = input.lifespanDays ?? null;
  if (days !== null && (!Number.isInteger(days) || days <= 0)) throw new ValidationError('lifespan must be a positive whole number of days');
  // an expiry no date column holds (past 9999-12-31) could not be stored, or read back as a date
  if (days !== null && !(Date.now() + days * DAY <= LAST_EXPIRY)) throw new ValidationError('lifespan must end by the year 9999');
  return { name, permissions, lifespan: days === null ? null : days * DAY };
}

export class ApiTokenService {
  /**
   * hash → token, kept while the database's change mark stays put (src/auth/fresh.ts), so verifying a
   * known key usually costs no query and a revocation anywhere counts from the next request on
   */
  private cache = new Map<string, ApiToken>();
  private cacheMark = '';
  /**
   * presented key → its hash, for keys that named a token: the HMAC costs more than the rest of a cached
   * read. Only keys of existing tokens enter, so its size is bounded by the tokens, not by what is sent.
   */
  private readonly hashes = new Map<string, string>();
  constructor(
    private readonly database: Database,
    private readonly salt: string,
  ) {}

  async create(input: CreateTokenInput): Promise<{ token: ApiToken; accessKey: string }> {
    const { name, permissions, lifespan } = checkInput(input);
    const { db, dialect } = this.database;
    const taken = async (): Promise<boolean> => (await db.selectFrom(TABLE).select('id').where('name', '=', name).executeTakeFirst()) !== undefined;
    if (await taken()) throw new ValidationError('Name already taken');
    const accessKey = randomBytes(64).toString('hex');
    const now = new Date();
    try {
      await db
        .insertInto(TABLE)
        .values({
          name,
          description: input.description?.trim() || null,
          type: input.type,
          access_key: hashAccessKey(accessKey, this.salt),
          permissions: JSON.stringify(permissions),
          lifespan,
          expires_at: lifespan === null ? null : dialect.toDatetime(new Date(now.getTime() + lifespan)),
          last_used_at: null,
          created_at: dialect.toDatetime(now),
          updated_at: dialect.toDatetime(now),
        })
        .execute();
    } catch (e) {
      // created by another process since the check (unique index on name)
      if (await taken()) throw new ValidationError('Name already taken');
      throw e;
    }
    const row = await db.selectFrom(TABLE).selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    return { token: toToken(row as Record<string, unknown>), accessKey };
  }

  async list(): Promise<ApiToken[]> {
    const rows = await this.database.db.selectFrom(TABLE).selectAll().orderBy('id').execute();
    return rows.map((r) => toToken(r as Record<string, unknown>));
  }

  /** Deletes the token with this name, or else (for a number) this id. */
  async revoke(nameOrId: string): Promise<boolean> {
    const db = this.database.db;
    let r = await db.deleteFrom(TABLE).where('name', '=', nameOrId).executeTakeFirst();
    const id = rowId(nameOrId);
    if (Number(r.numDeletedRows) === 0 && id !== undefined) {
      r = await db.deleteFrom(TABLE).where('id', '=', id).executeTakeFirst();
    }
    this.cache.clear();
    this.hashes.clear();
    return Number(r.numDeletedRows) > 0;
  }

  /**
   * The token for a presented key: 'expired' when past expiresAt, null when unknown. `mark`: the
   * request's change mark (src/auth/fresh.ts), read here when not given.
   */
  async verify(accessKey: string, given?: string | null): Promise<ApiToken | 'expired' | null> {
    const hash = this.hashes.get(accessKey) ?? hashAccessKey(accessKey, this.salt);
    const now = Date.now();
    const mark = given === undefined ? await requestMark(this.database) : given;
    if (mark === null) this.cache.clear();
    else {
      if (mark !== this.cacheMark) {
        this.cache.clear();
        this.cacheMark = mark;
      }
    }
    let token = this.cache.get(hash);
    if (!token) {
      const row = await this.database.reads.selectFrom(TABLE).selectAll().where('access_key', '=', hash).executeTakeFirst();
      if (!row) {
        this.hashes.delete(accessKey);
        return null;
      }
      token = toToken(row as Record<string, unknown>);
      this.cache.set(hash, token);
      this.hashes.set(accessKey, hash);
    }
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) return 'expired';
    if (token.lastUsedAt === null || now - Date.parse(token.lastUsedAt) >= HOUR) {
      const at = new Date(now);
      // set before the write so concurrent requests don't all write it
      token.lastUsedAt = at.toISOString();
      await this.database.db
        .updateTable(TABLE)
        .set({ last_used_at: this.database.dialect.toDatetime(at) })
        .where('id', '=', token.id)
        .execute();
    }
    return token;
  }
}
