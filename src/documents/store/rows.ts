// Row-level storage: inserts that return ids on every dialect, and scalar values in column form.
import { sql, type InsertQueryBuilder } from 'kysely';
import type { Dialect } from '../../database/dialect.js';
import type { Component, ContentType, ScalarAttribute } from '../../schema/types.js';
import { storeJson } from '../../values/format-value.js';
import { jsonValueOfString } from '../../values/json-string-input.js';
import { MAX_PARAMETERS, type Store } from './store.js';
import { roundDecimal } from '../../values/round-decimal.js';

export type { Store, Tx } from './store.js';

/** A row's values to insert: those given, or — a component with only media or relations has no columns of its own — a new id alone. */
export function rowValues(s: Store, given: Readonly<Record<string, unknown>>): Record<string, unknown> {
  return Object.keys(given).length ? { ...given } : { id: s.dialect.newId === 'null' ? null : sql`default` };
}

export async function insertRow(s: Store, table: string, given: Record<string, unknown>): Promise<number> {
  const values = rowValues(s, given);
  if (s.dialect.returning) {
    const r = await s.tx.insertInto(table).values(values).returning('id').executeTakeFirstOrThrow();
    return Number((r as { id: unknown }).id);
  }
  const r = await s.tx.insertInto(table).values(values).executeTakeFirstOrThrow();
  return Number(r.insertId);
}

/** Inserts of the rows, as many statements as the bound-parameter limit asks for. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function insertsOf(s: Store, table: string, rows: readonly Record<string, unknown>[]): InsertQueryBuilder<any, any, any>[] {
  if (rows.length === 0) return [];
  const perRow = rows.reduce((most, r) => Math.max(most, Object.keys(r).length), 1);
  const step = Math.max(1, Math.floor(MAX_PARAMETERS / perRow));
  const out = [];
  for (let from = 0; from < rows.length; from += step) out.push(s.tx.insertInto(table).values(rows.slice(from, from + step)));
  return out;
}

export async function insertMany(s: Store, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (const insert of insertsOf(s, table, rows)) await insert.execute();
}

/** A checked input value in the form its column stores. */
export function toColumn(d: Dialect, attr: ScalarAttribute, v: unknown): unknown {
  if (v === null || v === undefined) return null;
  switch (attr.type) {
    case 'boolean':
      return d.toBoolean(v === true);
    case 'datetime':
    case 'timestamp':
      return d.toDatetime(v instanceof Date ? v : new Date(String(v)));
    case 'json':
    case 'blocks':
      return storeJson(v);
    case 'decimal':
      return typeof v === 'number' && d.decimalPlaces !== null ? roundDecimal(v, d.decimalPlaces) : v;
    default:
      return v;
  }
}

/** Column values for a map of attribute name → checked value. */
export function scalarColumns(d: Dialect, schema: ContentType | Component, scalars: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, v] of scalars) {
    const a = schema.attributes.get(name);
    if (a?.kind === 'scalar') out[a.column] = toColumn(d, a, v);
  }
  return out;
}

/** Column values of the schema defaults for attributes absent from the input (on create). */
export function defaultColumns(d: Dialect, schema: ContentType | Component, present: ReadonlyMap<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const a of schema.attributes.values()) {
    if (a.kind !== 'scalar' || a.default === undefined || present.has(a.name)) continue;
    // a json default written as text ("[]") is the value it spells, as for a string sent for it
    out[a.column] = toColumn(d, a, a.type === 'json' && typeof a.default === 'string' ? jsonValueOfString(a.default) : a.default);
  }
  return out;
}

const MAX_UNION_TERMS = 200;

/**
 * The largest `column` among the rows whose `key` equals each of `keys` (0 when there are none), in
 * one statement per 200 keys. Each key gets its own scalar `max()` so that every dialect reads it from the
 * (key, column) index in a few steps: a `group by` over `key in (…)` visits every row of each key,
 * which made linking to a target with thousands of links cost a scan per write.
 */
export async function maxPerKey<K extends string | number>(s: Store, table: string, key: string, column: string, keys: readonly K[]): Promise<Map<K, number>> {
  const out = new Map<K, number>();
  const distinct = [...new Set(keys)];
  if (distinct.length === 0) return out;
  const keyRows = s.dialect.keyRows;
  if (keyRows) {
    // one statement planned once: its subquery runs for each key, reading the (key, column) index as a branch would
    const type = typeof distinct[0] === 'number' ? 'integer' : 'text';
    const rows = await sql<{
      i: unknown;
      m: unknown;
    }>`select ${sql.ref('k.i')} as "i", (select max(${sql.ref(column)}) from ${sql.table(table)} where ${sql.ref(key)} = ${sql.ref('k.k')}) as "m" from ${keyRows('k', [{ name: 'k', values: distinct as readonly number[] | readonly string[], type }])}`.execute(
      s.tx,
    );
    for (const r of rows.rows) out.set(distinct[Number(r.i) - 1]!, Number(r.m ?? 0));
    return out;
  }
  const branch = (k: K, i: number) =>
    s.tx.selectNoFrom((eb) => [
      sql.lit(i).as('i'),
      eb
        .selectFrom(table)
        .select(sql<number>`max(${sql.ref(column)})`.as('m'))
        .where(key, '=', k)
        .as('m'),
    ]);
  // SQLite allows at most 500 terms in one compound SELECT
  for (let from = 0; from < distinct.length; from += MAX_UNION_TERMS) {
    const chunk = distinct.slice(from, from + MAX_UNION_TERMS);
    let query = branch(chunk[0]!, 0);
    for (let i = 1; i < chunk.length; i++) query = query.unionAll(branch(chunk[i]!, i));
    for (const r of await query.execute()) out.set(chunk[Number(r.i)]!, Number(r.m ?? 0));
  }
  return out;
}
