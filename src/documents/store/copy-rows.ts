// Copies of component rows, each a new row with the old one's columns. Where the dialect takes
// data-modifying WITH clauses (PostgreSQL) every copy of a publish travels in one statement, a pair of
// clauses per component table; where the server numbers a statement's rows in a run (MySQL/MariaDB,
// consecutiveIds) an INSERT … SELECT per table copies them; elsewhere each copy is its own INSERT … SELECT.
import { sql, type RawBuilder } from 'kysely';
import { rowColumns } from '../../database/tables.js';
import type { Component } from '../../schema/types.js';
import { insertRow, rowValues, type Store } from './rows.js';
import { nextId, placesBy } from './insert-rows.js';

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

// source ids one INSERT … SELECT names at most
const RUN_CHUNK = 5000;

/** The places split into rounds in which each id is named once: a later naming goes to a later round. */
function rounds(places: readonly number[], idOf: (place: number) => number): number[][] {
  const out: number[][] = [];
  const seen = new Map<number, number>();
  for (const i of places) {
    const n = seen.get(idOf(i)) ?? 0;
    seen.set(idOf(i), n + 1);
    (out[n] ??= []).push(i);
  }
  return out;
}

/** One INSERT … SELECT of the rows of `ids` that exist, in id order: each source id → its copy's id. */
async function copyRun(s: Store, comp: Component, cols: readonly string[], ids: readonly number[], step: number): Promise<Map<number, number>> {
  const existing = (await s.tx.selectFrom(comp.table).select('id').where('id', 'in', ids).orderBy('id').execute()).map((r) => Number(r.id));
  if (existing.length === 0) return new Map();
  // a row with no columns of its own is copied as a new id alone
  const insert = cols.length
    ? s.tx
        .insertInto(comp.table)
        .columns(cols)
        .expression(s.tx.selectFrom(comp.table).select(cols).where('id', 'in', existing).orderBy('id'))
    : s.tx.insertInto(comp.table).values(existing.map(() => rowValues(s, {})));
  const res = await insert.executeTakeFirstOrThrow();
  // the write holds its document's rows, so its components can't change in between; a mismatch is a fault
  if (Number(res.numInsertedOrUpdatedRows) !== existing.length) throw new Error(`copy of ${comp.table} rows inserted ${res.numInsertedOrUpdatedRows} of ${existing.length}`);
  const first = Number(res.insertId);
  return new Map(existing.map((id, j) => [id, first + j * step]));
}

/**
 * Where the server numbers one statement's rows in a run (consecutiveIds), an INSERT … SELECT per
 * component table copies its rows in id order, and the copy of the j-th existing source row has the
 * first id reported plus j steps. A source row copied twice (one list copied to two locales) is
 * copied again in a later round, each round naming a row once.
 */
async function copyInRuns(s: Store, rows: readonly RowToCopy[], step: number): Promise<(number | null)[]> {
  const out = new Array<number | null>(rows.length).fill(null);
  for (const [comp, places] of placesBy(rows, (r) => r.comp)) {
    const cols = columns(comp);
    for (const round of rounds(places, (i) => rows[i]!.id)) {
      for (let from = 0; from < round.length; from += RUN_CHUNK) {
        const chunk = round.slice(from, from + RUN_CHUNK);
        const copyOf = await copyRun(
          s,
          comp,
          cols,
          chunk.map((i) => rows[i]!.id),
          step,
        );
        for (const i of chunk) out[i] = copyOf.get(rows[i]!.id) ?? null;
      }
    }
  }
  return out;
}

/** New ids of the copies, in the order given; null where the source row is gone. */
export async function copyRows(s: Store, rows: readonly RowToCopy[]): Promise<(number | null)[]> {
  if (rows.length === 0) return [];
  if (rows.length > 1 && s.dialect.writesInOneStatement) return copyTogether(s, rows);
  if (rows.length > 1 && s.dialect.consecutiveIds !== null) return copyInRuns(s, rows, s.dialect.consecutiveIds);
  const out: (number | null)[] = [];
  for (const r of rows) out.push(await copyOne(s, r));
  return out;
}
