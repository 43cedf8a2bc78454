// Rows read through the reused, raw-mode SQLite statements look exactly like better-sqlite3's own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';

const dir = mkdtempSync(join(tmpdir(), 'folio-rows-'));
const filename = join(dir, 'rows.db');
let database: Database;

beforeAll(async () => {
  database = await connect({ client: 'sqlite', filename });
  await sql`create table t (id integer primary key, name text, n real, b blob)`.execute(database.db);
  await sql`insert into t (name, n, b) values ('a', 1.5, x'00ff'), ('b', null, null)`.execute(database.db);
});
afterAll(async () => {
  await database.db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe.runIf((process.env['DATABASE_CLIENT'] ?? 'sqlite') === 'sqlite')('SQLite rows', () => {
  it('come back as objects keyed by column name, with every value type intact', async () => {
    const rows = await database.db.selectFrom('t').selectAll().orderBy('id').execute();
    expect(rows).toEqual([
      { id: 1, name: 'a', n: 1.5, b: Buffer.from([0, 255]) },
      { id: 2, name: 'b', n: null, b: null },
    ]);
  });

  it('a repeated column name keeps the last value, as better-sqlite3 does', async () => {
    const { rows } = await sql<{ x: number }>`select 1 as x, 2 as x`.execute(database.db);
    expect(rows).toEqual([{ x: 2 }]);
  });

  it('a column named __proto__ is an ordinary key, not the prototype', async () => {
    const { rows } = await sql<Record<string, unknown>>`select 1 as "__proto__", 2 as y`.execute(database.db);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(rows[0], '__proto__')?.value).toBe(1);
    expect(rows[0]!['y']).toBe(2);
  });

  it('a column another process adds after a statement was first run appears in its next result', async () => {
    const read = () => database.db.selectFrom('t').selectAll().where('id', '=', 1).executeTakeFirstOrThrow();
    expect(Object.keys(await read())).toEqual(['id', 'name', 'n', 'b']);
    const other = new BetterSqlite(filename);
    other.exec(`alter table t add column extra text default 'x'`);
    other.close();
    expect(await read()).toEqual({ id: 1, name: 'a', n: 1.5, b: Buffer.from([0, 255]), extra: 'x' });
  });

  it('a column added through the same connection appears too', async () => {
    await sql`alter table t add column more integer default 7`.execute(database.db);
    const row = await database.db.selectFrom('t').selectAll().where('id', '=', 2).executeTakeFirstOrThrow();
    expect(row).toEqual({ id: 2, name: 'b', n: null, b: null, extra: 'x', more: 7 });
  });
});
