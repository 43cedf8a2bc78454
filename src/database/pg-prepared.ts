// Named prepared statements for recurring reads on PostgreSQL.
import type pg from 'pg';

/** statement texts that get a name, per process; each pooled connection prepares at most this many */
export const MAX_NAMED_STATEMENTS = 200;
/** a text is named once it has been sent this many times (one-off statements stay unnamed) */
const RECURS_AFTER = 2;
/** texts counted before they are named, at most (the count starts over past it) */
const MAX_COUNTED = 10_000;

type Query = (...args: unknown[]) => unknown;

/**
 * Kysely sends every statement unnamed, and PostgreSQL parses and plans an unnamed statement at each
 * execution: 0.2–0.6 ms per statement here, more than most of them take to run, and a populated list
 * sends a dozen. The same texts recur (values are parameters), so a select sent a second time is
 * prepared under a name on each connection and reused; after five executions PostgreSQL may keep a
 * generic plan for it, when that plan is not costlier than the custom ones.
 *
 * Names are never dropped (node-postgres keeps no public handle on a connection's prepared
 * statements), so their number is capped: the first MAX_NAMED_STATEMENTS recurring texts are named
 * and later ones run unnamed, as before. A query's values and results are unchanged.
 */
export function prepareRecurringSelects(pool: pg.Pool): void {
  const names = new Map<string, string>();
  const seen = new Map<string, number>();
  const nameFor = (text: string): string | undefined => {
    const named = names.get(text);
    if (named !== undefined || names.size >= MAX_NAMED_STATEMENTS || !/^\s*select\s/i.test(text)) return named;
    const n = (seen.get(text) ?? 0) + 1;
    if (n < RECURS_AFTER) {
      if (seen.size >= MAX_COUNTED) seen.clear();
      seen.set(text, n);
      return undefined;
    }
    seen.delete(text);
    const name = `folio_${names.size}`;
    names.set(text, name);
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as Query;
    const named: Query = (text, values, callback) => {
      const name = typeof text === 'string' && Array.isArray(values) ? nameFor(text) : undefined;
      return name === undefined ? query(text, values, callback) : query({ name, text, values }, callback);
    };
    (client as unknown as { query: Query }).query = named;
  });
}
