// Writes that race: many identical requests sent at once must behave as if they had come one after
// another (one published row, one document, one winner), and none may answer a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WRITE_ATTEMPTS } from '../../src/database/write-transaction.js';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';
import { refuseInsertsInto } from '../support/refuse-statements.js';

const PARALLEL = 50;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** Sends `n` copies of a request at the same time. */
function burst(n: number, method: string, path: string, body: unknown): Promise<Response[]> {
  return Promise.all(Array.from({ length: n }, () => t.request(method, path, { body })));
}

/** An error shaped as the driver in use reports a deadlock (SQLite: a busy database). */
function transientError(): Error {
  const e = new Error('deadlock detected (test)');
  const client = testClient();
  return Object.assign(e, client === 'postgres' ? { code: '40P01' } : client === 'mysql' ? { errno: 1213 } : { code: 'SQLITE_BUSY' });
}

function statuses(rs: readonly Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

async function rowsOf(table: string, documentId?: string): Promise<Record<string, unknown>[]> {
  let q = t.app.database.db.selectFrom(table).selectAll();
  if (documentId !== undefined) q = q.where('document_id', '=', documentId);
  return (await q.execute()) as Record<string, unknown>[];
}

describe('concurrent writes', () => {
  it(`${PARALLEL} simultaneous publishes of a draft-only document leave exactly one published row`, async () => {
    const draft = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'Racing' } } });
    expect(draft.status, draft.text).toBe(201);
    const id = draft.body.data.documentId as string;
    const rs = await burst(PARALLEL, 'PUT', `/api/articles/${id}?status=published`, { data: { summary: 'published' } });
    expect(statuses(rs)).toEqual({ 200: PARALLEL });
    for (const r of rs) expect(r.body.data.publishedAt).not.toBeNull();
    const rows = await rowsOf('articles', id);
    expect(rows.filter((r) => r['published_at'] !== null)).toHaveLength(1);
    expect(rows.filter((r) => r['published_at'] === null)).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous creates with one unique value: one 201, the rest 400 "This attribute must be unique"`, async () => {
    const rs = await burst(PARALLEL, 'POST', '/api/authors', { data: { name: 'Only One' } });
    expect(statuses(rs)).toEqual({ 201: 1, 400: PARALLEL - 1 });
    for (const r of rs.filter((x) => x.status === 400)) {
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique' });
    }
    expect((await rowsOf('authors')).filter((r) => r['name'] === 'Only One')).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous publishing creates (draft & publish) with one unique value: one published row`, async () => {
    const rs = await burst(PARALLEL, 'POST', '/api/tags?status=published', { data: { label: 'solo' } });
    expect(statuses(rs)).toEqual({ 201: 1, 400: PARALLEL - 1 });
    const rows = (await rowsOf('tags')).filter((r) => r['label'] === 'solo');
    expect(rows.filter((r) => r['published_at'] !== null)).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous first PUTs of a single type create one document`, async () => {
    const rs = await burst(PARALLEL, 'PUT', '/api/global', { data: { siteName: 'Concurrent site' } });
    expect(statuses(rs)).toEqual({ 200: PARALLEL });
    const rows = await rowsOf('globals');
    expect(new Set(rows.map((r) => r['document_id'])).size).toBe(1);
    expect(rows).toHaveLength(1);
    expect(new Set(rs.map((r) => r.body.data.documentId))).toEqual(new Set([rows[0]!['document_id']]));
  });
});

describe('a write the database refuses for a passing reason', () => {
  let refusals = 0;
  let f: TestApp;
  beforeAll(async () => {
    // the refusal comes at the article's component links, after the component rows, so a rerun that reused
    // the first attempt's work would show it
    f = await startTestApp({}, { databasePlugins: [refuseInsertsInto('articles_cmps', () => (refusals > 0 && refusals-- ? transientError() : undefined))] });
  });
  afterAll(async () => {
    await f.close();
  });

  it('is rerun whole: two refusals, then a 201 and one document with its components once', async () => {
    refusals = 2;
    const r = await f.request('POST', '/api/articles?populate=seo', { body: { data: { title: 'Third time', seo: { metaTitle: 'once' } } } });
    expect(r.status, r.text).toBe(201);
    expect(refusals).toBe(0);
    expect(r.body.data.seo.metaTitle).toBe('once');
    const rows = await f.app.database.db.selectFrom('articles').select('document_id').where('title', '=', 'Third time').execute();
    expect(new Set(rows.map((x) => x.document_id)).size).toBe(1);
    // one seo component per row of the document (its draft and its published version), none left over
    const seo = await f.app.database.db.selectFrom('components_shared_seos').select('id').where('meta_title', '=', 'once').execute();
    expect(seo).toHaveLength(rows.length);
  });

  it('answers 503 ServiceUnavailableError with Retry-After once every attempt was refused; nothing is written', async () => {
    refusals = 1000;
    const r = await f.request('POST', '/api/articles', { body: { data: { title: 'Never', seo: { metaTitle: 'never' } } } });
    expect(r.status).toBe(503);
    expect(r.headers.get('retry-after')).toBe('1');
    expect(r.body.error).toMatchObject({ status: 503, name: 'ServiceUnavailableError' });
    expect(r.body.error.message).toMatch(/too busy with other writes.*nothing was written, send it again/);
    expect(r.text).not.toMatch(/deadlock|40P01|1213|SQLITE/i);
    expect(1000 - refusals).toBe(WRITE_ATTEMPTS);
    const rows = await f.app.database.db.selectFrom('articles').select('id').where('title', '=', 'Never').execute();
    expect(rows).toHaveLength(0);
  });
});

describe('a to-one owner linked from the other side by parallel writes', () => {
  const post = async (plural: string, data: Record<string, unknown>): Promise<string> => {
    const r = await t.request('POST', `/api/${plural}`, { body: { data } });
    expect(r.status, r.text).toBe(201);
    return r.body.data.documentId as string;
  };

  it('ten profiles each naming one author at once: the author ends with exactly one profile, and one profile names it', async () => {
    for (let round = 0; round < 3; round++) {
      const author = await post('authors', { name: `one-to-one ${round}` });
      const profiles = await Promise.all(Array.from({ length: 10 }, (_, i) => post('profiles', { handle: `h${round}-${i}` })));
      const rs = await Promise.all(profiles.map((p) => t.request('PUT', `/api/profiles/${p}`, { body: { data: { author } } })));
      expect(statuses(rs)).toEqual({ 200: 10 });
      const owners = await t.get(`/api/profiles?filters[author][documentId][$eq]=${author}&fields[0]=handle`);
      expect(owners.body.meta.pagination.total).toBe(1);
      const side = await t.get(`/api/authors/${author}?populate=profile`);
      expect(side.body.data.profile.documentId).toBe(owners.body.data[0].documentId);
      // one link row from the author's row
      const authorRows = (await rowsOf('authors', author)).map((r) => Number(r['id']));
      expect(await t.app.database.db.selectFrom('authors_profile_lnk').select('id').where('source_id', 'in', authorRows).execute()).toHaveLength(1);
    }
  });

  it('ten categories each connecting one child at once: the child ends with exactly one parent', async () => {
    for (let round = 0; round < 3; round++) {
      const child = await post('categories', { name: `child ${round}` });
      const parents = await Promise.all(Array.from({ length: 10 }, (_, i) => post('categories', { name: `parent ${round}-${i}` })));
      const rs = await Promise.all(parents.map((p) => t.request('PUT', `/api/categories/${p}`, { body: { data: { children: { connect: [child] } } } })));
      expect(statuses(rs)).toEqual({ 200: 10 });
      const claiming = await t.get(`/api/categories?filters[children][documentId][$eq]=${child}&fields[0]=name`);
      expect(claiming.body.meta.pagination.total).toBe(1);
      const up = await t.get(`/api/categories/${child}?populate=parent`);
      expect(up.body.data.parent.documentId).toBe(claiming.body.data[0].documentId);
    }
  });
});
