// A project's config/database may bound statements (`connection.statement_timeout`, which a Strapi
// project on PostgreSQL gives every pooled connection). Start-up's schema sync and seeding are no request: building
// an index while another client has the table in use, or waiting for another process's sync, may take
// longer than that bound and must not fail start-up. Two real server processes on one database, and a
// connection of the test's own keeping open a transaction that uses the table the first one's sync
// must index. SQLite has no statement bound.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from './helpers.js';
import { testClient } from '../support/database.js';
import { rawSession, type RawSession } from '../support/raw-session.js';

const BOUND_MS = 300;
/** how long the test keeps the table in use: several bounds */
const HOLD_MS = 2000;
const INDEX = 'articles_status_idx';
const client = testClient();

const pause = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** the processes holding, and those waiting for, this database's schema-sync lock */
async function syncLock(s: RawSession): Promise<{ held: number; waiting: number }> {
  if (client === 'postgres') {
    const [r] = await s.query(
      `select count(*) filter (where granted) as held, count(*) filter (where not granted) as waiting
       from pg_locks where locktype = 'advisory' and database = (select oid from pg_database where datname = current_database())`,
    );
    return { held: Number(r!['held']), waiting: Number(r!['waiting']) };
  }
  const [r] = await s.query(
    `select (is_used_lock(concat('folio schema sync ', database())) is not null) as held,
       (select count(*) from information_schema.processlist where info like 'select get_lock(%' and id <> connection_id()) as waiting`,
  );
  return { held: Number(r!['held']), waiting: Number(r!['waiting']) };
}

async function indexCount(s: RawSession, name: string): Promise<number> {
  const [r] =
    client === 'postgres'
      ? await s.query(`select count(*) as n from pg_indexes where schemaname = current_schema() and indexname = '${name}'`)
      : await s.query(`select count(distinct index_name) as n from information_schema.statistics where table_schema = database() and index_name = '${name}'`);
  return Number(r!['n']);
}

/** waits until `check` holds, failing at once when one of the servers has exited */
async function until(what: string, servers: readonly Server[], check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    const gone = servers.find((s) => s.child.exitCode !== null);
    if (gone) throw new Error(`a server exited before ${what}:\n${gone.stderr()}`);
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await pause(50);
  }
}

describe.skipIf(client === 'sqlite')('start-up on a database whose statements are bounded', () => {
  let project: Project;

  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
    // the schema, made by a command before the bound is set: the start below finds one index missing
    expect(folio(project, ['api-token', 'list']).status).toBe(0);
    writeFileSync(join(project.dir, 'config', 'database.js'), `module.exports = { connection: { connection: { statement_timeout: ${BOUND_MS} } } };\n`);
  }, 60_000);
  afterAll(async () => {
    await project?.remove();
  });

  it('the first process indexes a table in use past the bound, the second waits past it for the sync lock, and both serve', async () => {
    const other = await rawSession(project.env);
    const servers: Server[] = [];
    try {
      await other.query(client === 'postgres' ? `drop index ${INDEX}` : `drop index ${INDEX} on articles`);
      // another client's open transaction that has used the table: a new index on it waits for its end
      await other.query('begin');
      await other.query(client === 'postgres' ? 'lock table articles in row exclusive mode' : 'select id from articles limit 1');

      const start = (): Server => spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
      servers.push(start());
      await until('the first process holds the sync lock', servers, async () => (await syncLock(other)).held === 1);
      servers.push(start());
      await until('the second process waits for it', servers, async () => (await syncLock(other)).waiting === 1);

      await pause(HOLD_MS);
      // neither gave up at the bound
      for (const s of servers) {
        expect(s.child.exitCode, s.stderr()).toBeNull();
        expect(s.stdout()).not.toMatch(/Folio listening/);
      }
      await other.query('commit');
      for (const s of servers) await s.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:\d+\n/, 60_000);
      for (const s of servers) expect(s.stderr()).toBe('');
      expect(await indexCount(other, INDEX)).toBe(1);
    } finally {
      await other.end();
      for (const s of servers) await s.stop();
    }
  }, 120_000);

  it("waits past the bound for another process's seeding of the roles, then serves", async () => {
    const other = await rawSession(project.env);
    let server: Server | undefined;
    try {
      // what a second process starting at the same moment holds while it seeds: the roles' seeding lock
      await other.query('begin');
      await other.query(
        client === 'postgres'
          ? `insert into folio_locks (name, taken) values ('seed:up_roles', 1) on conflict (name) do update set taken = folio_locks.taken + 1`
          : `insert into folio_locks (name, taken) values ('seed:up_roles', 1) on duplicate key update taken = taken + 1`,
      );
      server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
      await pause(HOLD_MS);
      expect(server.child.exitCode, server.stderr()).toBeNull();
      expect(server.stdout()).not.toMatch(/Folio listening/);
      await other.query('commit');
      await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:\d+\n/, 60_000);
      expect(server.stderr()).toBe('');
    } finally {
      await other.end();
      await server?.stop();
    }
  }, 120_000);
});
