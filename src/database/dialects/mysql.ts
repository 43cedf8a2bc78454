import { sql, type Expression } from 'kysely';
import { inList } from '../in-list.js';
import { lowerLike } from '../like-insensitive.js';
import type { Dialect } from '../dialect.js';
import { errorNumber } from '../driver-error.js';
import type { ScalarType } from '../../schema/types.js';

const TYPES: Record<ScalarType, string> = {
  string: 'varchar(255)',
  text: 'longtext',
  richtext: 'longtext',
  enumeration: 'varchar(255)',
  email: 'varchar(255)',
  password: 'varchar(255)',
  uid: 'varchar(255)',
  date: 'date',
  time: 'time(3)',
  datetime: 'datetime(3)',
  timestamp: 'datetime(3)',
  integer: 'int',
  biginteger: 'bigint',
  float: 'double',
  decimal: 'decimal(10,2)',
  boolean: 'boolean',
  json: 'longtext',
  blocks: 'longtext',
};

const mysqlLower = (e: Expression<unknown>) => sql<string>`lower(${e})`;

export const mysqlDialect: Dialect = {
  name: 'mysql',
  columnType: (t) => sql.raw(TYPES[t]),
  idType: 'integer',
  autoIncrement: true,
  indexNames: sql<{ name: string; table: string }>`select distinct index_name as name, table_name as \`table\` from information_schema.statistics where table_schema = database()`,
  indexesInCreateTable: true,
  dropIndexOnTable: true,
  lower: mysqlLower,
  likeInsensitive: lowerLike(mysqlLower),
  likePattern: (pattern) => sql.val(pattern),
  oneOf: inList,
  text: (e: Expression<unknown>) => sql<string>`cast(${e} as char)`,
  keyRows: null,
  toDatetime: (d) => d,
  toBoolean: (b) => b,
  decimalPlaces: 2,
  newId: 'default',
  returning: false,
  insertIgnore: 'ignore',
  upsertReturning: false,
  idsFromSequence: false,
  // read from the server's settings at connect (connect.ts)
  consecutiveIds: null,
  writesInOneStatement: false,
  // binary collation: `=`, LIKE and ORDER BY compare exactly, as on PostgreSQL and SQLite
  tableSuffix: 'default character set utf8mb4 collate utf8mb4_bin',
  binarySort: '',
  correlatedDerivedTables: false,
  nullsFirstOnAsc: true,
  rowLocks: true,
  // MariaDB has no FOR SHARE; both read this form
  sharedRowLock: 'lock in share mode',
  writerRowLock: 'for update',
  writeIsolation: 'read committed',
  // ER_LOCK_DEADLOCK, ER_LOCK_WAIT_TIMEOUT
  isTransient: (e) => errorNumber(e) === 1213 || errorNumber(e) === 1205,
  // GET_LOCK names are server-wide: the database's name keeps two databases apart. It answers 0 after
  // the timeout (MariaDB has no wait without limit); a sync longer than 10 minutes is not expected
  // no counters: see Dialect.versionTriggers
  versionTriggers: null,
  schemaLock: {
    take: sql`select get_lock(concat('folio schema sync ', coalesce(database(), '')), 600) as locked`,
    release: sql`select release_lock(concat('folio schema sync ', coalesce(database(), ''))) as released`,
  },
  statementBound: null,
};
