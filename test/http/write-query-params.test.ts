// What a write's query string may and may not change. Strapi 5.54 reads a write's document back whatever
// `_q`, `filters` or `publicationFilter` say, refuses a locale that is not one string with its own
// message, and deletes nothing when a DELETE's conditions don't match the document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe("a write's query", () => {
  it('_q, filters and publicationFilter leave the written document in the answer; hasPublishedVersion, even a bad one, is not read', async () => {
    for (const query of ['_q=zzz', 'publicationFilter=modified', 'filters[title][$eq]=other', 'hasPublishedVersion=false', 'hasPublishedVersion=x']) {
      const made = await t.request('POST', `/api/articles?${query}`, { body: { data: { title: `Q ${query}` } } });
      expect(made.status, made.text).toBe(201);
      expect(made.body.data).toMatchObject({ title: `Q ${query}` });
      const put = await t.request('PUT', `/api/articles/${made.body.data.documentId as string}?${query}`, { body: { data: { summary: 's' } } });
      expect(put.body.data).toMatchObject({ title: `Q ${query}`, summary: 's' });
    }
    const single = await t.request('PUT', '/api/global?_q=zzz&publicationFilter=never-published', { body: { data: { siteName: 'Site' } } });
    expect(single.body.data).toMatchObject({ siteName: 'Site' });
    const tag = await t.request('POST', '/api/tags?hasPublishedVersion=x', { body: { data: { label: 'hpv tag' } } });
    expect(tag.status, tag.text).toBe(201);
  });

  it('a locale that is not one string is refused with the value as Strapi shows it', async () => {
    const refused = (value: string) => ({
      status: 400,
      name: 'ValidationError',
      message: `Invalid locale param ${value} provided. Document locales must be strings.`,
      details: {},
    });
    const body = { data: { title: 'L' } };
    expect((await t.request('POST', '/api/articles?locale[0]=fr', { body })).body.error).toEqual(refused('fr'));
    expect((await t.request('POST', '/api/articles?locale[0]=fr&locale[1]=de', { body })).body.error).toEqual(refused('fr,de'));
    expect((await t.request('POST', '/api/articles?locale[a]=fr', { body })).body.error).toEqual(refused('[object Object]'));
    expect((await t.request('POST', '/api/articles?locale=*', { body })).body.error).toEqual(refused('*'));
  });

  it("comes after the body's missing data and bad keys, but before its values, as in Strapi 5.54", async () => {
    const invalidKey = (key: string, path: string | null) => ({ status: 400, name: 'ValidationError', message: `Invalid key ${key}`, details: { key, path, source: 'body' } });
    expect((await t.request('POST', '/api/articles?locale=*', { body: { data: { foo: 1, title: 'x' } } })).body.error).toEqual(invalidKey('foo', null));
    expect((await t.request('PUT', '/api/homepage?locale=*', { body: { data: { createdAt: 'x' } } })).body.error).toEqual(invalidKey('createdAt', 'createdAt'));
    const missing = { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} };
    expect((await t.request('POST', '/api/articles?locale=*', { body: { nodata: 1 } })).body.error).toEqual(missing);
    // a value error (and a data list) is the locale's
    const refused = { status: 400, name: 'ValidationError', message: 'Invalid locale param * provided. Document locales must be strings.', details: {} };
    expect((await t.request('POST', '/api/articles?locale=*', { body: { data: { title: 5 } } })).body.error).toEqual(refused);
    expect((await t.request('POST', '/api/articles?locale=*', { body: { data: [1] } })).body.error).toEqual(refused);
  });
});

describe("a one-document read's locale", () => {
  it('is one string: a list is refused as on a write, on a collection and a single type', async () => {
    const id = await writeDocument(t, 'POST', '/api/articles', { title: 'One locale' });
    const refused = { status: 400, name: 'ValidationError', message: 'Invalid locale param fr provided. Document locales must be strings.', details: {} };
    expect((await t.get(`/api/articles/${id}?locale[0]=fr`)).body.error).toEqual(refused);
    expect((await t.get('/api/homepage?locale[0]=fr')).body.error).toEqual(refused);
  });
});

describe('a DELETE with conditions', () => {
  const exists = async (documentId: string): Promise<boolean> => (await t.get(`/api/articles/${documentId}?status=draft`)).status === 200;
  const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} } };

  it("deletes nothing when filters, _q or publicationFilter don't match the document: 404", async () => {
    const id = await writeDocument(t, 'POST', '/api/articles?status=published', { title: 'Keep me' });
    for (const query of ['filters[title][$eq]=nomatch', '_q=zzz', 'publicationFilter=never-published']) {
      const r = await t.request('DELETE', `/api/articles/${id}?${query}`);
      expect([r.status, r.body], query).toEqual([404, notFound]);
      expect(await exists(id), query).toBe(true);
    }
    await writeDocument(t, 'PUT', '/api/global', { siteName: 'Kept' });
    expect((await t.request('DELETE', '/api/global?filters[siteName][$eq]=nomatch')).status).toBe(404);
    expect((await t.get('/api/global')).body.data).toMatchObject({ siteName: 'Kept' });
  });

  it('deletes when they match, a draft-only document too', async () => {
    const published = await writeDocument(t, 'POST', '/api/articles?status=published', { title: 'Gone' });
    expect((await t.request('DELETE', `/api/articles/${published}?filters[title][$eq]=Gone&_q=Gon`)).status).toBe(204);
    expect(await exists(published)).toBe(false);
    const draft = await writeDocument(t, 'POST', '/api/articles', { title: 'Draft gone' });
    expect((await t.request('DELETE', `/api/articles/${draft}?filters[title][$eq]=Draft gone`)).status).toBe(204);
    expect(await exists(draft)).toBe(false);
  });
});
