// A write the database refuses for a reason that passes (a deadlock, a serialization failure, a busy
// database) is rerun whole, a bounded number of times, then refused with a 503 — never a driver error.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { lockKey } from '../../src/database/key-lock.js';
import { syncSchema } from '../../src/database/sync.js';
import { WRITE_ATTEMPTS, writeTransaction } from '../../src/database/write-transaction.js';
import { ServiceUnavailableError } from '../../src/errors.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

const WRITERS = 50;
let testDb: TestDatabase;
let database: Database;

beforeAll(async () => {
  testDb = await createTestDatabase();
  // a connection per writer: each pair below must hold two connections at once
  database = await connect({ ...testDb.config, poolMax: WRITERS + 2 });
  await syncSchema(database, loadModel(EXAMPLE_DIR));
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

async function lockRows(prefix: string): Promise<number> {
  const rows = await database.db.selectFrom('folio_locks').select('name').where('name', 'like', `${prefix}%`).execute();
  return rows.length;
}

/** Resolves once `n` callers with the same key have arrived. */
function barrier(n: number): (key: number) => Promise<void> {
  const waiting = new Map<number, { count: number; open: () => void; opened: Promise<void> }>();
  return (key) => {
    let w = waiting.get(key);
    if (!w) {
      let open = (): void => {};
      const opened = new Promise<void>((r) => {
        open = r;
      });
      w = { count: 0, open, opened };
      waiting.set(key, w);
    }
    if (++w.count === n) w.open();
    return w.opened;
  };
}

/** A real error of the driver in use that the dialect counts as transient, where SQL can raise one. */
async function raiseTransient(tx: Database['db']): Promise<never> {
  const client = testClient();
  if (client === 'postgres') await sql`do $$ begin raise exception 'serialization failure (test)' using errcode = '40001'; end $$`.execute(tx);
  if (client === 'mysql') await sql`signal sqlstate '40001' set mysql_errno = 1213, message_text = 'deadlock (test)'`.execute(tx);
  // SQLite's busy error can't be raised from SQL: one shaped as better-sqlite3 throws it
  throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
}

describe('writeTransaction', () => {
  it(`${WRITERS} writers in pairs locking two keys in opposite orders all commit; each pair's deadlock is rerun`, async () => {
    const attempts = new Array<number>(WRITERS).fill(0);
    const bothHoldFirst = barrier(2);
    const writer = (i: number) =>
      writeTransaction(database, async (tx) => {
        attempts[i]!++;
        const pair = Math.floor(i / 2);
        const [first, second] = i % 2 ? [`pair${pair}:a`, `pair${pair}:b`] : [`pair${pair}:b`, `pair${pair}:a`];
        await lockKey(tx, database.dialect, first);
        // with row locks, both members of a pair hold their first key before either asks for its second:
        // a certain deadlock. SQLite runs one transaction at a time, so there nothing can deadlock
        if (database.dialect.rowLocks && attempts[i] === 1) await bothHoldFirst(pair);
        await lockKey(tx, database.dialect, second);
        await lockKey(tx, database.dialect, `done:${i}`);
      });
    await Promise.all(Array.from({ length: WRITERS }, (_, i) => writer(i)));
    expect(await lockRows('done:')).toBe(WRITERS);
    // every pair deadlocked (MySQL may add a deadlock between neighbouring new keys of the lock table)
    const pairsRerun = new Set(attempts.flatMap((n, i) => (n > 1 ? [Math.floor(i / 2)] : []))).size;
    expect(pairsRerun).toBe(database.dialect.rowLocks ? WRITERS / 2 : 0);
  });

  it(`a write refused every time is tried ${WRITE_ATTEMPTS} times, then a 503 ServiceUnavailableError; nothing is written`, async () => {
    let attempts = 0;
    const refused = writeTransaction(database, async (tx) => {
      attempts++;
      await lockKey(tx, database.dialect, `refused:${attempts}`);
      await raiseTransient(tx);
    });
    await expect(refused).rejects.toBeInstanceOf(ServiceUnavailableError);
    await expect(refused).rejects.toMatchObject({ status: 503, message: expect.stringMatching(/too busy.*nothing was written/) });
    expect(attempts).toBe(WRITE_ATTEMPTS);
    expect(await lockRows('refused:')).toBe(0);
  });

  it('other errors are not rerun', async () => {
    let attempts = 0;
    const failing = writeTransaction(database, async () => {
      attempts++;
      throw new Error('not transient');
    });
    await expect(failing).rejects.toThrow('not transient');
    expect(attempts).toBe(1);
  });

  it.runIf(testClient() === 'sqlite')(
    'SQLite: a write waits out another process holding the write lock past the busy timeout',
    async () => {
      const file = testDb.config.filename!;
      // another process takes the write lock and keeps it a little longer than the 5 s busy timeout
      const holder = spawn(
        process.execPath,
        [
          '-e',
          `
      const db = new (require('better-sqlite3'))(${JSON.stringify(file)});
      db.exec('begin immediate');
      console.log('locked');
      setTimeout(() => { db.exec('commit'); db.close(); }, 5500);
    `,
        ],
        { cwd: fileURLToPath(new URL('../..', import.meta.url)) },
      );
      try {
        await new Promise<void>((resolve, reject) => {
          holder.stdout.on('data', (d: Buffer) => {
            if (d.toString().includes('locked')) resolve();
          });
          holder.on('exit', () => reject(new Error('the lock holder exited early')));
        });
        await writeTransaction(database, (tx) => lockKey(tx, database.dialect, 'after-busy'));
        expect(await lockRows('after-busy')).toBe(1);
      } finally {
        holder.kill();
      }
    },
    20_000,
  );
});
