// Copies of component rows, each a new row with the old one's columns. Where the dialect takes
// data-modifying WITH clauses (PostgreSQL) every copy of a publish travels in one statement, each
// clause returning its new id; elsewhere each copy is its own INSERT … SELECT.
import { sql, type RawBuilder } from 'kysely';
import { rowColumns } from '../../database/tables.js';
import type { Component } from '../../schema/types.js';
import { insertRow, type Store } from './rows.js';

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

// each copy binds one parameter and adds a clause: keep a statement's text and plan modest
const COPIES_PER_STATEMENT = 500;

async function copyTogether(s: Store, rows: readonly RowToCopy[]): Promise<(number | null)[]> {
  const clauses: RawBuilder<unknown>[] = [];
  const picks: RawBuilder<unknown>[] = [];
  rows.forEach((r, i) => {
    clauses.push(sql`${sql.id(`c${i}`)} as (${copyStatement(s, r).returning('id')})`);
    picks.push(sql`(select ${sql.ref('id')} from ${sql.id(`c${i}`)}) as ${sql.id(`c${i}`)}`);
  });
  const result = await sql<Record<string, unknown>>`with ${sql.join(clauses)} select ${sql.join(picks)}`.execute(s.tx);
  const row = result.rows[0] ?? {};
  return rows.map((_r, i) => {
    const id = row[`c${i}`];
    return id === null || id === undefined ? null : Number(id);
  });
}

/** New ids of the copies, in the order given; null where the source row is gone. */
export async function copyRows(s: Store, rows: readonly RowToCopy[]): Promise<(number | null)[]> {
  if (rows.length === 1 || !s.dialect.writesInOneStatement) {
    const out: (number | null)[] = [];
    for (const r of rows) out.push(await copyOne(s, r));
    return out;
  }
  const out: (number | null)[] = [];
  for (let from = 0; from < rows.length; from += COPIES_PER_STATEMENT) out.push(...(await copyTogether(s, rows.slice(from, from + COPIES_PER_STATEMENT))));
  return out;
}
