// API tokens: created by the CLI, stored as HMAC-SHA512 hashes, verified on every request.
import { createHmac, randomBytes } from 'node:crypto';
import type { Database } from '../database/dialect.js';
import { ValidationError } from '../errors.js';
import { formatDatetime } from '../documents/format-value.js';

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
  lifespanDays?: number | null;
}

const ACTION = /^(api|plugin)::[a-z0-9-]+\.[a-zA-Z0-9-]+\.[a-zA-Z]+$/;
const DAY = 24 * 60 * 60 * 1000;
const HOUR = 60 * 60 * 1000;

export function hashAccessKey(accessKey: string, salt: string): string {
  return createHmac('sha512', salt).update(accessKey).digest('hex');
}

function toToken(r: Record<string, unknown>): ApiToken {
  const permissions = typeof r['permissions'] === 'string' ? (JSON.parse(r['permissions']) as string[]) : [];
  return {
    id: Number(r['id']), name: String(r['name']), description: (r['description'] as string | null) ?? null,
    type: r['type'] as ApiTokenType, permissions,
    lifespan: r['lifespan'] === null || r['lifespan'] === undefined ? null : Number(r['lifespan']),
    expiresAt: formatDatetime(r['expires_at']), lastUsedAt: formatDatetime(r['last_used_at']),
    createdAt: formatDatetime(r['created_at']) ?? '',
  };
}

export class ApiTokenService {
  /** hash → token, so verifying a known key costs no query */
  private readonly cache = new Map<string, ApiToken>();

  constructor(private readonly database: Database, private readonly salt: string) {}

  async create(input: CreateTokenInput): Promise<{ token: ApiToken; accessKey: string }> {
    const name = input.name?.trim();
    if (!name) throw new ValidationError('name is a required field');
    if (!API_TOKEN_TYPES.includes(input.type)) throw new ValidationError(`type must be one of the following values: ${API_TOKEN_TYPES.join(', ')}`);
    const permissions = input.type === 'custom' ? [...new Set(input.permissions ?? [])] : [];
    if (input.type === 'custom' && permissions.length === 0) throw new ValidationError('A custom token needs at least one permission');
    const bad = permissions.find((p) => !ACTION.test(p));
    if (bad) throw new ValidationError(`Unknown permission "${bad}": expected an action like api::article.article.find`);
    const days = input.lifespanDays ?? null;
    if (days !== null && (!Number.isInteger(days) || days <= 0)) throw new ValidationError('lifespan must be a positive number of days');
    const { db, dialect } = this.database;
    if (await db.selectFrom('folio_api_tokens').select('id').where('name', '=', name).executeTakeFirst()) {
      throw new ValidationError('Name already taken');
    }
    const accessKey = randomBytes(64).toString('hex');
    const now = new Date();
    const lifespan = days === null ? null : days * DAY;
    await db.insertInto('folio_api_tokens').values({
      name, description: input.description ?? null, type: input.type, access_key: hashAccessKey(accessKey, this.salt),
      permissions: JSON.stringify(permissions), lifespan,
      expires_at: lifespan === null ? null : dialect.toDatetime(new Date(now.getTime() + lifespan)),
      last_used_at: null, created_at: dialect.toDatetime(now), updated_at: dialect.toDatetime(now),
    }).execute();
    const row = await db.selectFrom('folio_api_tokens').selectAll().where('name', '=', name).executeTakeFirstOrThrow();
    return { token: toToken(row as Record<string, unknown>), accessKey };
  }

  async list(): Promise<ApiToken[]> {
    const rows = await this.database.db.selectFrom('folio_api_tokens').selectAll().orderBy('id').execute();
    return rows.map((r) => toToken(r as Record<string, unknown>));
  }

  async revoke(nameOrId: string): Promise<boolean> {
    const db = this.database.db;
    const byId = /^\d+$/.test(nameOrId);
    const r = await db.deleteFrom('folio_api_tokens').where(byId ? 'id' : 'name', '=', byId ? Number(nameOrId) : nameOrId).executeTakeFirst();
    this.cache.clear();
    return Number(r.numDeletedRows) > 0;
  }

  async verify(accessKey: string): Promise<ApiToken | 'expired' | null> {
    const hash = hashAccessKey(accessKey, this.salt);
    let token = this.cache.get(hash);
    if (!token) {
      const row = await this.database.db.selectFrom('folio_api_tokens').selectAll().where('access_key', '=', hash).executeTakeFirst();
      if (!row) return null;
      token = toToken(row as Record<string, unknown>);
      this.cache.set(hash, token);
    }
    const now = Date.now();
    if (token.expiresAt !== null && Date.parse(token.expiresAt) <= now) {
      this.cache.delete(hash);
      return 'expired';
    }
    if (token.lastUsedAt === null || now - Date.parse(token.lastUsedAt) > HOUR) {
      const at = new Date(now);
      token.lastUsedAt = at.toISOString();
      await this.database.db.updateTable('folio_api_tokens').set({ last_used_at: this.database.dialect.toDatetime(at) }).where('id', '=', token.id).execute();
    }
    return token;
  }
}
