// Roles and their permissions (users-permissions storage): the built-in Public and Authenticated
// roles, seeded on first start, and a view of who may do what. The view is kept only while the
// database's change mark stays put, so a grant or revocation made anywhere — another request, the
// CLI, another process — counts from the next request on.
import type { Database } from '../database/dialect.js';
import { lockKey } from '../database/key-lock.js';
import { liftBoundForSeeding } from '../database/seeding-bound.js';
import { writeTransaction } from '../database/write-transaction.js';
import { newDocumentId } from '../documents/document-id.js';
import { freshWhileUnchanged } from './fresh.js';

export const PUBLIC_ROLE = 'public';
export const AUTHENTICATED_ROLE = 'authenticated';

const UP = 'plugin::users-permissions';

/** What Strapi grants the built-in roles on first boot (behaviour.md §10.1). */
const DEFAULTS: ReadonlyMap<string, readonly string[]> = new Map([
  [
    PUBLIC_ROLE,
    ['auth.connect', 'auth.callback', 'auth.register', 'auth.forgotPassword', 'auth.resetPassword', 'auth.emailConfirmation', 'auth.sendEmailConfirmation', 'auth.refresh'].map(
      (a) => `${UP}.${a}`,
    ),
  ],
  // in Strapi's order, which its permission ids (shown by `populate=role.permissions`) follow
  [AUTHENTICATED_ROLE, ['auth.logout', 'auth.getSessions', 'auth.revokeSession', 'user.me', 'auth.changePassword'].map((a) => `${UP}.${a}`)],
]);

export const BUILTIN_ROLES = [
  { type: AUTHENTICATED_ROLE, name: 'Authenticated', description: 'Default role given to authenticated user.' },
  { type: PUBLIC_ROLE, name: 'Public', description: 'Default role given to unauthenticated user.' },
] as const;

export interface RoleView {
  /** actions of the role with this row id (empty for an unknown role) */
  actionsOfRole(id: number): ReadonlySet<string>;
  actionsOfType(type: string): ReadonlySet<string>;
  roleId(type: string): number | undefined;
  /** type of the role with this row id */
  typeOf(id: number): string | undefined;
}

const NONE: ReadonlySet<string> = new Set();

/** The rows that grant `actions` to a role; `now` in the dialect's datetime form. */
export function permissionRows(roleId: number, actions: readonly string[], now: unknown): Record<string, unknown>[] {
  return actions.map((action) => ({ action, role_id: roleId, document_id: newDocumentId(), created_at: now, updated_at: now, published_at: now }));
}

function viewOf(roles: readonly { id: number; type: string }[], perms: readonly { role_id: unknown; action: unknown }[]): RoleView {
  const byId = new Map(roles.map((r) => [r.id, { type: r.type, actions: new Set<string>() }]));
  for (const p of perms) byId.get(Number(p.role_id))?.actions.add(String(p.action));
  const byType = new Map(roles.map((r) => [r.type, r.id]));
  return {
    actionsOfRole: (id) => byId.get(id)?.actions ?? NONE,
    actionsOfType: (type) => {
      const id = byType.get(type);
      return id === undefined ? NONE : byId.get(id)!.actions;
    },
    roleId: (type) => byType.get(type),
    typeOf: (id) => byId.get(id)?.type,
  };
}

export class RoleStore {
  private readonly current: (mark?: string | null) => Promise<RoleView>;

  constructor(private readonly database: Database) {
    this.current = freshWhileUnchanged(database, () => this.load());
  }

  /** Creates the built-in roles and their default permissions when the database has none; gives older permission rows a document id. */
  async seed(): Promise<void> {
    // processes starting together seed once: the lock makes the second wait, then find the roles
    await writeTransaction(this.database, async (db) => {
      // two processes starting together on a loaded machine failed here past a short statement_timeout
      await liftBoundForSeeding(this.database, db);
      await lockKey(db, this.database.dialect, 'seed:up_roles');
      await this.seedIn(db);
    });
  }

  private async seedIn(db: Database['db']): Promise<void> {
    const { dialect } = this.database;
    const now = dialect.toDatetime(new Date());
    const existing = await db.selectFrom('up_roles').select(['id', 'type']).execute();
    if (existing.length === 0) {
      for (const r of BUILTIN_ROLES) {
        await db
          .insertInto('up_roles')
          .values({ document_id: newDocumentId(), ...r, created_at: now, updated_at: now, published_at: now })
          .execute();
      }
      const ids = await db.selectFrom('up_roles').select(['id', 'type']).execute();
      const perms = await db.selectFrom('up_permissions').select('id').limit(1).execute();
      if (perms.length === 0) {
        for (const r of ids) {
          const actions = DEFAULTS.get(String(r.type)) ?? [];
          if (actions.length) {
            await db
              .insertInto('up_permissions')
              .values(permissionRows(Number(r.id), actions, now))
              .execute();
          }
        }
      }
    }
    // rows written before permissions had a document id
    const bare = await db.selectFrom('up_permissions').select(['id', 'created_at']).where('document_id', 'is', null).execute();
    for (const row of bare) {
      await db
        .updateTable('up_permissions')
        .set({ document_id: newDocumentId(), published_at: row.created_at ?? now })
        .where('id', '=', row.id)
        .execute();
    }
  }

  private async load(): Promise<RoleView> {
    const db = this.database.reads;
    const [roles, perms] = await Promise.all([db.selectFrom('up_roles').select(['id', 'type']).execute(), db.selectFrom('up_permissions').select(['role_id', 'action']).execute()]);
    return viewOf(
      roles.map((r) => ({ id: Number(r.id), type: String(r.type) })),
      perms,
    );
  }

  /** Who may do what, as of the last commit; `mark`: the request's change mark (src/auth/fresh.ts) */
  view(mark?: string | null): Promise<RoleView> {
    return this.current(mark);
  }

  /** Grants actions to the role of this type; returns the ones it didn't have. */
  async grant(type: string, actions: readonly string[]): Promise<string[]> {
    const view = await this.view();
    const id = view.roleId(type);
    if (id === undefined) return [];
    const have = view.actionsOfRole(id);
    const fresh = [...new Set(actions)].filter((a) => !have.has(a));
    if (fresh.length) {
      const now = this.database.dialect.toDatetime(new Date());
      await this.database.db
        .insertInto('up_permissions')
        .values(permissionRows(id, fresh, now))
        .execute();
    }
    return fresh;
  }

  /** Takes actions away from the role of this type; returns the ones it had. */
  async revoke(type: string, actions: readonly string[]): Promise<string[]> {
    const view = await this.view();
    const id = view.roleId(type);
    if (id === undefined) return [];
    const have = view.actionsOfRole(id);
    const gone = [...new Set(actions)].filter((a) => have.has(a));
    if (gone.length) await this.database.db.deleteFrom('up_permissions').where('role_id', '=', id).where('action', 'in', gone).execute();
    return gone;
  }
}
