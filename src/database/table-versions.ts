// Per-table change counters in the database (folio_table_versions), so a cached body can outlive
// writes to tables it never read. The database's own triggers (dialects/*-version-triggers.ts) bump a
// table's counter inside every transaction that writes it, whoever writes, so a counter and the rows
// it guards become visible together to every process. Which tables a read depends on is taken from
// the SQL it sends.
import type { RootOperationNode } from 'kysely';
import { BUCKETS_TABLE, type BucketChange } from './table-buckets.js';

export const VERSIONS_TABLE = 'folio_table_versions';
/**
 * Tables without a counter: rate-limit counters, sessions, login flows, locks and the counters
 * themselves, written on logins and token use. No content read selects them; a cached body that did
 * would be kept only while the whole database stays unchanged.
 */
export const VOLATILE_TABLES: ReadonlySet<string> = new Set(['folio_rate_limits', 'folio_sessions', 'folio_oauth_flows', 'folio_locks', VERSIONS_TABLE, BUCKETS_TABLE]);

const IDENT = String.raw`(?:"((?:[^"]|"")+)"|\x60((?:[^\x60]|\x60\x60)+)\x60|([A-Za-z_][\w$]*))`;
/** an optionally schema-qualified table name, remembering its last part */
const TABLE_REF = String.raw`(?:${IDENT}\s*\.\s*)?${IDENT}`;
const READ_TABLE = new RegExp(String.raw`\b(?:from|join)\s+${TABLE_REF}`, 'gi');
const LIST_TAIL = new RegExp(String.raw`^(?:\s+(?:as\s+)?${IDENT})?\s*,\s*${TABLE_REF}`, 'i');

/** the table part of a match: the three alternatives of the IDENT whose groups start after `base` */
const lastPart = (m: RegExpExecArray | RegExpMatchArray, base: number): string => (m[base + 1] ?? m[base + 2] ?? m[base + 3])!.replace(/""|``/g, (q) => q[0]!);

const readMemo = new Map<string, ReadonlyMap<string, number>>();
/** statement texts can be kilobytes: a thousand of them is a few MB at most */
const READ_MEMO_MAX = 1000;

/**
 * The tables a statement's SQL names after FROM or JOIN (comma lists included), each with how many
 * times it is named (a subquery may name a table the outer query reads too). Names that are not
 * tables (a CTE, a table-valued function) come along too; depending on them costs nothing.
 */
export function tableCountsReadBy(sqlText: string): ReadonlyMap<string, number> {
  const memo = readMemo.get(sqlText);
  if (memo) return memo;
  const out = new Map<string, number>();
  const add = (t: string): void => void out.set(t, (out.get(t) ?? 0) + 1);
  for (const m of sqlText.matchAll(READ_TABLE)) {
    add(lastPart(m, 3));
    let rest = sqlText.slice(m.index + m[0].length);
    for (let tail = LIST_TAIL.exec(rest); tail; tail = LIST_TAIL.exec(rest)) {
      add(lastPart(tail, 6));
      rest = rest.slice(tail[0].length);
    }
  }
  if (readMemo.size >= READ_MEMO_MAX) readMemo.clear();
  readMemo.set(sqlText, out);
  return out;
}

/** The tables a statement's SQL names after FROM or JOIN, each once. */
export function tablesReadBy(sqlText: string): readonly string[] {
  return [...tableCountsReadBy(sqlText).keys()];
}

/** Whether a statement only reads: a SELECT (raw ones included), not a write or transaction control. */
export function isRead(node: RootOperationNode, sqlText: string): boolean {
  if (node.kind === 'SelectQueryNode') return true;
  if (node.kind !== 'RawNode') return false;
  return /^\s*(?:\(\s*)*(?:select|with)\b/i.test(sqlText);
}

/** A version per table; a name without a counter (a CTE, a function) reads as 0 and never changes. */
export type TableVersionMap = ReadonlyMap<string, number>;

/** The counters, and the bucket writes (table-buckets.ts) asked for with them. */
export interface TableVersions {
  readonly versions: TableVersionMap;
  readonly changes: readonly BucketChange[];
}
