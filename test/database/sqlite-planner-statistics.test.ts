// SQLite keeps row estimates for the planner but no per-value samples: with samples in sqlite_stat4,
// SQLite (built with STAT4, as better-sqlite3 builds it) compiles every statement whose parameters
// constrain a sampled index again on each run, which cost a findOne by documentId four times its read.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import { keepPlannerStatistics } from '../../src/database/sqlite-planner-statistics.js';

const dir = mkdtempSync(join(tmpdir(), 'folio-stats-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function countOf(filename: string, table: string): number {
  const conn = new BetterSqlite(filename, { readonly: true });
  try {
    return Number(conn.prepare(`select count(*) from ${table}`).pluck().get());
  } finally {
    conn.close();
  }
}

/** a database analyzed by a tool without an analysis limit: sqlite_stat4 holds samples */
function sampledDatabase(name: string): string {
  const filename = join(dir, name);
  const conn = new BetterSqlite(filename);
  conn.exec('create table docs (id integer primary key, document_id text, locale text)');
  conn.exec('create index docs_doc_idx on docs (document_id, locale)');
  const insert = conn.prepare('insert into docs (document_id, locale) values (?, ?)');
  conn.transaction(() => {
    for (let i = 0; i < 3000; i++) insert.run(`doc${i % 700}`, i % 3 === 0 ? 'fr' : 'en');
  })();
  conn.exec('analyze');
  conn.close();
  return filename;
}

describe.runIf((process.env['DATABASE_CLIENT'] ?? 'sqlite') === 'sqlite')('SQLite planner statistics', () => {
  it('opening a database drops the samples an earlier ANALYZE left and keeps the row estimates', async () => {
    const filename = sampledDatabase('sampled.db');
    expect(countOf(filename, 'sqlite_stat4')).toBeGreaterThan(0);
    const database = await connect({ client: 'sqlite', filename });
    const rows = await database.db.selectFrom('docs').select('id').where('document_id', '=', 'doc5').where('locale', '=', 'en').execute();
    expect(rows.length).toBeGreaterThan(0);
    await database.db.destroy();
    expect(countOf(filename, 'sqlite_stat4')).toBe(0);
    expect(countOf(filename, "sqlite_stat1 where idx = 'docs_doc_idx'")).toBe(1);
  });

  it('an ANALYZE run on a Folio connection takes no samples', async () => {
    const filename = sampledDatabase('analyzed.db');
    const database = await connect({ client: 'sqlite', filename });
    await sql`insert into docs (document_id, locale) select document_id || 'x', locale from docs`.execute(database.db);
    await sql`analyze`.execute(database.db);
    await database.db.destroy();
    expect(countOf(filename, 'sqlite_stat4')).toBe(0);
    expect(countOf(filename, "sqlite_stat1 where idx = 'docs_doc_idx'")).toBe(1);
  });

  it('a table filled after the connection opened gets row estimates while it stays open', async () => {
    const conn = new BetterSqlite(join(dir, 'filled-later.db'));
    try {
      conn.exec('create table docs (id integer primary key, document_id text, locale text)');
      conn.exec('create index docs_doc_idx on docs (document_id, locale)');
      keepPlannerStatistics(conn, 50);
      const estimate = () => conn.prepare("select stat from sqlite_schema s join sqlite_stat1 t on t.idx = 'docs_doc_idx' where s.name = 'docs'").pluck().get();
      expect(conn.prepare("select 1 from sqlite_schema where name = 'sqlite_stat1'").get()).toBeUndefined();
      const insert = conn.prepare('insert into docs (document_id, locale) values (?, ?)');
      conn.transaction(() => {
        for (let i = 0; i < 3000; i++) insert.run(`doc${i % 700}`, i % 3 === 0 ? 'fr' : 'en');
      })();
      await new Promise((r) => setTimeout(r, 300));
      expect(String(estimate())).toMatch(/^3000 /);
    } finally {
      conn.close();
    }
  });

  it('a refresh while another connection holds the write lock is left for the next one, without an error or a wait', async () => {
    const filename = join(dir, 'locked.db');
    const conn = new BetterSqlite(filename);
    const other = new BetterSqlite(filename);
    try {
      conn.pragma('busy_timeout = 5000');
      conn.exec('create table docs (id integer primary key, document_id text)');
      conn.exec('create index docs_doc_idx on docs (document_id)');
      keepPlannerStatistics(conn, 20);
      // filled after the connection opened: the next refresh has an analysis to write
      const insert = conn.prepare('insert into docs (document_id) values (?)');
      conn.transaction(() => {
        for (let i = 0; i < 500; i++) insert.run(`doc${i}`);
      })();
      other.exec('begin immediate');
      const started = Date.now();
      await new Promise((r) => setTimeout(r, 200));
      // the timer's refreshes gave up at once: no 5 s busy wait held the event loop
      expect(Date.now() - started).toBeLessThan(2000);
      expect(conn.pragma('busy_timeout', { simple: true })).toBe(5000);
      other.exec('rollback');
    } finally {
      other.close();
      conn.close();
    }
  });
});
