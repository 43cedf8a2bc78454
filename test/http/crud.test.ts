import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DOC_ID = /^[a-z][a-z0-9]{23}$/;

const allScalars = {
  title: 'Every type',
  slug: 'every-type',
  summary: 'A summary',
  body: [{ type: 'paragraph', children: [{ type: 'text', text: 'Hello' }] }],
  legacyBody: '# Markdown',
  views: 42,
  wordCount: '9007199254740',
  rating: 4.25,
  score: 87.5,
  isFeatured: true,
  publishDate: '2025-03-04',
  publishTime: '10:20:30',
  eventAt: '2025-06-07T08:09:10.123Z',
  metadata: { z: 1, a: [1, 'two', null], nested: { b: true } },
  kind: 'tutorial',
  contactEmail: 'desk@example.test',
  internalNotes: 'never shown',
};

describe('collection type CRUD', () => {
  let documentId = '';

  it('POST creates and returns 201 with every scalar type formatted the same on every dialect', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: allScalars } });
    expect(r.status).toBe(201);
    expect(r.body.meta).toEqual({});
    const d = r.body.data;
    documentId = d.documentId;
    expect(d.documentId).toMatch(DOC_ID);
    expect(typeof d.id).toBe('number');
    expect(d).toMatchObject({
      title: 'Every type',
      slug: 'every-type',
      summary: 'A summary',
      body: allScalars.body,
      legacyBody: '# Markdown',
      views: 42,
      wordCount: '9007199254740',
      rating: 4.25,
      score: 87.5,
      isFeatured: true,
      publishDate: '2025-03-04',
      publishTime: '10:20:30.000',
      eventAt: '2025-06-07T08:09:10.123Z',
      metadata: allScalars.metadata,
      kind: 'tutorial',
      contactEmail: 'desk@example.test',
      locale: 'en',
    });
    expect(Object.keys(d.metadata)).toEqual(['z', 'a', 'nested']);
    expect(d.createdAt).toMatch(ISO);
    expect(d.updatedAt).toMatch(ISO);
    expect(d.publishedAt).toMatch(ISO);
    expect(d).not.toHaveProperty('internalNotes');
    expect(d).not.toHaveProperty('cover');
    expect(d).not.toHaveProperty('author');
  });

  it('keys come in Strapi order: id, documentId, attributes, timestamps, locale', async () => {
    const r = await t.get(`/api/articles/${documentId}`);
    expect(Object.keys(r.body.data)).toEqual([
      'id',
      'documentId',
      'title',
      'slug',
      'summary',
      'body',
      'legacyBody',
      'views',
      'wordCount',
      'rating',
      'score',
      'isFeatured',
      'publishDate',
      'publishTime',
      'eventAt',
      'metadata',
      'kind',
      'contactEmail',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'locale',
    ]);
  });

  it('GET list returns the document with pagination meta', async () => {
    const r = await t.get('/api/articles');
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } });
    expect(r.body.data.map((a: { documentId: string }) => a.documentId)).toEqual([documentId]);
    expect(r.body.data[0]).not.toHaveProperty('internalNotes');
  });

  it('PUT updates only the given fields; null clears a field', async () => {
    const r = await t.request('PUT', `/api/articles/${documentId}`, { body: { data: { summary: null, views: 43 } } });
    expect(r.status).toBe(200);
    expect(r.body.meta).toEqual({});
    expect(r.body.data).toMatchObject({ documentId, title: 'Every type', summary: null, views: 43 });
  });

  it('defaults apply on create for absent attributes', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'Defaults' } } });
    expect(r.body.data).toMatchObject({ views: 0, isFeatured: false, kind: 'news', summary: null });
  });

  it('DELETE answers 204 with no body, then the document is gone (404)', async () => {
    const r = await t.request('DELETE', `/api/articles/${documentId}`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    const g = await t.get(`/api/articles/${documentId}`);
    expect(g.status).toBe(404);
    expect(g.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} } });
  });

  it('a missing document is a 404 on GET, PUT and DELETE', async () => {
    const body = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} } };
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await t.request(method, '/api/articles/doesnotexist0000000000000', { body: method === 'PUT' ? { data: { title: 'x' } } : undefined });
      expect(r.status, method).toBe(404);
      expect(r.body).toEqual(body);
    }
  });

  it('every fixture collection type can be created, listed, read, updated and deleted', async () => {
    const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
      ['authors', { name: 'Ada', email: 'ada@example.test', bio: 'bio', age: 36 }, { age: 37 }],
      ['categories', { name: 'News', slug: 'news', description: 'd', position: 1 }, { position: 2 }],
      ['profiles', { handle: '@ada', website: 'https://ada.test' }, { website: null }],
      ['tags', { label: 'green', color: '#00ff00' }, { color: '#00ff01' }],
    ];
    for (const [plural, data, change] of cases) {
      const c = await t.request('POST', `/api/${plural}`, { body: { data } });
      expect(c.status, plural).toBe(201);
      expect(c.body.data).toMatchObject(data);
      const id = c.body.data.documentId;
      expect((await t.get(`/api/${plural}`)).body.data.some((d: { documentId: string }) => d.documentId === id)).toBe(true);
      expect((await t.get(`/api/${plural}/${id}`)).body.data).toMatchObject(data);
      expect((await t.request('PUT', `/api/${plural}/${id}`, { body: { data: change } })).body.data).toMatchObject(change);
      expect((await t.request('DELETE', `/api/${plural}/${id}`)).status).toBe(204);
      expect((await t.get(`/api/${plural}/${id}`)).status).toBe(404);
    }
  });
});

