// Populate statements come in few shapes: for one schema, attribute, field list and scope the SQL text
// is the same, and only the parent ids (and how many there are) change. Building and compiling them
// through Kysely's builder took a third of an uncached findOne's CPU on SQLite, more than SQLite took
// to run them, so each shape is compiled once with placeholders where its values go; later runs put
// the values in. Everything that shapes the statement other than those values must be in its key.
import { isDeepStrictEqual } from 'node:util';
import type { CompiledQuery, Compilable } from 'kysely';
import type { Database } from '../../database/dialect.js';
import type { Model } from '../../schema/types.js';

/** Where one value (or one item of a list value) goes among a compiled statement's parameters. */
class Placeholder {
  constructor(
    readonly value: number,
    readonly item: number,
  ) {}
}

interface Template {
  readonly compiled: CompiledQuery<unknown>;
  /** each parameter: a placeholder to fill, or a constant of the shape */
  readonly parameters: readonly unknown[];
}

type Values = readonly unknown[];

/** A bound on shapes kept per model: the id count is part of a shape, and nested levels vary it widely. */
const MAX_TEMPLATES = 4096;
const templates = new WeakMap<Model, Map<string, Template>>();

/** Set in the test suite: every reuse is checked against a fresh build, so a key missing an input fails loudly. */
const CHECK = process.env['FOLIO_CHECK_STATEMENT_TEMPLATES'] === '1';

function placeholdersFor(values: Values): unknown[] {
  return values.map((v, i) => (Array.isArray(v) ? v.map((_, j) => new Placeholder(i, j)) : new Placeholder(i, -1)));
}

/** a list value bound whole, as one parameter (an array on PostgreSQL: Dialect.oneOf) */
function wholeList(p: unknown): Placeholder | null {
  return Array.isArray(p) && p[0] instanceof Placeholder ? p[0] : null;
}

function fill(parameters: readonly unknown[], values: Values): unknown[] {
  return parameters.map((p) => {
    const list = wholeList(p);
    if (list !== null) return values[list.value];
    if (!(p instanceof Placeholder)) return p;
    return p.item < 0 ? values[p.value] : (values[p.value] as readonly unknown[])[p.item];
  });
}

function shapeKey(database: Database, key: string, values: Values): string {
  return `${database.dialect.name}\u0000${key}\u0000${values.map((v) => (Array.isArray(v) ? v.length : '.')).join(',')}`;
}

/**
 * A statement's read of `table` limited to rows whose `column` is one of `values` (read-recording.ts),
 * wherever it names the table (`occurrences` times: a self-join names it twice).
 */
export interface KeyedRead {
  readonly table: string;
  readonly column: string;
  readonly values: Iterable<unknown>;
  readonly occurrences?: number;
}

/**
 * Which keys a statement reads its tables at, for a recording read: `before` it runs, and keys only
 * its rows tell (`fromRows`: the ids a join followed) — a table named there must also be named
 * `before`, with the keys known then (none, if none are).
 */
export interface StatementKeys<R> {
  readonly before: readonly KeyedRead[];
  readonly fromRows?: (rows: readonly R[]) => readonly KeyedRead[];
}

/**
 * Runs the statement `build` makes from `values`, compiling it only the first time its shape (`key`
 * plus the length of each list value) is seen. `build` must use the values only as bound parameters.
 */
export async function runTemplate<R, V extends Values>(
  model: Model,
  database: Database,
  key: string,
  values: V,
  build: (...values: V) => Compilable<R>,
  keys?: StatementKeys<R>,
): Promise<R[]> {
  let byKey = templates.get(model);
  if (!byKey) templates.set(model, (byKey = new Map()));
  // a statement declared keyed is always declared: it gets a query id of its own (read-recording.ts)
  const k = shapeKey(database, keys ? `${key}\u0000keyed` : key, values);
  let t = byKey.get(k);
  if (!t) {
    const compiled = build(...(placeholdersFor(values) as unknown as V)).compile();
    if (byKey.size >= MAX_TEMPLATES) byKey.clear();
    t = { compiled, parameters: compiled.parameters };
    byKey.set(k, t);
  }
  const parameters = fill(t.parameters, values);
  if (CHECK) {
    const fresh = build(...values).compile();
    if (fresh.sql !== t.compiled.sql || !isDeepStrictEqual(fresh.parameters, parameters)) {
      throw new Error(`statement template ${JSON.stringify(key)} no longer matches its build: the key misses an input`);
    }
  }
  const recorder = keys ? database.recorder : undefined;
  const queryId = t.compiled.queryId;
  if (recorder) for (const r of keys!.before) recorder.keyed(queryId, r.table, r.column, r.values, r.occurrences);
  const result = await database.db.executeQuery<R>({ ...t.compiled, parameters } as CompiledQuery<R>);
  if (recorder && keys!.fromRows) for (const r of keys!.fromRows(result.rows)) recorder.keyed(queryId, r.table, r.column, r.values, r.occurrences);
  return result.rows;
}
