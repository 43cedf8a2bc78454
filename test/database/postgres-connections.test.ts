// PostgreSQL's connections. Reads outside transactions share a few pipelined connections
// (dialects/postgres-pipeline.ts): statements sent together must each get their own rows and their
// own error, a lost connection must fail only what was sent on it, and nothing that would change the
// shared session may run there. Their texts are prepared once per connection, and a connection holding
// too many is replaced without failing what was sent on it. An idle pooled connection that dies (server
// restart, terminated backend) is dropped without crashing the process, and said on stderr so an
// operator sees it.
// (SQLite has no pool, and MariaDB's pool drops a dead idle connection itself.)
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'kysely';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { createTestDatabase, testClient, type TestDatabase } from '../support/database.js';

describe.skipIf(testClient() !== 'postgres')('PostgreSQL connections', () => {
  let testDb: TestDatabase;
  let database: Database;
  beforeAll(async () => {
    testDb = await createTestDatabase();
    database = await connect(testDb.config);
  });
  afterAll(async () => {
    await database.close();
    await testDb.drop();
  });

  const reading = <T>(read: (d: Database) => Promise<T>): Promise<T> => database.recordReads(read).then((r) => r.value);

  it('200 statements sent at once each get their own rows', async () => {
    const values = Array.from({ length: 200 }, (_, i) => i);
    const rows = await reading((d) => Promise.all(values.map((i) => sql<{ v: number }>`select ${i}::int as v, pg_sleep(0) as s`.execute(d.db))));
    expect(rows.map((r) => r.rows[0]!.v)).toEqual(values);
  });

  it('they run on the pipelined connections, not the pool', async () => {
    const names = await reading((d) => Promise.all(Array.from({ length: 4 }, () => sql<{ name: string }>`select current_setting('application_name') as name`.execute(d.db))));
    expect(new Set(names.map((n) => n.rows[0]!.name))).toEqual(new Set(['folio reads']));
    const outside = await sql<{ name: string }>`select current_setting('application_name') as name`.execute(database.db);
    expect(outside.rows[0]!.name).not.toBe('folio reads');
  });

  it("the reads any request may make (its caller's checks, the change mark) have a connection of their own", async () => {
    const checks = await sql<{ name: string }>`select current_setting('application_name') as name`.execute(database.reads);
    expect(checks.rows[0]!.name).toBe('folio checks');
    // a recording copy (a content read's) sends its caller checks there too, its content reads to the read connections
    const names = await reading(async (d) => [
      (await sql<{ name: string }>`select current_setting('application_name') as name`.execute(d.reads)).rows[0]!.name,
      (await sql<{ name: string }>`select current_setting('application_name') as name`.execute(d.db)).rows[0]!.name,
    ]);
    expect(names).toEqual(['folio checks', 'folio reads']);
  });

  it('rows come back as objects keyed by column name, with every value type as the pool gives it', async () => {
    const text = sql<Record<string, unknown>>`select 1::int as i, 'a'::text as s, 1.5::float8 as f, null::text as n, true as b, '\\x00ff'::bytea as x, '{"k":[1]}'::jsonb as j`;
    const [piped] = await reading((d) => Promise.all([text.execute(d.db)]));
    const pooled = await text.execute(database.db);
    expect(piped.rows).toEqual([{ i: 1, s: 'a', f: 1.5, n: null, b: true, x: Buffer.from([0, 255]), j: { k: [1] } }]);
    expect(piped.rows).toEqual(pooled.rows);
    expect(Object.getPrototypeOf(piped.rows[0])).toBe(Object.prototype);
  });

  it('a list parameter reaches the server item for item: quotes, backslashes, commas, braces, spaces, NULL as text, unicode, numbers', async () => {
    const texts = ['a"b', 'c\\d', '\\"', 'e,f', '{g}', ' h ', 'NULL', '', 'é🙂', 'plain'];
    const numbers = [0, -1, 2.5, 1e21, 2147483647];
    const [t, n] = await reading((d) =>
      Promise.all([sql<{ v: string }>`select unnest(${texts}::text[]) as v`.execute(d.db), sql<{ v: number }>`select unnest(${numbers}::float8[]) as v`.execute(d.db)]),
    );
    expect(t.rows.map((r) => r.v)).toEqual(texts);
    expect(n.rows.map((r) => r.v)).toEqual(numbers);
  });

  it('a repeated column name keeps the last value, and a column named __proto__ is an ordinary key', async () => {
    const [repeated, proto] = await reading((d) =>
      Promise.all([sql<Record<string, unknown>>`select 1 as x, 2 as x`.execute(d.db), sql<Record<string, unknown>>`select 1 as "__proto__", 2 as y`.execute(d.db)]),
    );
    expect(repeated.rows).toEqual([{ x: 2 }]);
    expect(Object.getPrototypeOf(proto.rows[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(proto.rows[0], '__proto__')?.value).toBe(1);
    expect(proto.rows[0]!['y']).toBe(2);
  });

  it('a text whose columns change (a column added meanwhile) gets the new columns as keys', async () => {
    await sql`create table shape_t (id int primary key)`.execute(database.db);
    await sql`insert into shape_t values (1)`.execute(database.db);
    const read = () => reading((d) => d.db.selectFrom('shape_t').selectAll().execute());
    expect(await read()).toEqual([{ id: 1 }]);
    await sql`alter table shape_t add column extra text default 'x'`.execute(database.db);
    expect(await read()).toEqual([{ id: 1, extra: 'x' }]);
  });

  it('a failing statement fails alone: the statements sent with it get their rows', async () => {
    const [before, failed, after] = await reading((d) =>
      Promise.allSettled([sql`select 1 as v`.execute(d.db), sql`select 1 / 0 as v`.execute(d.db), sql`select 3 as v`.execute(d.db)]),
    );
    expect(before).toMatchObject({ status: 'fulfilled', value: { rows: [{ v: 1 }] } });
    expect(failed.status).toBe('rejected');
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(after).toMatchObject({ status: 'fulfilled', value: { rows: [{ v: 3 }] } });
  });

  it('a transaction, a session setting or dropping prepared statements is refused there', async () => {
    await expect(reading((d) => d.db.transaction().execute(async (trx) => sql`select 1`.execute(trx)))).rejects.toThrow(/not run on a shared read connection: begin/);
    await expect(reading((d) => sql`set statement_timeout = 1`.execute(d.db))).rejects.toThrow(/not run on a shared read connection: set/);
    await expect(reading((d) => sql`discard all`.execute(d.db))).rejects.toThrow(/not run on a shared read connection: discard all/);
    await expect(reading((d) => sql`deallocate all`.execute(d.db))).rejects.toThrow(/not run on a shared read connection: deallocate all/);
  });

  it('a repeated read is parsed once: its text is a prepared statement on the read connections', async () => {
    const marker = `prepared-${Date.now()}`;
    for (let i = 0; i < 6; i++) {
      const r = await reading((d) => sql<{ v: number; m: string }>`select ${i}::int as v, ${sql.lit(marker)} as m`.execute(d.db));
      expect(r.rows[0]).toEqual({ v: i, m: marker });
    }
    // each turn's statements go to the next connection: ask both, two turns
    const seen = [];
    for (let i = 0; i < 2; i++) {
      seen.push(...(await reading((d) => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`}`.execute(d.db))).rows);
    }
    expect(seen.map((r) => r.n).sort()).toEqual([1, 1]);
  });

  it('a read matching a LIKE pattern is planned for its pattern: it is sent unnamed, never held as a prepared statement', async () => {
    const marker = `pattern-${Date.now()}`;
    for (const pattern of ['%a%', '%b%', '%', '%x%', '%y%', '%z%']) {
      const r = await reading((d) => sql<{ m: string }>`select ${sql.lit(marker)} as m where ${sql.lit('a')} ilike ${pattern} escape '!'`.execute(d.db));
      expect(r.rows.length).toBe(pattern === '%a%' || pattern === '%' ? 1 : 0);
    }
    const held = [];
    for (let i = 0; i < 2; i++)
      held.push(...(await reading((d) => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like ${`%${marker}%`}`.execute(d.db))).rows);
    expect(held.map((h) => h.n)).toEqual([0, 0]);
  });

  it('with DATABASE_PREPARED_STATEMENTS=false (a pooler that drops them) reads are sent unnamed', async () => {
    const unnamed = await connect({ ...testDb.config, preparedStatements: false });
    try {
      const marker = `unnamed-${Date.now()}`;
      for (let i = 0; i < 6; i++) {
        const r = await unnamed.recordReads((d) => sql<{ v: number }>`select ${i}::int as v, ${sql.lit(marker)} as m`.execute(d.db));
        expect(r.value.rows[0]!.v).toBe(i);
      }
      const held = [];
      for (let i = 0; i < 2; i++)
        held.push(...(await unnamed.recordReads((d) => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(d.db))).value.rows);
      expect(held.map((h) => h.n)).toEqual([0, 0]);
    } finally {
      await unnamed.close();
    }
  });

  it('a read connection holding 500 prepared statements is replaced, and the reads sent meanwhile get their rows', async () => {
    const pids = async (): Promise<number[]> => {
      const rows = [];
      for (let i = 0; i < 2; i++) rows.push(...(await reading((d) => sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(d.db))).rows);
      return rows.map((r) => r.pid).sort();
    };
    const before = await pids();
    // 1,200 texts, in batches sent at once: each text differs, so each is a new prepared statement
    for (let batch = 0; batch < 6; batch++) {
      const ids = Array.from({ length: 200 }, (_, i) => batch * 200 + i);
      const rows = await reading((d) => Promise.all(ids.map((i) => sql<{ v: number }>`select ${sql.lit(i)}::int as v`.execute(d.db))));
      expect(rows.map((r) => r.rows[0]!.v)).toEqual(ids);
    }
    const after = await pids();
    expect(after).not.toEqual(before);
    const held = [];
    for (let i = 0; i < 2; i++) held.push(...(await reading((d) => sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements`.execute(d.db))).rows);
    for (const h of held) expect(h.n).toBeLessThanOrEqual(500);
    // the replaced backends are closed, not left idle
    await vi.waitFor(async () => {
      const open = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where application_name = 'folio reads' and datname = current_database()`.execute(
        database.db,
      );
      expect(open.rows[0]!.n).toBeLessThanOrEqual(2);
    });
  });

  it('a read connection older than its age limit is replaced: a generic plan made on a small table does not serve it for long', async () => {
    const pg = (await import('pg')).default;
    const { PipelinedReads, READ_CONNECTION_LIMITS } = await import('../../src/database/dialects/postgres-pipeline.js');
    const reads = new PipelinedReads(
      () => new pg.Client({ ...testDb.config, pipeline: true } as import('pg').ClientConfig),
      1,
      () => {},
      { ...READ_CONNECTION_LIMITS, ageMs: 300 },
    );
    const client = await reads.pool().connect();
    try {
      const pid = async (): Promise<number> => ((await client.query('select pg_backend_pid() as pid', [])).rows[0] as { pid: number }).pid;
      const first = await pid();
      expect(await pid()).toBe(first);
      await new Promise((r) => setTimeout(r, 400));
      const [later, ...sentWithIt] = await Promise.all([pid(), ...[1, 2, 3].map((i) => client.query('select $1::int as v', [i]))]);
      expect(later).not.toBe(first);
      expect(sentWithIt.map((r) => r.rows[0])).toEqual([{ v: 1 }, { v: 2 }, { v: 3 }]);
    } finally {
      await reads.pool().end();
    }
  });

  it('reads sent while one read runs long go to a connection that is free, one turn after another', async () => {
    const done: string[] = [];
    const slow = reading((d) => sql`select pg_sleep(1.5)`.execute(d.db)).then(() => done.push('slow'));
    // each in a turn of its own, as separate requests send them: taken in turn, every other one queued behind the sleep
    for (let i = 0; i < 4; i++) {
      await new Promise((r) => setImmediate(r));
      await reading((d) => sql`select ${i}::int as v`.execute(d.db));
      done.push(`quick ${i}`);
    }
    await slow;
    expect(done).toEqual(['quick 0', 'quick 1', 'quick 2', 'quick 3', 'slow']);
  });

  it('a terminated read connection is logged, and the next read opens a new one', async () => {
    await reading((d) => Promise.all([sql`select 1`.execute(d.db), sql`select 2`.execute(d.db)]));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ ...testDb.config, database: 'postgres' } as import('pg').ClientConfig);
      await admin.connect();
      const killed = await admin.query(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'folio reads' and datname = $1`, [testDb.config.database]);
      await admin.end();
      expect(killed.rowCount).toBeGreaterThan(0);
      await vi.waitFor(() => expect(logged).toHaveBeenCalled(), { timeout: 5000 });
      expect(String(logged.mock.calls[0]![0])).toMatch(/pipelined PostgreSQL read connection failed/);
      // every killed read connection says so, once (node-postgres raises two errors for each), before the spy goes
      await vi.waitFor(() => expect(logged.mock.calls.length).toBeGreaterThanOrEqual(killed.rowCount ?? 0), { timeout: 5000 });
      await new Promise((r) => setTimeout(r, 200));
      expect(logged.mock.calls).toHaveLength(killed.rowCount ?? 0);
    } finally {
      logged.mockRestore();
    }
    const again = await reading((d) => Promise.all([1, 2, 3, 4].map((i) => sql<{ v: number }>`select ${i}::int as v`.execute(d.db))));
    expect(again.map((r) => r.rows[0]!.v)).toEqual([1, 2, 3, 4]);
  });

  it('a terminated idle connection is logged, and the next query gets a new one', async () => {
    const pid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(database.db)).rows[0]!.pid;
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const pg = (await import('pg')).default;
      const admin = new pg.Client({ ...testDb.config, database: 'postgres' } as import('pg').ClientConfig);
      await admin.connect();
      await admin.query('select pg_terminate_backend($1)', [pid]);
      await admin.end();
      // a read connection killed by the test before may still be reporting: look for this one's line
      const said = (): string[] => logged.mock.calls.map((c) => String(c[0]));
      await vi.waitFor(() => expect(said().some((l) => /idle PostgreSQL connection failed/.test(l))).toBe(true), { timeout: 5000 });
    } finally {
      logged.mockRestore();
    }
    const again = await sql<{ one: number }>`select 1 as one`.execute(database.db);
    expect(again.rows[0]!.one).toBe(1);
  });
});
