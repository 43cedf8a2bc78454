// A write retires only the cached bodies that read what it changed (issue 21): each body keeps the
// counters of the tables its statements named, kept by the database's triggers, and for tables it read
// only at some keys (one document's rows, links and components) those keys' buckets, so a write to
// another type, another article, a login or a session leaves it in place, while a write to the
// document itself, a populated relation, a component or a media file — by this process, another
// connection or a SQL console — retires it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';
import { bucketOf } from '../../src/database/table-buckets.js';

const client = testClient();
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({}, {});
});
afterAll(async () => {
  await t?.close();
});

/** the statements one read costs: a kept body at most the change mark and the counters, a fresh read many */
async function costOf(path: string): Promise<{ statements: number; text: string }> {
  const before = t.statements();
  const r = await t.get(path);
  expect(r.status, r.text).toBe(200);
  return { statements: t.statements() - before, text: r.text };
}
// a kept body costs the change mark and the counters; on PostgreSQL, where other databases' commits move
// the server's snapshot all the time, also the caller's token read again at the new mark
const KEPT_AT_MOST = client === 'postgres' ? 5 : 2;
const READ_AT_LEAST = 8;

async function create(plural: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', `/api/${plural}`, { body: { data } });
  expect(r.status, r.text).toBe(201);
  return r.body.data.documentId as string;
}

/** Runs SQL on a connection of its own, as another process or a SQL console would; answers the rows of a SELECT. */
async function outside(sqlText: string, params: unknown[]): Promise<Record<string, unknown>[]> {
  const cfg = t.app.config.database;
  if (cfg.client === 'sqlite') {
    const { default: Sqlite } = await import('better-sqlite3');
    const other = new Sqlite(cfg.filename!);
    const statement = other.prepare(sqlText.replace(/\$\d/g, '?'));
    const rows = statement.reader ? (statement.all(...params) as Record<string, unknown>[]) : (statement.run(...params), []);
    other.close();
    return rows;
  }
  const { default: pg } = await import('pg');
  const other = new pg.Client({ host: cfg.host, port: cfg.port, user: cfg.user, password: cfg.password, database: cfg.database });
  await other.connect();
  const result = await other.query(sqlText, params);
  await other.end();
  return result.rows as Record<string, unknown>[];
}

