// `json` and `blocks` attributes are scalars, as in Strapi 5.54: selectable in `fields`, sortable,
// and filterable as their stored JSON text; a key below a json attribute is still refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
const doc: Record<string, string> = {};
const body = [{ type: 'paragraph', children: [{ type: 'text', text: 'Blocks Text' }] }];

async function create(data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', '/api/articles', { body: { data } });
  if (r.status !== 201) throw new Error(`${r.status} ${r.text}`);
  return r.body.data.documentId;
}

beforeAll(async () => {
  t = await startTestApp();
  doc['hello'] = await create({ title: 'Hello', metadata: { k: 'Hello World', n: 1 }, body });
  doc['rss'] = await create({ title: 'Rss', metadata: { source: 'rss' } });
  doc['none'] = await create({ title: 'None', metadata: null });
});
afterAll(async () => {
  await t.close();
});

async function titles(query: string): Promise<string[]> {
  const r = await t.get(`/api/articles?fields[0]=title&${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.map((a: { title: string }) => a.title);
}

describe('json and blocks attributes', () => {
  it('are selectable in fields, at the root and in a populate', async () => {
    const r = await t.get('/api/articles?fields=metadata,body&sort=title&filters[title][$eq]=Hello');
    expect(r.body).toEqual({
      data: [{ id: expect.any(Number), documentId: doc['hello'], body, metadata: { k: 'Hello World', n: 1 } }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    });
    expect(r.text).not.toContain('"title"');
    const put = await t.request('PUT', `/api/articles/${doc['rss']}`, { body: { data: { related: [doc['hello']] } } });
    expect(put.status, put.text).toBe(200);
    const p = await t.get(`/api/articles/${doc['rss']}?fields[0]=metadata&populate[related][fields][0]=body`);
    expect(p.body.data).toEqual({
      id: expect.any(Number),
      documentId: doc['rss'],
      metadata: { source: 'rss' },
      related: [{ id: expect.any(Number), documentId: doc['hello'], body }],
    });
  });

  it('$null and $notNull', async () => {
    expect(await titles('sort=title&filters[metadata][$null]=true')).toEqual(['None']);
    expect(await titles('sort=title&filters[metadata][$notNull]=true')).toEqual(['Hello', 'Rss']);
    expect(await titles('sort=title&filters[body][$null]=true')).toEqual(['None', 'Rss']);
    expect(await titles('sort=title&filters[body][$notNull]=true')).toEqual(['Hello']);
  });

  it('text operators match the stored JSON text', async () => {
    expect(await titles('sort=title&filters[metadata][$contains]=Hello World')).toEqual(['Hello']);
    expect(await titles('sort=title&filters[metadata][$contains]=hello')).toEqual([]);
    expect(await titles('sort=title&filters[metadata][$containsi]=hello')).toEqual(['Hello']);
    expect(await titles('sort=title&filters[metadata][$notContains]=rss')).toEqual(['Hello']);
    expect(await titles('sort=title&filters[metadata][$contains]="source":"rss"')).toEqual(['Rss']);
    expect(await titles('sort=title&filters[metadata][$startsWith]={"k"')).toEqual(['Hello']);
    expect(await titles('sort=title&filters[body][$containsi]=blocks text')).toEqual(['Hello']);
  });

  it('$eq, $ne and $in compare the whole stored text', async () => {
    const text = encodeURIComponent('{"k":"Hello World","n":1}');
    expect(await titles(`sort=title&filters[metadata][$eq]=${text}`)).toEqual(['Hello']);
    expect(await titles(`sort=title&filters[metadata]=${text}`)).toEqual(['Hello']);
    expect(await titles(`sort=title&filters[metadata][$in][0]=${text}`)).toEqual(['Hello']);
    expect(await titles(`sort=title&filters[metadata][$ne]=${text}`)).toEqual(['Rss']);
    expect(await titles('sort=title&filters[metadata][$eq]=Hello World')).toEqual([]);
  });

  it('sort by the stored text, NULL first', async () => {
    expect(await titles('sort=metadata')).toEqual(['None', 'Hello', 'Rss']);
    expect(await titles('sort=metadata:desc')).toEqual(['Rss', 'Hello', 'None']);
  });

  it('a key below a json attribute is refused with the offending path', async () => {
    for (const [query, key, param] of [
      ['filters[metadata][k][$eq]=1', 'k', 'filters'],
      ['filters[metadata][k][n][$eq]=1', 'k', 'filters'],
      ['sort=metadata.k', 'k', 'sort'],
    ] as const) {
      const r = await t.get(`/api/articles?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `Invalid key ${key} at metadata`, details: { key, path: 'metadata', source: 'query', param } },
      });
    }
  });
});

describe('a json attribute holding a string that is no JSON text', () => {
  // runs after the tests above, which count every article
  beforeAll(async () => {
    await create({ title: 'Str hello', metadata: 'hello' });
    await create({ title: 'Str empty', metadata: '' });
    await create({ title: 'Str quoted', metadata: { q: 'hello' } });
    await create({ title: 'Str number', metadata: 42 });
  });
  const strs = (query: string) => titles(`filters[title][$startsWith]=Str&sort=title&${query}`);

  it('is stored as its text, as Strapi 5.54 stores it: filters compare that text, and it reads back as the same string', async () => {
    expect(await strs('filters[metadata][$eq]=hello')).toEqual(['Str hello']);
    expect(await strs('filters[metadata][$eq]=%22hello%22')).toEqual([]);
    expect(await strs('filters[metadata][$startsWith]=hel')).toEqual(['Str hello']);
    expect(await strs('filters[metadata][$in][0]=hello&filters[metadata][$in][1]=42')).toEqual(['Str hello', 'Str number']);
    expect(await strs('filters[metadata][$ne]=hello')).toEqual(['Str empty', 'Str number', 'Str quoted']);
    const r = await t.get('/api/articles?filters[title][$startsWith]=Str&sort=title&fields[0]=title&fields[1]=metadata');
    expect(r.body.data.map((a: { metadata: unknown }) => a.metadata)).toEqual(['', 'hello', 42, { q: 'hello' }]);
  });

  it('sorts by that text', async () => {
    expect(await titles('filters[title][$startsWith]=Str&sort=metadata')).toEqual(['Str empty', 'Str number', 'Str hello', 'Str quoted']);
  });
});
