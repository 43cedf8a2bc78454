// What a user's access token stands for on each request: the user must still exist, not be
// blocked (nor unconfirmed while confirmation is required), and acts with its role as of the last
// commit. States are reused only while the database's change mark stays put (src/auth/fresh.ts), so
// blocking or deleting a user, or moving it to another role, counts from the next request on.
import type { Database } from '../../database/dialect.js';
import type { Model } from '../../schema/types.js';
import { USER_UID } from '../../schema/types.js';
import { truthy } from './values.js';

export interface UserState {
  readonly id: number;
  readonly blocked: boolean;
  readonly confirmed: boolean;
  /** row id of the user's role, null when it has none */
  readonly roleId: number | null;
}

/** users whose states one process keeps between writes */
const MAX_KEPT = 10_000;

export class UserStates {
  private kept = new Map<number, UserState | null>();
  private keptMark = '';

  constructor(
    private readonly database: Database,
    private readonly model: Model,
  ) {}

  /** `mark`: the request's change mark (src/auth/fresh.ts); null reads the state again */
  async get(id: number, mark: string | null): Promise<UserState | null> {
    if (mark === null) return this.read(id);
    if (mark !== this.keptMark) {
      this.kept = new Map();
      this.keptMark = mark;
    }
    const hit = this.kept.get(id);
    if (hit !== undefined) return hit;
    const state = await this.read(id);
    if (this.keptMark === mark && this.kept.size < MAX_KEPT) this.kept.set(id, state);
    return state;
  }

  private async read(id: number): Promise<UserState | null> {
    const role = this.model.contentTypes.get(USER_UID)!.attributes.get('role');
    let q = this.database.reads.selectFrom('up_users as u').select(['u.id', 'u.blocked', 'u.confirmed']).where('u.id', '=', id);
    if (role?.kind === 'relation') {
      q = q.leftJoin(`${role.linkTable} as l`, 'l.source_id', 'u.id').leftJoin('up_roles as r', 'r.document_id', 'l.target_document_id').select('r.id as role_id');
    }
    const row = (await q.executeTakeFirst()) as Record<string, unknown> | undefined;
    if (!row) return null;
    const roleId = row['role_id'];
    return { id, blocked: truthy(row['blocked']), confirmed: truthy(row['confirmed']), roleId: roleId === null || roleId === undefined ? null : Number(roleId) };
  }
}
