// Roles and their permissions (users-permissions storage): the built-in Public and Authenticated
// roles, seeded on first start, and an in-memory view of who may do what, refreshed on change.
import type { Database } from '../database/dialect.js';
import { newDocumentId } from '../documents/document-id.js';

export const PUBLIC_ROLE = 'public';
export const AUTHENTICATED_ROLE = 'authenticated';

const UP = 'plugin::users-permissions';

/** What Strapi grants the built-in roles on first boot (behaviour.md §10.1). */
const DEFAULTS: Record<string, readonly string[]> = {
  [PUBLIC_ROLE]: ['auth.connect', 'auth.callback', 'auth.register', 'auth.forgotPassword', 'auth.resetPassword',
    'auth.emailConfirmation', 'auth.sendEmailConfirmation', 'auth.refresh'].map((a) => `${UP}.${a}`),
  [AUTHENTICATED_ROLE]: ['auth.changePassword', 'auth.logout', 'auth.getSessions', 'auth.revokeSession', 'user.me'].map((a) => `${UP}.${a}`),
};

export class RoleStore {
  private byType = new Map<string, { id: number; actions: Set<string> }>();
  private byId = new Map<number, Set<string>>();

  constructor(private readonly database: Database) {}

  /** Creates the built-in roles and their default permissions when the database has none. */
  async seed(): Promise<void> {
    const { db, dialect } = this.database;
    const now = dialect.toDatetime(new Date());
    const existing = await db.selectFrom('up_roles').select(['id', 'type']).execute();
    const roles = [
      { type: AUTHENTICATED_ROLE, name: 'Authenticated', description: 'Default role given to authenticated user.' },
      { type: PUBLIC_ROLE, name: 'Public', description: 'Default role given to unauthenticated user.' },
    ];
    if (existing.length === 0) {
      for (const r of roles) {
        await db.insertInto('up_roles').values({ document_id: newDocumentId(), ...r, created_at: now, updated_at: now, published_at: now }).execute();
      }
      const ids = await db.selectFrom('up_roles').select(['id', 'type']).execute();
      const perms = await db.selectFrom('up_permissions').select('id').limit(1).execute();
      if (perms.length === 0) {
        for (const r of ids) {
          const actions = DEFAULTS[String(r.type)] ?? [];
          if (actions.length) {
            await db.insertInto('up_permissions').values(actions.map((action) => ({ action, role_id: Number(r.id), created_at: now, updated_at: now }))).execute();
          }
        }
      }
    }
    await this.refresh();
  }

  async refresh(): Promise<void> {
    const { db } = this.database;
    const roles = await db.selectFrom('up_roles').select(['id', 'type']).execute();
    const perms = await db.selectFrom('up_permissions').select(['role_id', 'action']).execute();
    this.byId = new Map(roles.map((r) => [Number(r.id), new Set<string>()]));
    for (const p of perms) this.byId.get(Number(p.role_id))?.add(String(p.action));
    this.byType = new Map(roles.map((r) => [String(r.type), { id: Number(r.id), actions: this.byId.get(Number(r.id))! }]));
  }

  actionsOfType(type: string): ReadonlySet<string> {
    return this.byType.get(type)?.actions ?? new Set();
  }

  actionsOfRole(id: number): ReadonlySet<string> {
    return this.byId.get(id) ?? new Set();
  }

  roleId(type: string): number | undefined {
    return this.byType.get(type)?.id;
  }

  /** Grants actions to a role (used by tests and the roles API). */
  async grant(type: string, actions: readonly string[]): Promise<void> {
    const id = this.roleId(type);
    if (id === undefined || actions.length === 0) return;
    const have = this.actionsOfType(type);
    const now = this.database.dialect.toDatetime(new Date());
    const fresh = actions.filter((a) => !have.has(a));
    if (fresh.length) {
      await this.database.db.insertInto('up_permissions').values(fresh.map((action) => ({ action, role_id: id, created_at: now, updated_at: now }))).execute();
    }
    await this.refresh();
  }
}