describe.runIf(client !== 'mysql')('cached bodies outlive writes to tables they never read', () => {
  let article = '';
  let author = '';
  const path = (): string => `/api/articles/${article}?populate=*`;

  beforeAll(async () => {
    author = await create('authors', { name: 'Kept Author' });
    article = await create('articles', { title: 'Kept', author, seo: { metaTitle: 'kept seo' } });
  });

  /** reads the body until it is served kept (the first read may be a fresh one) */
  async function warm(): Promise<string> {
    await costOf(path());
    const kept = await costOf(path());
    expect(kept.statements).toBeLessThanOrEqual(KEPT_AT_MOST);
    return kept.text;
  }

  it('a write to a type the read never touched, a login and a failed login leave the body in place', async () => {
    const text = await warm();
    await create('profiles', { handle: '@elsewhere' });
    await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'keeper', email: 'keeper@example.com', password: 'secret123' } });
    await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'keeper', password: 'wrong-one' } });
    const again = await costOf(path());
    expect(again.text).toBe(text);
    expect(again.statements).toBeLessThanOrEqual(KEPT_AT_MOST);
  });

  it('a write to the populated author retires it, and the next read shows the new name', async () => {
    await warm();
    const r = await t.request('PUT', `/api/authors/${author}`, { body: { data: { name: 'Renamed Author' } } });
    expect(r.status).toBe(200);
    const again = await costOf(path());
    expect(again.statements).toBeGreaterThanOrEqual(READ_AT_LEAST);
    expect(JSON.parse(again.text).data.author.name).toBe('Renamed Author');
  });

  it('another article’s create, update and delete leave it in place: its rows, links and components are other keys of the same tables', async () => {
    const text = await warm();
    const other = await create('articles', { title: 'Other', author, seo: { metaTitle: 'other seo' }, blocks: [{ __component: 'shared.quote', title: 'q', body: 'b' }] });
    expect((await t.request('PUT', `/api/articles/${other}`, { body: { data: { title: 'Other 2', seo: { metaTitle: 'other seo 2' } } } })).status).toBe(200);
    expect((await t.request('DELETE', `/api/articles/${other}`)).status).toBe(204);
    const again = await costOf(path());
    expect(again.text).toBe(text);
    expect(again.statements).toBeLessThanOrEqual(KEPT_AT_MOST);
  });

  it('another article’s row changed from outside Folio leaves it in place; its own retires it', async () => {
    const text = await warm();
    const other = await create('articles', { title: 'Other outside' });
    await warm();
    await outside('update articles set title = $1 where document_id = $2', ['Other changed outside', other]);
    const kept = await costOf(path());
    expect(kept.text).toBe(text);
    expect(kept.statements).toBeLessThanOrEqual(KEPT_AT_MOST);
    await outside('update articles set title = $1 where document_id = $2', ['Kept changed outside', article]);
    const again = await costOf(path());
    expect(again.statements).toBeGreaterThanOrEqual(READ_AT_LEAST);
    expect(JSON.parse(again.text).data.title).toBe('Kept changed outside');
  });

  it('its own update retires it, and the next read shows it', async () => {
    await warm();
    expect((await t.request('PUT', `/api/articles/${article}`, { body: { data: { title: 'Kept again', seo: { metaTitle: 'kept seo' } } } })).status).toBe(200);
    const again = await costOf(path());
    expect(again.statements).toBeGreaterThanOrEqual(READ_AT_LEAST);
    expect(JSON.parse(again.text).data.title).toBe('Kept again');
  });

  it('an update of an article it relates to retires it, and the next read shows the new title', async () => {
    const related = await create('articles', { title: 'Related before' });
    expect((await t.request('PUT', `/api/articles/${article}`, { body: { data: { related: [related] } } })).status).toBe(200);
    expect(JSON.parse(await warm()).data.related.map((r: { title: string }) => r.title)).toEqual(['Related before']);
    expect((await t.request('PUT', `/api/articles/${related}`, { body: { data: { title: 'Related after' } } })).status).toBe(200);
    const again = await costOf(path());
    expect(JSON.parse(again.text).data.related.map((r: { title: string }) => r.title)).toEqual(['Related after']);
  });

  it('a new locale of the document retires it, and the next read lists the localization', async () => {
    await warm();
    const fr = await t.request('PUT', `/api/articles/${article}?locale=fr`, { body: { data: { title: 'Gardé' } } });
    expect(fr.status, fr.text).toBe(200);
    const again = await costOf(path());
    expect(JSON.parse(again.text).data.localizations.map((l: { locale: string }) => l.locale)).toEqual(['fr']);
  });

  it('a component row changed from outside Folio retires it', async () => {
    await warm();
    await outside('update components_shared_seos set meta_title = $1 where meta_title = $2', ['changed outside', 'kept seo']);
    const again = await costOf(path());
    expect(again.statements).toBeGreaterThanOrEqual(READ_AT_LEAST);
    expect(JSON.parse(again.text).data.seo.metaTitle).toBe('changed outside');
  });

  it('a media file renamed from outside retires a body that populated it', async () => {
    const file = await t.request('POST', '/api/upload', { raw: uploadForm() });
    expect(file.status, file.text).toBe(201);
    const fileId = file.body[0].id as number;
    expect((await t.request('PUT', `/api/articles/${article}`, { body: { data: { cover: fileId } } })).status).toBe(200);
    const text = await warm();
    expect(JSON.parse(text).data.cover.name).toBe('kept.png');
    await outside('update files set name = $1 where id = $2', ['renamed.png', fileId]);
    const again = await costOf(path());
    expect(JSON.parse(again.text).data.cover.name).toBe('renamed.png');
  });

  it('a list keeps its body across a write to an unrelated type, and loses it to a new article', async () => {
    const list = '/api/articles?populate=*&sort=id:desc&pagination[pageSize]=5';
    const first = await costOf(list);
    await create('profiles', { handle: '@second' });
    expect((await costOf(list)).statements).toBeLessThanOrEqual(KEPT_AT_MOST);
    const id = await create('articles', { title: 'Newest' });
    const after = await costOf(list);
    expect(after.text).not.toBe(first.text);
    expect(JSON.parse(after.text).data[0].documentId).toBe(id);
  });

  it('a component row inserted from outside under a link that named a missing row retires it', async () => {
    const [row] = await outside(`select id from articles where document_id = $1 and published_at is not null and locale = 'en'`, [article]);
    const missing = 900_001;
    await outside(`update articles_cmps set cmp_id = $1 where entity_id = $2 and field = 'seo'`, [missing, row!['id']]);
    expect(JSON.parse((await costOf(path())).text).data.seo).toBeNull();
    await warm();
    await outside('insert into components_shared_seos (id, meta_title) values ($1, $2)', [missing, 'late seo']);
    const again = await costOf(path());
    expect(JSON.parse(again.text).data.seo.metaTitle).toBe('late seo');
  });
});

describe.runIf(client !== 'mysql')('a key’s bucket', () => {
  /** the bucket the database's trigger noted for the last write to `table` */
  async function noted(table: string): Promise<number> {
    const [row] = await outside('select bucket from folio_table_buckets where table_name = $1 order by version desc limit 1', [table]);
    return Number(row!['bucket']);
  }

  it('is the same in the database’s triggers as in Folio, for document ids of any length', async () => {
    for (const key of ['', 'a', 'ab', 'abc', 'zz9', 'm5bof2tsofnrtsay1osa5hen', 'A~ !']) {
      await outside('insert into tags (document_id) values ($1)', [key]);
      expect(await noted('tags'), key).toBe(bucketOf('text', key));
    }
    expect(bucketOf('text', 'é1')).toBeNull();
  });

  it('is the same in the database’s triggers as in Folio, for ids', async () => {
    for (const id of [1, 4095, 4096, 5000, 1_000_001]) {
      await outside('insert into components_shared_seos (id) values ($1)', [id]);
      expect(await noted('components_shared_seos'), String(id)).toBe(bucketOf('int', id));
    }
  });
});

function uploadForm(): FormData {
  // a 1×1 PNG
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const form = new FormData();
  form.append('files', new Blob([png], { type: 'image/png' }), 'kept.png');
  return form;
}
