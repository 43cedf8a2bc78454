// SQLite transactions that take the write lock when they begin (BEGIN IMMEDIATE). Kysely begins
// DEFERRED: the transaction reads on a snapshot and asks for the write lock at its first write, and
// if another process committed in between the snapshot is stale and SQLite refuses at once
// (SQLITE_BUSY_SNAPSHOT: the busy timeout can't help). Taken up front, the lock is waited for with
// the busy timeout, and what the transaction then reads is current. Folio's only transactions are
// writes, so every transaction begins this way.
import { CompiledQuery, SqliteDialect, SqliteDriver, type DatabaseConnection, type Driver, type SqliteDialectConfig } from 'kysely';

class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  constructor(config: SqliteDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
