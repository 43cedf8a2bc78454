// Users through the document machinery: created and updated by the same writer as any content type
// (validation, unique attributes, the role relation), read back through the same query parser and
// reader (private attributes never selected, populate only where the caller may find the target).
// Private columns (password hash, reset and confirmation tokens) are read and set here directly.
import type { Ability } from '../../auth/ability.js';
import { ALLOW_ALL } from '../../auth/ability.js';
import { ApplicationError, ValidationError } from '../../errors.js';
import { checkWriteData } from '../../documents/input/check-write-data.js';
import { validateForPublish } from '../../documents/input/validate-publish.js';
import { readDocument, type DocumentObject } from '../../documents/read.js';
import type { Tx } from '../../documents/store/rows.js';
import type { Database } from '../../database/dialect.js';
import type { ReadLease } from '../../query/heavy-reads.js';
import { lockKey } from '../../database/key-lock.js';
import { parseFindQuery } from '../../query/parse/find-query.js';
import type { FindQuery } from '../../query/ast.js';
import { USER_UID, type ContentType } from '../../schema/types.js';
import type { Services } from '../../http/services.js';
import { parseContextOf } from '../../http/parse-context.js';
import { truthy } from './values.js';
import { hashPassword, passwordProblem } from './passwords.js';
import { isSecret } from './body.js';
import { userValueErrors } from './user-value-errors.js';
import type { RoleRef } from './role-ref.js';
import { documentIdText, rowId } from '../../documents/input/refs.js';
import { storedData } from '../../documents/input/strapi-echo.js';
import { MissingRelationsError } from '../../documents/store/missing-relations.js';
import { POOLED_COSTS } from '../../query/sql/populate-cost.js';

/** The stored row of a user, private columns included: never sent to a client as it is. */
export interface UserRow {
  readonly id: number;
  readonly documentId: string;
  readonly username: string;
  readonly email: string;
  readonly provider: string | null;
  readonly password: string | null;
  readonly confirmed: boolean;
  readonly blocked: boolean;
  readonly resetPasswordToken: string | null;
  readonly confirmationToken: string | null;
}

/**
 * Taken by every user write (after it, its uniqueness checks and role link see every committed
 * write) and by a role's deletion, so a user being given a role and that role being deleted never
 * interleave: on PostgreSQL the deletion's move of the role's users to Public would otherwise miss a
 * link committed meanwhile, leaving a user with a role that no longer exists.
 */
export const USERS_LOCK = USER_UID;

function toRow(r: Record<string, unknown>): UserRow {
  const s = (v: unknown): string | null => (typeof v === 'string' ? v : null);
  return {
    id: Number(r['id']),
    documentId: String(r['document_id']),
    username: String(r['username']),
    email: String(r['email']),
    provider: s(r['provider']),
    password: s(r['password']),
    confirmed: truthy(r['confirmed']),
    blocked: truthy(r['blocked']),
    resetPasswordToken: s(r['reset_password_token']),
    confirmationToken: s(r['confirmation_token']),
  };
}

/**
 * Register's uniqueness rule (behaviour.md §10.6): an account is taken when any user's email or
 * username equals the new email, or equals the new username — among local accounts, or among all
 * when emails are unique across providers. Run inside the write, after the users lock.
 */
export async function accountTaken(tx: Tx, email: string, username: string, uniqueEmail: boolean): Promise<boolean> {
  let q = tx
    .selectFrom('up_users')
    .select('id')
    .where((eb) => eb.or([eb('email', '=', email), eb('username', '=', email), eb('username', '=', username), eb('email', '=', username)]));
  if (!uniqueEmail) q = q.where('provider', '=', 'local');
  return (await q.limit(1).executeTakeFirst()) !== undefined;
}

export type UserWhere = { readonly column: 'id' | 'email' | 'reset_password_token' | 'confirmation_token'; readonly value: string | number };

export class Users {
  readonly type: ContentType;

  constructor(private readonly services: Services) {
    this.type = services.model.contentTypes.get(USER_UID)!;
  }

  private get db(): Tx {
    return this.services.database.db;
  }

  async rowWhere(where: UserWhere): Promise<UserRow | undefined> {
    const r = await this.db.selectFrom('up_users').selectAll().where(where.column, '=', where.value).orderBy('id').limit(1).executeTakeFirst();
    return r ? toRow(r as Record<string, unknown>) : undefined;
  }

  /** The local account an identifier names: its email (any case) or its username (exactly). */
  async rowByLogin(identifier: string): Promise<UserRow | undefined> {
    const r = await this.db
      .selectFrom('up_users')
      .selectAll()
      .where('provider', '=', 'local')
      .where((eb) => eb.or([eb('email', '=', identifier.toLowerCase()), eb('username', '=', identifier)]))
      .orderBy('id')
      .limit(1)
      .executeTakeFirst();
    return r ? toRow(r as Record<string, unknown>) : undefined;
  }

  /** Sets private or account columns (tokens, confirmed, a new password hash) of one user. */
  async setColumns(id: number, cols: Record<string, unknown>): Promise<void> {
    const { dialect } = this.services.database;
    const values: Record<string, unknown> = { updated_at: dialect.toDatetime(new Date()) };
    for (const [k, v] of Object.entries(cols)) values[k] = typeof v === 'boolean' ? dialect.toBoolean(v) : v;
    await this.db.updateTable('up_users').set(values).where('id', '=', id).execute();
  }

  /** Sets `column` to null where it still holds `value` (a code this request set and now takes back). */
  async clearColumnIf(id: number, column: 'reset_password_token' | 'confirmation_token', value: string): Promise<void> {
    await this.db.updateTable('up_users').set(column, null).where('id', '=', id).where(column, '=', value).execute();
  }

