// Deeply nested JSON: incoming bodies and fileInfo fields past 64 levels are a 400 naming the limit,
// and a value thousands of levels deep that already sits in the database (stored by other means)
// neither breaks the reads that include it nor gets rewritten by later writes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { startTestApp, type TestApp } from '../support/app.js';
import { filePart, form } from '../upload/helpers.js';
import { MAX_JSON_DEPTH } from '../../src/values/json-depth.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const nestedArrays = (n: number): string => '['.repeat(n) + '1' + ']'.repeat(n);
const nestedObjects = (n: number): string => '{"a":'.repeat(n) + '1' + '}'.repeat(n);
const json = { 'content-type': 'application/json' };
const LIMIT_MESSAGE = `JSON bodies may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`;

describe('incoming JSON is bounded in depth', () => {
  it('a json attribute 10,000 levels deep is a 400 naming the limit, on create and update', async () => {
    const created = await t.request('POST', '/api/articles', { body: { data: { title: 'shallow' } } });
    expect(created.status).toBe(201);
    for (const value of [nestedArrays(10_000), nestedObjects(10_000)]) {
      const raw = `{"data":{"title":"deep","metadata":${value}}}`;
      for (const [method, path] of [
        ['POST', '/api/articles'],
        ['PUT', `/api/articles/${created.body.data.documentId}`],
      ] as const) {
        const r = await t.request(method, path, { raw, headers: json });
        expect(r.status).toBe(400);
        expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: LIMIT_MESSAGE, details: { limit: MAX_JSON_DEPTH } });
      }
    }
  });

  it('the limit counts the whole body: 64 levels pass, 65 are refused', async () => {
    // the body's own object and `data` take two levels
    const at = await t.request('POST', '/api/articles', { raw: `{"data":{"title":"at the limit","metadata":${nestedArrays(MAX_JSON_DEPTH - 2)}}}`, headers: json });
    expect(at.status).toBe(201);
    expect(JSON.stringify(at.body.data.metadata)).toBe(nestedArrays(MAX_JSON_DEPTH - 2));
    const over = await t.request('POST', '/api/articles', { raw: `{"data":{"title":"over","metadata":${nestedArrays(MAX_JSON_DEPTH - 1)}}}`, headers: json });
    expect(over.status).toBe(400);
    expect(over.body.error.message).toBe(LIMIT_MESSAGE);
  });

  it('brackets inside strings do not count', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: '[['.repeat(50), metadata: { s: '{"a":'.repeat(500) } } } });
    expect(r.status).toBe(201);
  });

  it('a relation payload or a JSON fileInfo 10,000 levels deep is the same 400', async () => {
    const rel = await t.request('POST', '/api/articles', { raw: `{"data":{"title":"x","author":{"connect":${nestedArrays(10_000)}}}}`, headers: json });
    expect(rel.status).toBe(400);
    expect(rel.body.error.message).toBe(LIMIT_MESSAGE);
    const up = await t.request('POST', '/api/upload', { raw: form([filePart('x', 'a.txt', 'text/plain')]) });
    const info = await t.request('POST', `/api/upload?id=${up.body[0].id}`, { raw: `{"fileInfo":{"caption":${nestedObjects(10_000)}}}`, headers: json });
    expect(info.status).toBe(400);
    expect(info.body.error.message).toBe(LIMIT_MESSAGE);
  });

  it('a multipart fileInfo field 10,000 levels deep is a 400 naming the limit, on upload and on update', async () => {
    const deep = `{"caption":${nestedObjects(10_000)}}`;
    const message = `fileInfo may nest objects and arrays at most ${MAX_JSON_DEPTH} levels deep`;
    const r = await t.request('POST', '/api/upload', { raw: form([{ name: 'fileInfo', value: deep }, filePart('x', 'b.txt', 'text/plain')]) });
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ name: 'ValidationError', message });
    const up = await t.request('POST', '/api/upload', { raw: form([filePart('x', 'c.txt', 'text/plain')]) });
    const u = await t.request('POST', `/api/upload?id=${up.body[0].id}`, { raw: form([{ name: 'fileInfo', value: deep }]) });
    expect(u.status).toBe(400);
    expect(u.body.error).toMatchObject({ name: 'ValidationError', message });
  });
});

describe('a deep value already in the database', () => {
  const stored = nestedArrays(10_000);

  async function rawMetadata(documentId: string): Promise<unknown[]> {
    const rows = await sql<{ metadata: unknown }>`select metadata from articles where document_id = ${documentId} order by id`.execute(t.app.database.db);
    return rows.rows.map((r) => r.metadata);
  }

  it('is read as its JSON text by lists, findOne and populate, and kept as stored by later writes', async () => {
    const author = await t.request('POST', '/api/authors', { body: { data: { name: 'Deep' } } });
    const draft = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'poisoned', author: author.body.data.documentId } } });
    expect(draft.status).toBe(201);
    const id: string = draft.body.data.documentId;
    // as another tool (or a Folio without the limit) could have stored it
    await sql`update articles set metadata = ${stored} where document_id = ${id}`.execute(t.app.database.db);

    const list = await t.get('/api/articles?status=draft&pagination[pageSize]=100');
    expect(list.status).toBe(200);
    expect(list.body.data.find((d: { documentId: string }) => d.documentId === id).metadata).toBe(stored);
    const one = await t.get(`/api/articles/${id}?status=draft`);
    expect(one.status).toBe(200);
    expect(one.body.data.metadata).toBe(stored);
    const populated = await t.get(`/api/authors/${author.body.data.documentId}?populate[articles]=true&status=draft`);
    expect(populated.status).toBe(200);
    expect(populated.body.data.articles[0].metadata).toBe(stored);

    // an update of another field, which also publishes: the stored value is copied as it is
    const updated = await t.request('PUT', `/api/articles/${id}`, { body: { data: { title: 'renamed' } } });
    expect(updated.status).toBe(200);
    expect(await rawMetadata(id)).toEqual([stored, stored]);
    const published = await t.get('/api/articles?pagination[pageSize]=100');
    expect(published.status).toBe(200);
    expect(published.body.data.find((d: { documentId: string }) => d.documentId === id).metadata).toBe(stored);
  });

  it('a stored value deep but within the read bound is still read as JSON', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'nine hundred' } } });
    const id: string = r.body.data.documentId;
    await sql`update articles set metadata = ${nestedArrays(900)} where document_id = ${id}`.execute(t.app.database.db);
    const one = await t.get(`/api/articles/${id}`);
    expect(one.status).toBe(200);
    expect(JSON.stringify(one.body.data.metadata)).toBe(nestedArrays(900));
  });
});
