// A read whose client disconnects is stopped on the server at once (PostgreSQL: pg_cancel_backend on
// its backend; MySQL/MariaDB: KILL QUERY on its thread), not left running to its statement bound (30 s)
// for nobody; the connections it used serve the next requests. Run against a real server process.
// SQLite needs nothing: a statement runs to its end on the calling thread, before the disconnect is seen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from '../cli/helpers.js';
import { testClient } from '../support/database.js';
import { rawSession } from '../support/raw-session.js';

const ROWS = 200_000;
/** the pool's size: the last test abandons as many reads as it has connections */
const POOL = 3;
const client = testClient();

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

/** a filter of `n` alternatives, each scanning every title for a word no title holds (`tag` tells requests apart) */
const heavyFilter = (n: number, tag: string): string => Array.from({ length: n }, (_, i) => `filters[$or][${i}][title][$containsi]=${tag}${i}`).join('&');

/**
 * the statements running on the server that carry `tag` (PostgreSQL shows a prepared statement's text,
 * without its values: there, the read connections' statements running for more than 0.3 s, which only
 * the heavy filter's do)
 */
async function running(env: Record<string, string>, tag: string): Promise<number> {
  const [rows] =
    client === 'postgres'
      ? await sqlOn(env, [`select pid from pg_stat_activity where state = 'active' and application_name = 'folio reads' and now() - query_start > interval '0.3 s'`])
      : await sqlOn(env, [`select id from information_schema.processlist where info like '%${tag}1%' and id <> connection_id()`]);
  return rows!.length;
}

/** polls `f` every 50 ms until it is true or `ms` have passed; answers its last value */
async function within(ms: number, f: () => Promise<boolean>): Promise<boolean> {
  const until = Date.now() + ms;
  for (;;) {
    if (await f()) return true;
    if (Date.now() >= until) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.skipIf(client === 'sqlite')('a read whose client disconnects (SQLite: nothing to stop, a statement ends before the disconnect is seen)', () => {
  let project: Project;
  let server: Server;
  let url: string;
  let token: string;

  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
    token = folio(project, ['api-token', 'create', '--name', 'reader', '--type', 'read-only']).stdout.trim();
    server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], { DATABASE_POOL_MAX: String(POOL) });
    url = `http://127.0.0.1:${(await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/))[1]}`;
    const rows =
      client === 'postgres'
        ? `select 'doc' || g, 'title ' || g, 'en', now(), now(), now() from generate_series(1, ${ROWS}) g`
        : `select concat('doc', seq), concat('title ', seq), 'en', now(), now(), now() from seq_1_to_${ROWS}`;
    const insert = `insert into articles (document_id, title, locale, published_at, created_at, updated_at) ${rows}`;
    await sqlOn(project.env, client === 'postgres' ? ['alter table articles disable trigger user', insert, 'alter table articles enable trigger user'] : [insert]);
  }, 120_000);
  afterAll(async () => {
    await server?.stop();
    await project?.remove();
  });

  const get = async (path: string, signal?: AbortSignal): Promise<{ status: number; text: string }> => {
    const res = await fetch(url + path, { headers: { authorization: `Bearer ${token}` }, signal });
    return { status: res.status, text: await res.text() };
  };

  /** starts `n` slow reads, waits until the server runs them, disconnects; answers whether they were gone within a second */
  const abandon = async (tag: string, n = 1): Promise<boolean> => {
    const client = new AbortController();
    const answers = Array.from({ length: n }, () => get(`/api/articles?${heavyFilter(100, tag)}`, client.signal).catch(() => 'aborted'));
    // PostgreSQL runs as many at once as it has read connections, the rest queued behind them
    expect(await within(5000, async () => (await running(project.env, tag)) > 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    client.abort();
    expect(await Promise.all(answers)).toEqual(answers.map(() => 'aborted'));
    return within(1000, async () => (await running(project.env, tag)) === 0);
  };

  it('is stopped on the server within a second, and the next requests are served', async () => {
    expect(await abandon('zq')).toBe(true);
    for (let i = 0; i < 12; i++) {
      const r = await get('/api/articles?pagination[pageSize]=2&pagination[withCount]=false');
      expect(r.status, r.text).toBe(200);
      expect(JSON.parse(r.text).data).toHaveLength(2);
    }
  });

  it("only that read's statements are stopped: reads running beside it are answered", async () => {
    const quick = Array.from({ length: 20 }, (_, i) => get(`/api/articles?pagination[pageSize]=3&pagination[withCount]=false&filters[title][$startsWith]=title ${i + 1}`));
    expect(await abandon('zx')).toBe(true);
    for (const r of await Promise.all(quick)) {
      expect(r.status, r.text).toBe(200);
      expect(JSON.parse(r.text).data).toHaveLength(3);
    }
  });

  it('as many abandoned reads as the pool has connections are all stopped, and the pool serves on', async () => {
    expect(await abandon('zy', POOL)).toBe(true);
    const after = await Promise.all(Array.from({ length: 2 * POOL }, () => get('/api/articles?pagination[pageSize]=1&pagination[withCount]=false')));
    expect(after.map((r) => r.status)).toEqual(after.map(() => 200));
  });
});
