// A filter on `locale` at the top of `filters` takes the place of the locale a read would use (the
// `locale` parameter, else the default), as in Strapi 5: Strapi's LaunchPad front end reads pages
// with `filters: { slug, locale }`. Below the top level it is an ordinary condition inside the
// default locale. Bodies compared with the reference Strapi 5.54.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let documentId: string;
let en: { id: number; documentId: string; title: string };
let fr: { id: number; documentId: string; title: string };
beforeAll(async () => {
  t = await startTestApp();
  const a = await t.request('POST', '/api/articles', { body: { data: { title: 'Hello', slug: 'hello' } } });
  documentId = a.body.data.documentId as string;
  const b = await t.request('PUT', `/api/articles/${documentId}?locale=fr`, { body: { data: { title: 'Bonjour', slug: 'bonjour' } } });
  expect(b.status, b.text).toBe(200);
  en = { id: a.body.data.id as number, documentId, title: 'Hello' };
  fr = { id: b.body.data.id as number, documentId, title: 'Bonjour' };
  // a draft beside the published versions: the status still applies
  await t.request('PUT', `/api/articles/${documentId}?status=draft`, { body: { data: { title: 'Hello draft' } } });
});
afterAll(async () => {
  await t.close();
});

const list = (data: unknown[]) => ({ data, meta: { pagination: { page: 1, pageSize: 25, pageCount: data.length ? 1 : 0, total: data.length } } });

describe('a top-level filter on locale chooses the locale of the read', () => {
  it('filters[locale][$eq]=fr and filters[locale]=fr read the French versions without locale=fr', async () => {
    for (const q of ['filters[locale][$eq]=fr', 'filters[locale]=fr']) {
      const r = await t.get(`/api/articles?${q}&fields[0]=title`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(list([fr]));
    }
  });

  it('the filter wins over the locale parameter, and may name several locales', async () => {
    expect((await t.get('/api/articles?locale=fr&filters[locale]=en&fields[0]=title')).body).toEqual(list([en]));
    expect((await t.get('/api/articles?filters[locale][$in][0]=fr&filters[locale][$in][1]=en&fields[0]=title&sort=id')).body).toEqual(list([en, fr]));
    expect((await t.get('/api/articles?filters[locale][$ne]=en&fields[0]=title')).body).toEqual(list([fr]));
  });

  it('below the top level, locale is a condition inside the default locale', async () => {
    expect((await t.get('/api/articles?filters[$or][0][locale]=fr&fields[0]=title')).body).toEqual(list([]));
  });

  it("a front end's page query (slug and locale) finds the page, with its other locales populated", async () => {
    const r = await t.get('/api/articles?filters[slug][$eq]=bonjour&filters[locale]=fr&status=published&fields[0]=title&populate[localizations][fields][0]=title');
    expect(r.body).toEqual(list([{ ...fr, localizations: [en] }]));
  });

  it('a document or single type read picks the version the filter names', async () => {
    const one = await t.get(`/api/articles/${documentId}?filters[locale]=fr&fields[0]=title`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({ data: fr, meta: {} });
    const g = await t.request('PUT', '/api/global', { body: { data: { siteName: 'Site en' } } });
    const gfr = await t.request('PUT', '/api/global?locale=fr', { body: { data: { siteName: 'Site fr' } } });
    expect(g.status, g.text).toBe(200);
    const single = await t.get('/api/global?filters[locale]=fr&fields[0]=siteName');
    expect(single.body).toEqual({ data: { id: gfr.body.data.id, documentId: g.body.data.documentId, siteName: 'Site fr' }, meta: {} });
    // locale=* alone still names no one version of a document
    expect((await t.get(`/api/articles/${documentId}?locale=*`)).status).toBe(404);
  });
});
