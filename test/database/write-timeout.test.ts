// The bound config/database sets (`connection.statement_timeout`) reaches writes on PostgreSQL, as it
// does in a Strapi project there: a write that runs past it (here: waiting for a table another client
// holds) is answered as a read past it is, a 503 that says so, and leaves nothing written, as every
// write is one transaction. Against a real server process; MySQL bounds only content reads and SQLite
// has no bound.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from '../cli/helpers.js';
import { testClient } from '../support/database.js';
import { rawSession, type RawSession } from '../support/raw-session.js';

const BOUND_MS = 400;
const client = testClient();

const stopped = {
  data: null,
  error: { status: 503, name: 'ServiceUnavailableError', message: 'The database stopped this write after 0.4 s: nothing of it was written', details: {} },
};

describe.skipIf(client !== 'postgres')('a write past the configured statement bound', () => {
  let project: Project;
  let server: Server;
  let url: string;
  let token: string;
  let other: RawSession;

  beforeAll(async () => {
    await ensureBuilt();
    project = await copyProject();
    writeFileSync(join(project.dir, 'config', 'database.js'), `module.exports = { connection: { connection: { statement_timeout: ${BOUND_MS} } } };\n`);
    token = folio(project, ['api-token', 'create', '--name', 'writer', '--type', 'full-access']).stdout.trim();
    server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
    url = `http://127.0.0.1:${(await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/))[1]}`;
    other = await rawSession(project.env);
  }, 60_000);
  afterAll(async () => {
    await other?.end();
    await server?.stop();
    await project?.remove();
  });

  const send = async (method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown; ms: number }> => {
    const started = Date.now();
    const res = await fetch(url + path, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: await res.json(), ms: Date.now() - started };
  };

  /** runs `write` while another client's transaction holds `table` against writers (readers pass) */
  async function whileHeld<T>(table: string, write: () => Promise<T>): Promise<T> {
    await other.query('begin');
    try {
      await other.query(`lock table ${table} in exclusive mode`);
      return await write();
    } finally {
      await other.query('rollback');
    }
  }

  it('an update is answered 503 and leaves the document as it was', async () => {
    const tag = await send('POST', '/api/tags', { data: { label: 'held' } });
    expect(tag.status).toBe(201);
    const tagId = (tag.json as { data: { documentId: string } }).data.documentId;
    const created = await send('POST', '/api/articles', { data: { title: 'before' } });
    expect(created.status).toBe(201);
    const id = (created.json as { data: { documentId: string } }).data.documentId;

    // the new title is written before the tag's link, which waits for the held link table
    const r = await whileHeld('articles_tags_lnk', () => send('PUT', `/api/articles/${id}`, { data: { title: 'after', tags: [tagId] } }));
    expect(r.status).toBe(503);
    expect(r.json).toEqual(stopped);
    expect(r.ms).toBeLessThan(BOUND_MS + 4000);

    const now = await send('GET', `/api/articles/${id}?status=draft&populate=tags`);
    expect(now.status).toBe(200);
    const data = (now.json as { data: { title: string; tags: unknown[] } }).data;
    expect([data.title, data.tags]).toEqual(['before', []]);
    // and the same write, sent again once the table is free, goes through
    expect((await send('PUT', `/api/articles/${id}`, { data: { title: 'after', tags: [tagId] } })).status).toBe(200);
  });

  it('a create whose lookup of a related tag waits past the bound inside its transaction is answered as a write', async () => {
    const tag = await send('POST', '/api/tags', { data: { label: 'looked-up' } });
    expect(tag.status).toBe(201);
    const tagId = (tag.json as { data: { documentId: string } }).data.documentId;
    await other.query('begin');
    let r: Awaited<ReturnType<typeof send>>;
    try {
      // readers of the tags table wait too
      await other.query('lock table tags in access exclusive mode');
      r = await send('POST', '/api/articles', { data: { title: 'never-made', tags: [tagId] } });
    } finally {
      await other.query('rollback');
    }
    expect(r.status).toBe(503);
    expect(r.json).toEqual(stopped);
    const [row] = await other.query(`select count(*) as n from articles where title = 'never-made'`);
    expect(Number(row!['n'])).toBe(0);
  });

  it('a registration is answered 503 and makes no account', async () => {
    const account = { username: 'held', email: 'held@example.com', password: 'Passw0rd!' };
    const r = await whileHeld('up_users', () => send('POST', '/api/auth/local/register', account));
    expect(r.status).toBe(503);
    expect(r.json).toEqual(stopped);

    const login = await send('POST', '/api/auth/local', { identifier: account.email, password: account.password });
    expect(login.status).toBe(400);
    const [row] = await other.query(`select count(*) as n from up_users where email = '${account.email}'`);
    expect(Number(row!['n'])).toBe(0);
    expect((await send('POST', '/api/auth/local/register', account)).status).toBe(200);
  });

  it('a login whose user lookup waits past the bound is answered 503 naming a lookup, not a read to narrow', async () => {
    const account = { username: 'looked', email: 'looked@example.com', password: 'Passw0rd!' };
    expect((await send('POST', '/api/auth/local/register', account)).status).toBe(200);
    await other.query('begin');
    let r: Awaited<ReturnType<typeof send>>;
    try {
      // readers wait too
      await other.query('lock table up_users in access exclusive mode');
      r = await send('POST', '/api/auth/local', { identifier: account.email, password: account.password });
    } finally {
      await other.query('rollback');
    }
    expect(r.status).toBe(503);
    expect(r.json).toEqual({
      data: null,
      error: { status: 503, name: 'ServiceUnavailableError', message: 'The database stopped a lookup this request needed after 0.4 s', details: {} },
    });
    expect((await send('POST', '/api/auth/local', { identifier: account.email, password: account.password })).status).toBe(200);
  });
});
