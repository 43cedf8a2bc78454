// Copies of component rows, each a new row with the old one's columns. Where the dialect takes
// data-modifying WITH clauses (PostgreSQL) every copy of a publish travels in one statement, a pair of
// clauses per component table; elsewhere each copy is its own INSERT … SELECT.
import { sql, type RawBuilder } from 'kysely';
import { rowColumns } from '../../database/tables.js';
import type { Component } from '../../schema/types.js';
import { insertRow, type Store } from './rows.js';
import { nextId } from './insert-rows.js';

export interface RowToCopy {
  readonly comp: Component;
  readonly id: number;
}

const columnsOf = new WeakMap<Component, string[]>();

function columns(comp: Component): string[] {
  let cols = columnsOf.get(comp);
  if (!cols) columnsOf.set(comp, (cols = rowColumns(comp).map((c) => c.name)));
  return cols;
}

/** INSERT … SELECT of one row; with no columns of its own, the new row takes every default. */
function copyStatement(s: Store, r: RowToCopy) {
  const cols = columns(r.comp);
  const source = s.tx.selectFrom(r.comp.table).select(cols).where('id', '=', r.id);
  const insert = s.tx.insertInto(r.comp.table);
  return cols.length ? insert.columns(cols).expression(source) : insert.expression(source);
}

async function copyOne(s: Store, r: RowToCopy): Promise<number | null> {
  if (columns(r.comp).length === 0 && !s.dialect.writesInOneStatement) {
    // SQLite and MySQL can't insert from a select of no columns: check, then insert defaults
    const found = await s.tx.selectFrom(r.comp.table).select('id').where('id', '=', r.id).executeTakeFirst();
    return found ? insertRow(s, r.comp.table, {}) : null;
  }
  if (s.dialect.returning) {
    const row = await copyStatement(s, r).returning('id').executeTakeFirst();
    return row ? Number((row as { id: unknown }).id) : null;
  }
  const res = await copyStatement(s, r).executeTakeFirstOrThrow();
  return Number(res.numInsertedOrUpdatedRows ?? 0n) > 0 ? Number(res.insertId) : null;
}

/**
 * Every copy of one statement, a pair of WITH clauses per component table: the first takes a new id from
 * the table's sequence for each source row that exists, the second inserts the copies under those ids,
 * and the statement answers the id map. One array parameter per table, whatever the number of rows
 * (one INSERT … SELECT clause per row cost PostgreSQL ≈ 90 µs a row to parse and plan: 7 s of a write
 * copying 60,000 component rows).
 */
async function copyTogether(s: Store, rows: readonly RowToCopy[]): Promise<(number | null)[]> {
  // each component table's source ids; each row's key in the answer: its table's number and its place there
  const groups = new Map<Component, { readonly k: number; readonly ids: number[] }>();
  const keys = rows.map((r) => {
    let g = groups.get(r.comp);
    if (!g) groups.set(r.comp, (g = { k: groups.size, ids: [] }));
    g.ids.push(r.id);
    return `${g.k}#${g.ids.length}`;
  });
  const clauses: RawBuilder<unknown>[] = [];
  const maps: RawBuilder<unknown>[] = [];
  for (const [comp, { k, ids }] of groups) {
    const m = sql.id(`m${k}`);
    const table = sql.id(comp.table);
    const cols = columns(comp).map((c) => sql.id(c));
    clauses.push(
      sql`${m} as (select u.n, u.old_id, ${nextId(comp.table)} as new_id from unnest(${sql.val(ids)}::int[]) with ordinality as u(old_id, n) join ${table} as s on s.id = u.old_id)`,
      sql`${sql.id(`i${k}`)} as (insert into ${table} (${sql.join([sql.id('id'), ...cols])}) select ${m}.new_id${cols.length ? sql`, ${sql.join(cols.map((c) => sql`s.${c}`))}` : sql``} from ${m} join ${table} as s on s.id = ${m}.old_id)`,
    );
    maps.push(sql`select ${sql.lit(k)} as k, n, new_id from ${m}`);
  }
  const result = await sql<{ k: number; n: string | number; new_id: string | number }>`with ${sql.join(clauses)} ${sql.join(maps, sql` union all `)}`.execute(s.tx);
  const made = new Map<string, number>(result.rows.map((r) => [`${r.k}#${Number(r.n)}`, Number(r.new_id)]));
  return keys.map((key) => made.get(key) ?? null);
}

/** New ids of the copies, in the order given; null where the source row is gone. */
export async function copyRows(s: Store, rows: readonly RowToCopy[]): Promise<(number | null)[]> {
  if (rows.length === 1 || !s.dialect.writesInOneStatement) {
    const out: (number | null)[] = [];
    for (const r of rows) out.push(await copyOne(s, r));
    return out;
  }
  return rows.length === 0 ? [] : copyTogether(s, rows);
}
