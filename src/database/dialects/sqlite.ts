import { sql, type Expression } from 'kysely';
import { inList } from '../in-list.js';
import { lowerLike } from '../like-insensitive.js';
import type { Dialect } from '../dialect.js';
import { sqliteVersionTriggers } from './sqlite-version-triggers.js';
import { errorCode } from '../driver-error.js';
import type { ScalarType } from '../../schema/types.js';

const TYPES: Record<ScalarType, string> = {
  string: 'text',
  text: 'text',
  richtext: 'text',
  enumeration: 'text',
  email: 'text',
  password: 'text',
  uid: 'text',
  date: 'text',
  time: 'text',
  datetime: 'text',
  timestamp: 'text',
  integer: 'integer',
  biginteger: 'integer',
  float: 'real',
  decimal: 'real',
  boolean: 'integer',
  json: 'text',
  blocks: 'text',
};

/** Name of the Unicode lower-casing function registered on every SQLite connection. */
export const SQLITE_LOWER = 'folio_lower';

const sqliteLower = (e: Expression<unknown>) => sql<string>`${sql.raw(SQLITE_LOWER)}(${e})`;

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  columnType: (t) => sql.raw(TYPES[t]),
  idType: 'integer',
  autoIncrement: true,
  indexNames: sql<{ name: string; table: string }>`select name, tbl_name as "table" from sqlite_master where type = 'index'`,
  indexesInCreateTable: false,
  dropIndexOnTable: false,
  lower: sqliteLower,
  likeInsensitive: lowerLike(sqliteLower),
  likePattern: (pattern) => sql.val(pattern),
  oneOf: inList,
  text: (e: Expression<unknown>) => sql<string>`cast(${e} as text)`,
  // one JSON text parameter, its rows read by json_each: a statement of one shape whatever the number of keys
  keyRows: (alias, columns) => {
    const rows = columns[0]!.values.map((_, r) => columns.map((c) => c.values[r]));
    const picked = columns.map((c, n) => sql`json_extract(${sql.ref('value')}, ${`$[${n}]`}) as ${sql.id(c.name)}`);
    return sql`(select ${sql.join(picked)}, ${sql.ref('key')} + 1 as "i" from json_each(${JSON.stringify(rows)})) as ${sql.id(alias)}`;
  },
  toDatetime: (d) => d.toISOString(),
  toBoolean: (b) => (b ? 1 : 0),
  decimalPlaces: null,
  newId: 'null',
  returning: true,
  insertIgnore: 'on-conflict',
  upsertReturning: true,
  idsFromSequence: false,
  consecutiveIds: null,
  writesInOneStatement: false,
  tableSuffix: '',
  binarySort: '',
  correlatedDerivedTables: true,
  nullsFirstOnAsc: true,
  // write transactions begin IMMEDIATE (sqlite-immediate.ts), which already serializes them
  rowLocks: false,
  sharedRowLock: '',
  writerRowLock: '',
  writeIsolation: null,
  // SQLITE_BUSY and its extended codes: another process held the write lock past the busy timeout
  isTransient: (e) => {
    const c = errorCode(e);
    return typeof c === 'string' && c.startsWith('SQLITE_BUSY');
  },
  // the write lock: SQLite's DDL is transactional, so the whole sync is one write transaction
  schemaLock: { take: sql`begin immediate`, release: sql`commit` },
  versionTriggers: sqliteVersionTriggers,
  statementBound: null,
};
