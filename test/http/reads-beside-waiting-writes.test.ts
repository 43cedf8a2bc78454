// On PostgreSQL and MariaDB a write waiting for a document's lock holds one of the pool's connections
// while it waits. Reads must not need the pool: answering a request checks its caller (the API token,
// the user's state, the roles) again after any commit, and those checks, PostgreSQL's change mark and
// the reads themselves go to the read connections, so a burst of writes queued on one document doesn't
// hold up every other request. (SQLite runs one write at a time in the process and keeps no pool.)
import pg from 'pg';
import mysql from 'mysql2/promise';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';
import { register } from '../users-permissions/helpers.js';

describe.skipIf(testClient() === 'sqlite')('reads beside writes waiting for a lock', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t?.close();
  });

  /** A connection of another process: runs a statement, says how many statements wait for a lock, ends. */
  interface Outside {
    run(text: string, values?: unknown[]): Promise<unknown>;
    lockWaits(): Promise<number>;
    end(): Promise<void>;
  }

  async function outside(): Promise<Outside> {
    const c = t.app.config.database;
    if (c.client === 'postgres') {
      const pc = new pg.Client({ host: c.host, port: c.port, user: c.user, password: c.password, database: c.database });
      await pc.connect();
      return {
        run: (text, values) => pc.query(text.replace(/\?/g, '$1'), values),
        lockWaits: async () =>
          (await pc.query(`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`)).rows[0].n as number,
        end: () => pc.end(),
      };
    }
    if (c.client !== 'mysql') throw new Error('a server database only');
    const mc = await mysql.createConnection({ host: c.host, port: c.port, user: c.user, password: c.password, database: c.database });
    return {
      run: (text, values) => mc.query(text, values),
      // innodb_trx says LOCK WAIT only some time into the wait
      lockWaits: async () =>
        Number(
          (
            (await mc.query(`select count(*) as n from information_schema.processlist where db = database() and id <> connection_id() and info like '% for update'`))[0] as {
              n: number;
            }[]
          )[0]!.n,
        ),
      end: () => mc.end(),
    };
  }

  it("a read is answered while every pooled connection is held by a write waiting for one document's lock", async () => {
    const article = await t.request('POST', '/api/articles', { body: { data: { title: 'Held' } } });
    expect(article.status).toBe(201);
    const documentId = article.body.data.documentId as string;
    const ann = await register(t, 'ann');
    await t.app.services.roles.grant('authenticated', ['api::tag.tag.find']);
    // answered once, so the caller checks are kept until the next commit
    expect((await t.get('/api/tags')).status).toBe(200);
    expect((await t.get('/api/users/me', { token: ann.jwt })).status).toBe(200);

    // another process's transaction holds the document's rows
    const holder = await outside();
    await holder.run('begin');
    await holder.run('select id from articles where document_id = ? for update', [documentId]);
    const writes = Array.from({ length: 8 }, (_, i) => t.request('PUT', `/api/articles/${documentId}`, { body: { data: { title: `Held ${i}` } } }));
    try {
      const other = await outside();
      try {
        // the pool's four connections, each with a write waiting for the lock
        for (let i = 0; i < 100 && (await other.lockWaits()) < 4; i++) await new Promise((r) => setTimeout(r, 50));
        expect(await other.lockWaits()).toBeGreaterThanOrEqual(4);
        // a commit elsewhere moves PostgreSQL's change mark: every caller is checked again
        await other.run('create table moved (id int)');
      } finally {
        await other.end();
      }
      const token = await fetch(`${t.url}/api/tags`, { headers: { authorization: `Bearer ${t.token}` }, signal: AbortSignal.timeout(5000) });
      expect(token.status).toBe(200);
      const user = await fetch(`${t.url}/api/users/me`, { headers: { authorization: `Bearer ${ann.jwt}` }, signal: AbortSignal.timeout(5000) });
      expect(user.status).toBe(200);
      expect(((await user.json()) as { username: string }).username).toBe('ann');
    } finally {
      await holder.run('commit');
      await holder.end();
    }
    const answers = await Promise.all(writes);
    expect(answers.map((a) => a.status)).toEqual(Array(8).fill(200));
  }, 60_000);
});
