import { sql, type Expression, type SqlBool } from 'kysely';
import type { Dialect } from '../dialect.js';
import { postgresVersionTriggers } from './postgres-version-triggers.js';
import { errorCode } from '../driver-error.js';
import { ilike } from '../like-insensitive.js';
import { patternLiteral } from './postgres-pattern-literal.js';
import type { ScalarType } from '../../schema/types.js';

const TYPES: Record<ScalarType, string> = {
  string: 'varchar(255)',
  text: 'text',
  richtext: 'text',
  enumeration: 'varchar(255)',
  email: 'varchar(255)',
  password: 'varchar(255)',
  uid: 'varchar(255)',
  date: 'date',
  time: 'time(3)',
  datetime: 'timestamptz(3)',
  timestamp: 'timestamptz(3)',
  integer: 'integer',
  biginteger: 'bigint',
  float: 'double precision',
  decimal: 'numeric(10,2)',
  boolean: 'boolean',
  json: 'text',
  blocks: 'text',
};

export const postgresDialect: Dialect = {
  name: 'postgres',
  columnType: (t) => sql.raw(TYPES[t]),
  idType: 'serial',
  autoIncrement: false,
  indexNames: sql<{ name: string; table: string }>`select indexname as name, tablename as "table" from pg_indexes where schemaname = current_schema()`,
  indexesInCreateTable: false,
  dropIndexOnTable: false,
  lower: (e: Expression<unknown>) => sql<string>`lower(${e})`,
  likeInsensitive: (e, pattern, negate) => ilike(e, patternLiteral(pattern), negate),
  likePattern: patternLiteral,
  // one value is an equality: its generic plan is the one `= $1` gets (an index probe), where an
  // array's assumes several values (a findOne's populate cost its backend twice the CPU)
  oneOf: (e, values, type) =>
    values.length === 1 ? sql<SqlBool>`${e} = ${values[0]}` : sql<SqlBool>`${e} = any(${sql.val(values)}::${sql.raw(type === 'integer' ? 'int[]' : 'text[]')})`,
  text: (e: Expression<unknown>) => sql<string>`cast(${e} as text)`,
  keyRows: (alias, columns) =>
    sql`unnest(${sql.join(columns.map((c) => sql`${sql.val(c.values)}::${sql.raw(c.type === 'integer' ? 'int[]' : 'text[]')}`))}) with ordinality as ${sql.id(alias)}(${sql.join(columns.map((c) => sql.id(c.name)))}, "i")`,
  toDatetime: (d) => d,
  toBoolean: (b) => b,
  decimalPlaces: 2,
  newId: 'default',
  returning: true,
  insertIgnore: 'on-conflict',
  upsertReturning: true,
  idsFromSequence: true,
  consecutiveIds: null,
  writesInOneStatement: true,
  tableSuffix: '',
  binarySort: ' collate "C"',
  correlatedDerivedTables: true,
  nullsFirstOnAsc: false,
  rowLocks: true,
  // the weakest lock a DELETE waits for: updates of the row's other columns don't
  sharedRowLock: 'for key share',
  writerRowLock: 'for no key update',
  writeIsolation: null,
  // deadlock_detected, serialization_failure
  isTransient: (e) => errorCode(e) === '40P01' || errorCode(e) === '40001',
  versionTriggers: postgresVersionTriggers,
  // a session advisory lock, per database and schema (a schema per tenant keeps its own)
  schemaLock: {
    take: sql`select pg_advisory_lock(hashtext('folio schema sync ' || current_schema()))`,
    release: sql`select pg_advisory_unlock(hashtext('folio schema sync ' || current_schema()))`,
  },
  // RESET goes back to the connection's own setting, the bound the pool opened it with
  statementBound: { lift: sql`set statement_timeout = 0`, restore: sql`reset statement_timeout`, liftInTransaction: sql`set local statement_timeout = 0` },
};