  /** A role's row id → its documentId (what the role relation links), or undefined when there is no such role. */
  async roleDocumentId(roleId: number): Promise<string | undefined> {
    const r = await this.db.selectFrom('up_roles').select('document_id').where('id', '=', roleId).executeTakeFirst();
    return r ? String(r.document_id) : undefined;
  }

  /**
   * The documentId of the role a body's reference names, or undefined: an id past the column, or a
   * string no documentId can be, names none and never reaches the database.
   */
  async roleDocument(ref: RoleRef): Promise<string | undefined> {
    if ('id' in ref) {
      const id = rowId(ref.id);
      return id === undefined ? undefined : this.roleDocumentId(id);
    }
    if (!documentIdText(ref.documentId)) return undefined;
    const r = await this.db.selectFrom('up_roles').select('document_id').where('document_id', '=', ref.documentId).executeTakeFirst();
    return r ? String(r.document_id) : undefined;
  }

  async roleIdOfType(type: string): Promise<number | undefined> {
    const r = await this.db.selectFrom('up_roles').select('id').where('type', '=', type).executeTakeFirst();
    return r ? Number(r.id) : undefined;
  }

  /** The model's checks on a user's values as sent (password in clear): min lengths, required, types. */
  validatePlain(values: Record<string, unknown>, isCreate: boolean): void {
    const scalars: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(values)) if (this.type.attributes.get(k)?.kind === 'scalar') scalars[k] = v;
    // a new user takes the defaults of the fields it leaves out, before the required ones are checked
    // (an extension's `account_status`, required with a default, as a real project declares it)
    if (isCreate) for (const a of this.type.attributes.values()) if (a.kind === 'scalar' && a.default !== undefined && !Object.hasOwn(scalars, a.name)) scalars[a.name] = a.default;
    const ruled = validateForPublish(this.services.model, this.type, scalars, { isCreate, draftAndPublish: false });
    const password = values['password'];
    const errors = userValueErrors(this.type, scalars, ruled, typeof password === 'string' ? passwordProblem(password) : null);
    // a password never goes back to the client, not even as the value an error refers to
    if (errors.length) throw ValidationError.of(errors.map((e) => (isSecret(e.path[0] ?? '') ? { path: e.path, message: e.message, name: e.name } : e)));
  }

  /**
   * Writes a user: `values` as attribute names (password in clear; role as a role row id, or as the
   * documentId roleDocument() found). The
   * password is hashed outside the transaction; `check` runs inside it after the users lock, so two
   * writes racing for one email or username can't both pass it.
   */
  async write(values: Record<string, unknown>, existing: UserRow | null, check: (tx: Tx) => Promise<void>): Promise<number> {
    const data: Record<string, unknown> = { ...values };
    if (typeof data['password'] === 'string') data['password'] = await hashPassword(data['password']);
    if (typeof data['email'] === 'string') data['email'] = data['email'].toLowerCase();
    if (typeof data['role'] === 'number') {
      const docId = await this.roleDocumentId(Number(data['role']));
      if (docId === undefined) throw new ApplicationError('Role not found', { role: data['role'] });
      data['role'] = docId;
    }
    const checked = checkWriteData({ model: this.services.model, ability: ALLOW_ALL }, this.type, data);
    const { dialect } = this.services.database;
    const guard = async (tx: Tx): Promise<void> => {
      await lockKey(tx, dialect, USERS_LOCK);
      await check(tx);
    };
    const opts = { status: 'published' as const, locale: null, canCreateLocalization: false, guard };
    // a relation naming rows that don't exist is refused with the data as Strapi echoes it (as the content
    // routes' refusal is), the password left out: Folio never echoes it
    const refusedWith = (e: unknown): unknown => {
      if (!(e instanceof MissingRelationsError)) return e;
      const { password: _password, ...shown } = values;
      return e.withValue(storedData(this.services.model, this.type, shown, { create: existing === null, locale: null }));
    };
    if (existing) {
      await this.services.writer.update(this.type, existing.documentId, checked, opts).catch((e: unknown) => {
        throw refusedWith(e);
      });
      return existing.id;
    }
    const documentId = await this.services.writer.create(this.type, checked, opts).catch((e: unknown) => {
      throw refusedWith(e);
    });
    const row = await this.db.selectFrom('up_users').select('id').where('document_id', '=', documentId).executeTakeFirstOrThrow();
    return Number(row.id);
  }

  async remove(row: UserRow): Promise<void> {
    await this.services.writer.delete(this.type, row.documentId, null);
  }

  /** Parses a users query as the content routes parse theirs: the caller's ability decides what it may populate and filter. */
  parse(ability: Ability, query: Record<string, unknown>): FindQuery {
    const ctx = parseContextOf(this.services, ability);
    // `rest.strictParams` is the core controllers' setting: Strapi 5.54's users controller validates its
    // query without it, so an unknown parameter is ignored here whatever config/api says
    return parseFindQuery({ ...ctx, rest: { ...ctx.rest, strictParams: false } }, this.type, query);
  }

  /** The user as a client sees it (public attributes; populated only what the query asks and the caller may see). */
  async view(
    id: number,
    ability: Ability,
    query: Record<string, unknown> = {},
    gated?: { readonly database: Database; readonly lease: ReadLease },
  ): Promise<DocumentObject | null> {
    const r = await (gated?.database ?? this.services.database).reads.selectFrom('up_users').select('document_id').where('id', '=', id).executeTakeFirst();
    if (!r) return null;
    const q = this.parse(ability, query);
    // Strapi's users routes read without a transaction: their populated keys come in another order
    return readDocument({ ...this.services.readContext, ...gated, populateCosts: POOLED_COSTS }, this.type, String(r.document_id), q);
  }
}
