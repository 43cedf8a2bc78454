// Link rows of rows a create has just inserted (component, relation and media links), and the links that
// replace those of component rows an update keeps (component-lists.ts), wait here and go to the database
// together (write-batch.ts: one statement on PostgreSQL) once the rows and their checks are done. Nothing
// in a new row's subtree reads its own links back; a statement that touches a link table still queued (a
// second relation through the same table, a look-up of places ahead) flushes first.
import { inChunks } from '../../database/in-list.js';
import { insertMany, insertsOf } from './rows.js';
import type { LinkOwner, LinkQueue, Store } from './store.js';
import { runWrites, type Write } from './write-batch.js';

export class DeferredLinks implements LinkQueue {
  private readonly rows = new Map<string, Record<string, unknown>[]>();
  /** table → each queued row's place in its document's walk (Infinity: none given) */
  private readonly orders = new Map<string, number[]>();
  /** link table → the owners whose links written before are deleted ahead of the rows queued, by column and scope */
  private readonly cleared = new Map<string, Map<string, { owner: LinkOwner; ids: number[] }>>();

  replace(table: string, owner: LinkOwner, rows: readonly Record<string, unknown>[], order?: number): void {
    let byScope = this.cleared.get(table);
    if (!byScope) this.cleared.set(table, (byScope = new Map()));
    const scope = JSON.stringify([owner.column, owner.scope ?? {}]);
    let same = byScope.get(scope);
    if (!same) byScope.set(scope, (same = { owner, ids: [] }));
    same.ids.push(owner.id);
    if (!this.rows.has(table)) this.rows.set(table, []);
    this.add(table, rows, order);
  }

  add(table: string, rows: readonly Record<string, unknown>[], order = Infinity): void {
    if (rows.length === 0) return;
    let list = this.rows.get(table);
    if (!list) this.rows.set(table, (list = []));
    list.push(...rows);
    let orders = this.orders.get(table);
    if (!orders) this.orders.set(table, (orders = []));
    orders.push(...rows.map(() => order));
  }

  /** The rows queued for a table, in their rows' walk order where they have one (a stable sort keeps the rest as queued). */
  private ordered(table: string): Record<string, unknown>[] {
    const rows = this.rows.get(table)!;
    const orders = this.orders.get(table) ?? [];
    if (!orders.some(Number.isFinite)) return rows;
    return rows
      .map((row, i) => ({ row, order: orders[i]! }))
      .sort((a, b) => a.order - b.order)
      .map((e) => e.row);
  }

  /** Writes what waits: for one table (before a statement touching it), or everything. */
  async flush(s: Store, table?: string): Promise<void> {
    const tables = table === undefined ? [...this.rows.keys()] : this.rows.has(table) ? [table] : [];
    if (tables.length === 0) return;
    const writes: Write[] = [];
    for (const t of tables) {
      // deletes first, then the inserts: in one statement too (PostgreSQL), the delete sees none of the rows inserted
      for (const { owner, ids: all } of this.cleared.get(t)?.values() ?? []) {
        for (const ids of inChunks(all)) {
          let clear = s.tx.deleteFrom(t).where(owner.column, 'in', ids);
          for (const [column, value] of Object.entries(owner.scope ?? {})) clear = clear.where(column, '=', value);
          writes.push(clear);
        }
      }
      writes.push(...insertsOf(s, t, this.ordered(t)));
      this.rows.delete(t);
      this.orders.delete(t);
      this.cleared.delete(t);
    }
    await runWrites(s, writes);
  }
}

/** Inserts link rows now, or queues them when they hang off a row this create inserted. */
export async function insertLinks(s: Store, table: string, rows: Record<string, unknown>[], isNew: boolean, order?: number): Promise<void> {
  if (isNew && s.deferred) s.deferred.add(table, rows, order);
  else await insertMany(s, table, rows);
}
