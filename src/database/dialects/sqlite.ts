import { sql, type Expression } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { ScalarType } from '../../schema/types.js';

const TYPES: Record<ScalarType, string> = {
  string: 'text', text: 'text', richtext: 'text', enumeration: 'text', email: 'text', password: 'text', uid: 'text',
  date: 'text', time: 'text', datetime: 'text', timestamp: 'text',
  integer: 'integer', biginteger: 'integer', float: 'real', decimal: 'real',
  boolean: 'integer', json: 'text', blocks: 'text',
};

/** Name of the Unicode lower-casing function registered on every SQLite connection. */
export const SQLITE_LOWER = 'folio_lower';

export const sqliteDialect: Dialect = {
  name: 'sqlite',
  columnType: (t) => sql.raw(TYPES[t]),
  idType: 'integer',
  autoIncrement: true,
  indexNames: sql<{ name: string }>`select name from sqlite_master where type = 'index'`,
  dropIndexOnTable: false,
  lower: (e: Expression<unknown>) => sql<string>`${sql.raw(SQLITE_LOWER)}(${e})`,
  toDatetime: (d) => d.toISOString(),
  toBoolean: (b) => (b ? 1 : 0),
  newId: 'null',
  returning: true,
  insertIgnore: 'on-conflict',
  parallelReads: false,
  writesInOneStatement: false,
  tableSuffix: '',
  binarySort: '',
  nullsFirstOnAsc: true,
};