describe('fields', () => {
  it('come back in the order requested, after id and documentId, at every level, as in Strapi 5.54', async () => {
    const author = (await t.request('POST', '/api/authors', { body: { data: { name: 'Ordered', age: 30 } } })).body.data.documentId;
    const art = (await t.request('POST', '/api/articles', { body: { data: { title: 'In order', views: 3, author, seo: { metaTitle: 'm', metaDescription: 'd' } } } })).body.data;
    const r = await t.get(
      `/api/articles/${art.documentId}?fields[0]=locale&fields[1]=views&fields[2]=title&fields[3]=views&populate[author][fields][0]=age&populate[author][fields][1]=name&populate[seo][fields][0]=metaDescription&populate[seo][fields][1]=metaTitle`,
    );
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body.data)).toEqual(['id', 'documentId', 'locale', 'views', 'title', 'author', 'seo']);
    expect(Object.keys(r.body.data.author)).toEqual(['id', 'documentId', 'age', 'name']);
    expect(Object.keys(r.body.data.seo)).toEqual(['id', 'metaDescription', 'metaTitle']);
    const tag = await t.request('POST', '/api/tags?fields=color,label', { body: { data: { label: 'ordered', color: '#000000' } } });
    expect(Object.keys(tag.body.data)).toEqual(['id', 'documentId', 'color', 'label']);
  });
});

describe('query parameters of a write', () => {
  it("filters are checked but select nothing, and filters[locale] doesn't choose the locale written, as in Strapi 5.54", async () => {
    const created = await t.request('POST', '/api/articles?fields[0]=title&fields[1]=locale&filters[locale]=fr&filters[title]=other', { body: { data: { title: 'Written' } } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.data).toEqual({ id: expect.any(Number), documentId: expect.any(String), title: 'Written', locale: 'en' });
    const id = created.body.data.documentId;
    const updated = await t.request('PUT', `/api/articles/${id}?fields[0]=title&filters[title]=zzz&filters[locale]=fr`, { body: { data: { title: 'Rewritten' } } });
    expect(updated.body).toEqual({ data: { id: created.body.data.id, documentId: id, title: 'Rewritten' }, meta: {} });
    const bad = await t.request('PUT', `/api/articles/${id}?filters[nope]=1`, { body: { data: { title: 'x' } } });
    expect(bad.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'query', param: 'filters' } });
  });
});

