// A read whose filters a client wrote to be slow (a hundred `$containsi` alternatives over a large table,
// within the query limits) is stopped by the database at the bound config/database sets
// (`connection.statement_timeout`, as a Strapi project on PostgreSQL sets it), answered with a 503 that
// says so, and leaves nothing running on the server. Run against a real server process; SQLite has
// no such bound (better-sqlite3 can't interrupt a statement), so this runs on PostgreSQL and MySQL.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from '../cli/helpers.js';
import { testClient } from '../support/database.js';
import { rawSession } from '../support/raw-session.js';

const BOUND_MS = 500;
const ROWS = 200_000;
const client = testClient();

/** runs SQL on the project's database through the driver itself, on a connection of the test's own */
async function sqlOn(env: Record<string, string>, statements: readonly string[]): Promise<unknown[][]> {
  const session = await rawSession(env);
  const out: unknown[][] = [];
  try {
    for (const s of statements) out.push(await session.query(s));
  } finally {
    await session.end();
  }
  return out;
}

/** a filter of `n` alternatives, each scanning every title for a word no title holds */
const heavyFilter = (n: number): string => Array.from({ length: n }, (_, i) => `filters[$or][${i}][title][$containsi]=zq${i}`).join('&');

/** the heavy filter's statements running on the server (its words in the text on MySQL) */
async function running(env: Record<string, string>): Promise<number> {
  const [rows] =
    client === 'postgres'
      ? // PostgreSQL shows a prepared statement's text with $n for its values: the read connections'
        // statements running for more than 0.1 s, which only the heavy filter's do here
        await sqlOn(env, [`select pid from pg_stat_activity where state = 'active' and application_name = 'folio reads' and now() - query_start > interval '0.1 s'`])
      : await sqlOn(env, [`select id from information_schema.processlist where info like '%zq1%' and id <> connection_id()`]);
  return rows!.length;
}

/**
 * Those statements, once every one has had its bound: a request's other statements (its count beside
 * its page) may still run when the first one's end is answered, but never past their own bound.
 */
async function runningAfterBound(env: Record<string, string>): Promise<number> {
  const until = Date.now() + BOUND_MS + 1500;
  let n = await running(env);
  while (n > 0 && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    n = await running(env);
  }
  return n;
}

describe.skipIf(client === 'sqlite')('a read past the configured statement bound', () => {
  let project: Project;
  let server: Server;
  let url: string;
  let token: string;

  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
    // as a Strapi project's config/database sets it (node-postgres' key, passed through by knex)
    writeFileSync(join(project.dir, 'config', 'database.js'), `module.exports = { connection: { connection: { statement_timeout: ${BOUND_MS} } } };\n`);
    token = folio(project, ['api-token', 'create', '--name', 'reader', '--type', 'read-only']).stdout.trim();
    server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
    url = `http://127.0.0.1:${(await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/))[1]}`;
    const rows =
      client === 'postgres'
        ? `select 'doc' || g, 'title ' || g, 'en', now(), now(), now() from generate_series(1, ${ROWS}) g`
        : `select concat('doc', seq), concat('title ', seq), 'en', now(), now(), now() from seq_1_to_${ROWS}`;
    const insert = `insert into articles (document_id, title, locale, published_at, created_at, updated_at) ${rows}`;
    // without the change counters' row triggers, which would take a minute over these rows
    await sqlOn(project.env, client === 'postgres' ? ['alter table articles disable trigger user', insert, 'alter table articles enable trigger user'] : [insert]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await project?.remove();
  });

  const get = async (path: string): Promise<{ status: number; text: string; ms: number }> => {
    const started = Date.now();
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, text: await res.text(), ms: Date.now() - started };
  };

  it('is stopped by the database and answered 503 with what happened, no stack or SQL', async () => {
    const r = await get(`/api/articles?${heavyFilter(100)}`);
    expect(r.status, r.text).toBe(503);
    expect(JSON.parse(r.text)).toEqual({
      data: null,
      error: {
        status: 503,
        name: 'ServiceUnavailableError',
        message: 'The database stopped this read after 0.5 s: ask for less (narrower filters, fewer populated relations or a smaller page)',
        details: {},
      },
    });
    expect(r.text).not.toMatch(/select|like|stack|canceling|max_statement_time/i);
    // answered soon after the bound, not when the scan would have ended
    expect(r.ms).toBeLessThan(BOUND_MS + 4000);
    expect(await runningAfterBound(project.env)).toBe(0);
  });

  // the caller checks have a connection of their own on PostgreSQL (postgres-connections.test.ts), bounded as the reads are
  it.runIf(client === 'postgres')('a caller check stopped at the bound (its table locked) is a 503 saying a lookup was stopped, not a 500', async () => {
    const fresh = folio(project, ['api-token', 'create', '--name', 'never-used', '--type', 'read-only']).stdout.trim();
    const session = await rawSession(project.env);
    try {
      await session.query('begin');
      await session.query('lock table folio_api_tokens in access exclusive mode');
      const res = await fetch(`${url}/api/articles?pagination[pageSize]=1`, { headers: { authorization: `Bearer ${fresh}` } });
      const text = await res.text();
      expect(res.status, text).toBe(503);
      expect(JSON.parse(text)).toEqual({
        data: null,
        error: { status: 503, name: 'ServiceUnavailableError', message: 'The database stopped a lookup this request needed after 0.5 s', details: {} },
      });
    } finally {
      await session.query('rollback');
      await session.end();
    }
  });

  it('parallel slow reads are each stopped, and reads within the bound are served meanwhile', async () => {
    const all = Promise.all([
      get(`/api/articles?${heavyFilter(99)}`),
      get(`/api/articles?${heavyFilter(98)}`),
      get('/api/articles?pagination[pageSize]=2&pagination[withCount]=false'),
      get(`/api/articles?${heavyFilter(97)}`),
    ]);
    // the probe sees them while they run, so its 0 afterwards means they ended
    let seen = 0;
    for (const until = Date.now() + BOUND_MS; seen === 0 && Date.now() < until;) seen = await running(project.env);
    expect(seen).toBeGreaterThan(0);
    const [a, b, quick, c] = await all;
    expect([a.status, b.status, c.status]).toEqual([503, 503, 503]);
    expect(quick.status, quick.text).toBe(200);
    expect(JSON.parse(quick.text).data).toHaveLength(2);
    expect(await runningAfterBound(project.env)).toBe(0);
  });
});
