// Reused read responses: a repeated read skips the database, and nothing a client could observe
// goes stale — not after its own writes, another process's writes, or for another caller.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';
import { LocaleService } from '../../src/i18n/locales.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, {});
});
afterAll(async () => {
  await t.close();
});

const client = testClient();
/** the statements a reused response costs: none on SQLite, PostgreSQL's snapshot read */
const hitStatements = client === 'postgres' ? 1 : 0;

async function costOf(path: string, token?: string | null): Promise<{ statements: number; body: unknown; status: number }> {
  const before = t.statements();
  const r = await t.get(path, token === undefined ? {} : { token });
  return { statements: t.statements() - before, body: r.body, status: r.status };
}

/** Writes a tag's color through a connection of its own, as another server process would. */
async function writeOutside(id: string, color: string): Promise<void> {
  const cfg = t.app.config.database;
  if (cfg.client === 'sqlite') {
    const { default: Sqlite } = await import('better-sqlite3');
    const other = new Sqlite(cfg.filename!);
    other.prepare('update tags set color = ? where document_id = ?').run(color, id);
    other.close();
    return;
  }
  const { default: pg } = await import('pg');
  const other = new pg.Client({ host: cfg.host, port: cfg.port, user: cfg.user, password: cfg.password, database: cfg.database });
  await other.connect();
  await other.query('update tags set color = $1 where document_id = $2', [color, id]);
  await other.end();
}

describe.runIf(client !== 'mysql')('response cache (on by default where every writer is seen: SQLite, PostgreSQL)', () => {
  it('a repeated identical read is answered without reading the data and with the same bytes', async () => {
    await t.request('POST', '/api/tags', { body: { data: { label: 'rc first' } } });
    const path = '/api/tags?filters[label][$startsWith]=rc';
    const first = await t.get(path);
    // PostgreSQL's snapshot is the whole server's: a commit by a test file running alongside (in another
    // database) rightly retires the body, so there the read is repeated until one is reused — for up to
    // 20 s, since a write-heavy file alongside can commit between 50 reads in a row (seen on CI)
    const until = Date.now() + (client === 'postgres' ? 20_000 : 0);
    let reused: boolean;
    do {
      const before = t.statements();
      const again = await t.get(path);
      expect(again.text).toBe(first.text);
      expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
      reused = t.statements() - before === hitStatements;
    } while (!reused && Date.now() < until);
    expect(reused).toBe(true);
  });

  it('every write retires the stored responses: the next read shows it', async () => {
    const created = await t.request('POST', '/api/tags', { body: { data: { label: 'rc write' } } });
    const id = created.body.data.documentId as string;
    expect((await t.get(`/api/tags/${id}`)).body.data.label).toBe('rc write');
    await t.request('PUT', `/api/tags/${id}`, { body: { data: { label: 'rc written' } } });
    expect((await t.get(`/api/tags/${id}`)).body.data.label).toBe('rc written');
    await t.request('DELETE', `/api/tags/${id}`);
    expect((await t.get(`/api/tags/${id}`)).status).toBe(404);
  });

  it('a commit by another connection or process is seen on the next read', async () => {
    const created = await t.request('POST', '/api/tags', { body: { data: { label: 'rc outside' } } });
    const id = created.body.data.documentId as string;
    expect((await t.get(`/api/tags/${id}`)).body.data.color).toBeNull();
    expect((await t.get(`/api/tags/${id}`)).body.data.color).toBeNull();
    await writeOutside(id, 'teal');
    expect((await t.get(`/api/tags/${id}`)).body.data.color).toBe('teal');
    await writeOutside(id, 'plum');
    expect((await t.get(`/api/tags/${id}`)).body.data.color).toBe('plum');
  });

  it('callers do not share responses: a caller without the permission still gets 403', async () => {
    const path = '/api/tags?filters[label][$startsWith]=rc';
    expect((await costOf(path)).status).toBe(200);
    const noTags = await t.tokenOf('custom', ['api::article.article.find']);
    const denied = await costOf(path, noTags);
    expect(denied.status).toBe(403);
    const publicCall = await costOf(path, null);
    expect(publicCall.status).toBe(403);
  });

  it('the v4 response format is stored apart from the default one', async () => {
    const path = '/api/tags?filters[label][$eq]=rc first';
    const v5 = await t.get(path);
    const v4 = await t.get(path, { headers: { 'strapi-response-format': 'v4' } });
    expect(v5.body.data[0].label).toBe('rc first');
    expect(v4.body.data[0].attributes.label).toBe('rc first');
    expect((await t.get(path)).body.data[0].label).toBe('rc first');
  });

  it('errors are not stored: a bad query is checked every time', async () => {
    for (let i = 0; i < 2; i++) {
      const r = await t.get('/api/tags?filters[nope][$eq]=1');
      expect(r.status).toBe(400);
      expect(r.body.error.message).toBe('Invalid key nope');
    }
  });
});

describe('response cache can be switched off', () => {
  it('with rest.responseCache false every read runs its statements', async () => {
    const off = await startTestApp({ rest: { ...t.app.config.rest, responseCache: false } });
    try {
      const path = '/api/tags';
      await off.get(path);
      const before = off.statements();
      await off.get(path);
      expect(off.statements() - before).toBeGreaterThan(0);
    } finally {
      await off.close();
    }
  });
});

describe('a default locale changed while the server runs (the CLI)', () => {
  it('once the server reads the locales again, a URL without a locale reads the new default, stored bodies included', async () => {
    const put = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Site en' } } });
    expect(put.status, put.text).toBe(200);
    expect((await t.get('/api/global?fields[0]=siteName')).body.data).toMatchObject({ siteName: 'Site en' });
    expect((await t.get('/api/global?fields[0]=siteName')).body.data).toMatchObject({ siteName: 'Site en' });
    // what `folio locales add fi --default` does, from another process
    await new LocaleService(t.app.database).add('fi', undefined, true);
    // until it reads them again, the server goes on reading its old default (and keeps that body anew)
    expect((await t.get('/api/global?fields[0]=siteName')).body.data).toMatchObject({ siteName: 'Site en' });
    expect((await t.get('/api/i18n/locales')).body.find((l: { code: string }) => l.code === 'fi')).toMatchObject({ isDefault: true });
    for (const url of ['/api/global?fields[0]=siteName', '/api/global?fields[0]=siteName&x=1']) {
      expect((await t.get(url)).status, url).toBe(404);
    }
    expect((await t.get('/api/global?fields[0]=siteName&locale=en')).body.data).toMatchObject({ siteName: 'Site en' });
  });
});