describe('single types', () => {
  it('GET of an empty single type is a 404', async () => {
    const r = await t.get('/api/global');
    expect(r.status).toBe(404);
    expect(r.body.error.name).toBe('NotFoundError');
  });

  it('PUT creates the document, then updates it (200 both times)', async () => {
    const c = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Site', siteDescription: 'd' } } });
    expect(c.status).toBe(200);
    expect(c.body.data).toMatchObject({ siteName: 'Site', siteDescription: 'd', locale: 'en' });
    const u = await t.request('PUT', '/api/global', { body: { data: { siteDescription: 'e' } } });
    expect(u.status).toBe(200);
    expect(u.body.data).toMatchObject({ documentId: c.body.data.documentId, siteName: 'Site', siteDescription: 'e' });
    expect((await t.get('/api/global')).body.data.siteDescription).toBe('e');
  });

  it('POST on a single type is 405 Method Not Allowed', async () => {
    const r = await t.request('POST', '/api/global', { body: { data: {} } });
    expect(r.status).toBe(405);
    expect(r.text).toBe('Method Not Allowed');
  });

  it('DELETE removes it (204), and GET is 404 again', async () => {
    expect((await t.request('DELETE', '/api/global')).status).toBe(204);
    expect((await t.get('/api/global')).status).toBe(404);
  });

  it('answers GET and PUT as {data: document, meta: {}}, the NotFoundError body when empty, and DELETE with no body', async () => {
    const put = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Envelope' } } });
    expect(put.status).toBe(200);
    expect(put.body).toEqual({ data: expect.objectContaining({ documentId: expect.stringMatching(DOC_ID), siteName: 'Envelope', locale: 'en' }), meta: {} });
    const got = await t.get('/api/global');
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ data: put.body.data, meta: {} });
    const del = await t.request('DELETE', '/api/global');
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    const gone = await t.get('/api/global');
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} } });
    // a missing document is the same 404 on DELETE (README: Strapi answers 204 there)
    const again = await t.request('DELETE', '/api/global');
    expect(again.status).toBe(404);
    expect(again.body).toEqual(gone.body);
  });
});

describe('previous response format', () => {
  it('Strapi-Response-Format: v4 nests attributes', async () => {
    const c = await t.request('POST', '/api/tags', { body: { data: { label: 'v4' } } });
    const r = await t.get(`/api/tags/${c.body.data.documentId}`, { headers: { 'strapi-response-format': 'v4' } });
    expect(r.body.data).toEqual({ id: c.body.data.id, documentId: c.body.data.documentId, attributes: expect.objectContaining({ label: 'v4' }) });
    expect(r.body.data.attributes).not.toHaveProperty('id');
  });

  it('a populated count is {data: {attributes: {count}}}, as Strapi 5.54 writes it', async () => {
    const tags = [
      (await t.request('POST', '/api/tags', { body: { data: { label: 'v4-a' } } })).body.data.documentId,
      (await t.request('POST', '/api/tags', { body: { data: { label: 'v4-b' } } })).body.data.documentId,
    ];
    const art = (await t.request('POST', '/api/articles', { body: { data: { title: 'v4 counts', tags } } })).body.data;
    const r = await t.get(`/api/articles/${art.documentId}?fields[0]=title&populate[tags][count]=true&populate[author][count]=true`, {
      headers: { 'strapi-response-format': 'v4' },
    });
    expect(r.body).toEqual({
      data: {
        id: art.id,
        documentId: art.documentId,
        attributes: { title: 'v4 counts', author: { data: { attributes: { count: 0 } } }, tags: { data: { attributes: { count: 2 } } } },
      },
      meta: {},
    });
  });
});
