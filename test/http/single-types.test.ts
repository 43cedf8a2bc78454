import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

describe('single types follow the locale and status rules', () => {
  it('homepage (draft & publish, localized): PUT ?status=draft writes only the draft', async () => {
    const draft = await t.request('PUT', '/api/homepage?status=draft', { body: { data: { headline: 'Draft headline' } } });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.data).toMatchObject({ headline: 'Draft headline', publishedAt: null, locale: 'en' });
    expect((await t.get('/api/homepage')).status).toBe(404);
    expect((await t.get('/api/homepage?status=draft')).body.data.headline).toBe('Draft headline');
    const pub = await t.request('PUT', '/api/homepage', { body: { data: {} } });
    expect(pub.status).toBe(200);
    expect(pub.body.data.publishedAt).not.toBeNull();
    expect((await t.get('/api/homepage')).body.data.headline).toBe('Draft headline');
  });

  it('publishing without a required field is a 400 with the publish-time message', async () => {
    await t.request('DELETE', '/api/homepage');
    const r = await t.request('PUT', '/api/homepage', { body: { data: { hero: [] } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('headline must be a `string` type, but the final value was: `null`.');
    expect((await t.get('/api/homepage?status=draft')).status).toBe(404);
  });

  it('PUT ?locale= creates another locale version of the single document; DELETE ?locale= removes only it', async () => {
    const en = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Site' } } });
    expect(en.status).toBe(200);
    const fr = await t.request('PUT', '/api/global?locale=fr', { body: { data: { siteName: 'Site FR' } } });
    expect(fr.status, fr.text).toBe(200);
    expect(fr.body.data).toMatchObject({ documentId: en.body.data.documentId, siteName: 'Site FR', locale: 'fr' });
    expect((await t.get('/api/global?locale=fr')).body.data.siteName).toBe('Site FR');
    expect((await t.get('/api/global')).body.data.siteName).toBe('Site');
    expect((await t.request('DELETE', '/api/global?locale=fr')).status).toBe(204);
    expect((await t.get('/api/global?locale=fr')).status).toBe(404);
    expect((await t.get('/api/global')).body.data.siteName).toBe('Site');
  });

  it('PUT ?locale= of a locale the single type lacks needs createLocalization: 403 Forbidden without it, and nothing is written', async () => {
    const en = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Guarded' } } });
    expect(en.status, en.text).toBe(200);
    const custom = await t.tokenOf('custom', ['api::global.global.update', 'api::global.global.find']);
    const de = await t.request('PUT', '/api/global?locale=de', { token: custom, body: { data: { siteName: 'Bewacht' } } });
    expect(de.status, de.text).toBe(403);
    expect(de.body).toEqual({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } });
    expect((await t.get('/api/global?locale=de')).status).toBe(404);
    const same = await t.request('PUT', '/api/global', { token: custom, body: { data: { siteName: 'Guarded 2' } } });
    expect(same.status, same.text).toBe(200);
    const granted = await t.tokenOf('custom', ['api::global.global.update', 'api::global.global.createLocalization']);
    expect((await t.request('PUT', '/api/global?locale=de', { token: granted, body: { data: { siteName: 'Bewacht' } } })).status).toBe(200);
    expect((await t.request('DELETE', '/api/global?locale=de')).status).toBe(204);
  });

  it('data given as a list to a locale the single type lacks is a 400, and the server goes on (Strapi 5.54 answers 404, then its process dies)', async () => {
    const r = await t.request('PUT', '/api/homepage?locale=de', { body: { data: [{ headline: 'x' }] } });
    const message = 'this must be a `object` type, but the final value was: `null` (cast from the value `[\n  {\n    "headline": "\\"x\\""\n  }\n]`).';
    expect(r.body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [], message, name: 'ValidationError', value: null }] } },
    });
    expect((await t.get('/api/homepage?locale=de')).status).toBe(404);
    expect((await t.get('/api/tags')).status).toBe(200);
  });

  it('an unknown locale on a single type is a 400', async () => {
    const r = await t.get('/api/global?locale=xx');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Locale "xx" is not available. Available locales: de, en, fr');
  });

  it('DELETE ?locale=* removes every locale version of a collection document', async () => {
    const c = await t.request('POST', '/api/categories', { body: { data: { name: 'Everywhere' } } });
    const id = c.body.data.documentId;
    await t.request('PUT', `/api/categories/${id}?locale=fr`, { body: { data: { name: 'Partout' } } });
    await t.request('PUT', `/api/categories/${id}?locale=de`, { body: { data: { name: 'Überall' } } });
    expect((await t.request('DELETE', `/api/categories/${id}?locale=*`)).status).toBe(204);
    for (const l of ['en', 'fr', 'de']) expect((await t.get(`/api/categories/${id}?locale=${l}`)).status).toBe(404);
  });

  it('one-document requests page nothing: root page/pageSize/start/limit are checked as Strapi 5.54 checks them, the pagination object is unread, writes read none', async () => {
    const en = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Paged site' } } });
    expect(en.status, en.text).toBe(200);
    const c = await t.request('POST', '/api/categories', { body: { data: { name: 'Paged' } } });
    const one = `/api/categories/${c.body.data.documentId}`;
    const pagination = (message: string) => ({ data: null, error: { status: 400, name: 'PaginationError', message, details: {} } });
    const convert = (message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    for (const path of ['/api/global', one]) {
      for (const q of ['page=2', 'page=2&pageSize=10', 'pageSize=1', 'limit=5', 'pagination[page]=abc', 'pagination[page]=1&pagination[start]=1', 'pagination[withCount]=abc']) {
        const r = await t.get(`${path}?${q}`);
        expect(r.status, `${path}?${q}: ${r.text}`).toBe(200);
        expect(r.body.data.documentId, q).toBe(path === one ? c.body.data.documentId : en.body.data.documentId);
      }
      for (const [q, body] of [
        ['page=abc', pagination("Invalid 'page' parameter. Expected an integer > 0, received: abc")],
        ['pageSize=0', pagination("Invalid 'pageSize' parameter. Expected an integer > 0, received: 0")],
        ['page=1&start=0', pagination('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
        ['limit=abc', convert('convertLimitQueryParams expected a positive integer got NaN')],
        ['start=-1', convert('convertStartQueryParams expected a positive integer got -1')],
      ] as const) {
        expect((await t.get(`${path}?${q}`)).body, `${path}?${q}`).toEqual(body);
      }
      // the rest of the query is checked first
      expect((await t.get(`${path}?page=abc&sort=nope`)).body.error.message).toBe('Invalid key nope');
    }
    expect((await t.request('DELETE', `${one}?page=abc`)).body).toEqual(pagination("Invalid 'page' parameter. Expected an integer > 0, received: abc"));
    for (const q of ['page=abc', 'page=1&limit=1', 'pagination[page]=abc', 'start=abc']) {
      const put = await t.request('PUT', `${one}?${q}`, { body: { data: { name: `Paged ${q}` } } });
      expect([put.status, put.body.data?.name], q).toEqual([200, `Paged ${q}`]);
      const global = await t.request('PUT', `/api/global?${q}`, { body: { data: { siteName: 'Paged site' } } });
      expect(global.status, q).toBe(200);
      const created = await t.request('POST', `/api/categories?${q}`, { body: { data: { name: `New ${q}` } } });
      expect(created.status, q).toBe(201);
    }
  });
});
