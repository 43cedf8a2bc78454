// Rate-limit counters in the database, so every process on it counts together (`folio start
// --workers N`, several servers on one PostgreSQL or MariaDB). One row per key: its hits in the
// window that ends at reset_at (epoch ms); a window starts at the key's first hit, as koa2-ratelimit's
// does in Strapi. A request is one atomic upsert-and-increment; windows that ended are swept now and then.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Database } from '../../database/dialect.js';
import { WRITE_ATTEMPTS, writeTransaction } from '../../database/write-transaction.js';

export const RATE_LIMIT_TABLE = 'folio_rate_limits';

/** how often (at most) one process deletes the rows of windows that ended */
const SWEEP_EVERY_MS = 60_000;

export interface Hit {
  /** requests counted in the current window, this one included */
  readonly hits: number;
  /** when the window ends, epoch ms */
  readonly resetAt: number;
}

/**
 * The stored key: a digest, so any identifier (a 10 kB or NUL-holding `email` included) fits the
 * column and compares exactly on every dialect.
 */
const digest = (key: string): string => createHash('sha256').update(key).digest('base64url');

export class RateLimitCounters {
  private nextSweep = 0;

  constructor(private readonly database: Database) {}

  /** Counts one request of `key` in a window of `windowMs`, and answers the count and the window's end. */
  async hit(key: string, windowMs: number, now = Date.now()): Promise<Hit> {
    const { db, dialect } = this.database;
    const rlKey = digest(key);
    const ended = sql<boolean>`${sql.ref(`${RATE_LIMIT_TABLE}.reset_at`)} <= ${now}`;
    // hits first: MySQL assigns left to right, and both must see the old reset_at
    const set = {
      hits: sql`case when ${ended} then 1 else ${sql.ref(`${RATE_LIMIT_TABLE}.hits`)} + 1 end`,
      reset_at: sql`case when ${ended} then ${now + windowMs} else ${sql.ref(`${RATE_LIMIT_TABLE}.reset_at`)} end`,
    };
    const insert = (d: Database['db']) => d.insertInto(RATE_LIMIT_TABLE).values({ rl_key: rlKey, hits: 1, reset_at: now + windowMs });
    let row: { hits: unknown; reset_at: unknown };
    if (dialect.upsertReturning) {
      const upsert = insert(db)
        .onConflict((oc) => oc.column('rl_key').doUpdateSet(set))
        .returning(['hits', 'reset_at']);
      row = await transientRetry(this.database, () => upsert.executeTakeFirstOrThrow());
    } else {
      row = await writeTransaction(this.database, async (tx) => {
        await insert(tx).onDuplicateKeyUpdate(set).execute();
        return tx.selectFrom(RATE_LIMIT_TABLE).select(['hits', 'reset_at']).where('rl_key', '=', rlKey).executeTakeFirstOrThrow();
      });
    }
    this.sweep(now);
    return { hits: Number(row.hits), resetAt: Number(row.reset_at) };
  }

  /** Deletes the rows of ended windows, at most once a minute per process, off the request's path. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    void this.database.db
      .deleteFrom(RATE_LIMIT_TABLE)
      .where('reset_at', '<=', now)
      .execute()
      .catch(() => undefined); // the next sweep deletes them
  }
}

/** One statement, rerun when the database refused it for a reason that passes (SQLite busy, a deadlock). */
async function transientRetry<T>(database: Database, run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (e) {
      if (attempt >= WRITE_ATTEMPTS || !database.dialect.isTransient(e)) throw e;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt * Math.random()));
    }
  }
}
