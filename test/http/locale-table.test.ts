// Every row of the contract's locale table on a type with both i18n and draft & publish (articles)
// and on the single type with both (homepage), with the status each row leaves behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Doc = Record<string, unknown> & { documentId: string; locale: string; publishedAt: string | null };

async function ok(method: string, path: string, data?: Record<string, unknown>): Promise<Doc> {
  const r = await t.request(method, path, data === undefined ? {} : { body: { data } });
  expect(r.status, `${method} ${path} → ${r.text}`).toBe(method === 'POST' ? 201 : 200);
  return r.body.data as Doc;
}

const versions = async (documentId: string): Promise<string[]> => {
  const out: string[] = [];
  for (const status of ['draft', 'published']) {
    const r = await t.get(`/api/articles?locale=*&status=${status}&filters[documentId][$eq]=${documentId}`);
    for (const d of r.body.data as Doc[]) out.push(`${d.locale}:${status}`);
  }
  return out.sort();
};

describe('locale table on a type with draft & publish', () => {
  it('create in the default locale publishes an en version; create with ?locale= makes a new document in that locale', async () => {
    const en = await ok('POST', '/api/articles', { title: 'lt default' });
    expect(en.locale).toBe('en');
    expect(await versions(en.documentId)).toEqual(['en:draft', 'en:published']);
    const fr = await ok('POST', '/api/articles?locale=fr', { title: 'lt français' });
    expect(fr.locale).toBe('fr');
    expect(fr.documentId).not.toBe(en.documentId);
    expect(await versions(fr.documentId)).toEqual(['fr:draft', 'fr:published']);
  });

  it("list in a locale returns only that locale's versions; without locale the default applies", async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt list' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=de`, { title: 'lt Liste' });
    const de = await t.get('/api/articles?locale=de&filters[title][$startsWith]=lt');
    expect(de.body.data.map((d: Doc) => d.title)).toEqual(['lt Liste']);
    expect(de.body.meta.pagination.total).toBe(1);
    const dflt = await t.get(`/api/articles?filters[documentId][$eq]=${a.documentId}`);
    expect(dflt.body.data.map((d: Doc) => d.locale)).toEqual(['en']);
    const both = await t.get(`/api/articles?locale[0]=en&locale[1]=de&filters[documentId][$eq]=${a.documentId}&sort=locale`);
    expect(both.body.data.map((d: Doc) => d.locale)).toEqual(['de', 'en']);
  });

  it('get one locale version; a locale the document lacks is a 404', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt get' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt obtenir' });
    expect((await t.get(`/api/articles/${a.documentId}?locale=fr`)).body.data).toMatchObject({ title: 'lt obtenir', locale: 'fr' });
    const de = await t.get(`/api/articles/${a.documentId}?locale=de`);
    expect(de.status).toBe(404);
    expect(de.body.error).toMatchObject({ status: 404, name: 'NotFoundError', message: 'Document not found' });
  });

  it('PUT ?locale= creates a locale version (published unless status=draft), then updates it', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt put', views: 3 });
    const fr = await ok('PUT', `/api/articles/${a.documentId}?locale=fr&status=draft`, { title: 'lt mettre' });
    expect(fr).toMatchObject({ documentId: a.documentId, locale: 'fr', publishedAt: null, views: 3 });
    expect(await versions(a.documentId)).toEqual(['en:draft', 'en:published', 'fr:draft']);
    const frPub = await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt mettre 2' });
    expect(frPub.publishedAt).not.toBeNull();
    expect(await versions(a.documentId)).toEqual(['en:draft', 'en:published', 'fr:draft', 'fr:published']);
    expect((await t.get(`/api/articles/${a.documentId}`)).body.data.title).toBe('lt put');
  });

  it('a non-localized field goes to the other locales in the status written, as Strapi 5.54 does', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt shared', views: 1 });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt partagé' });
    const views = async (): Promise<Record<string, number>> => {
      const out: Record<string, number> = {};
      for (const q of ['', 'status=draft', 'locale=fr', 'locale=fr&status=draft']) out[q || 'published'] = (await t.get(`/api/articles/${a.documentId}?${q}`)).body.data.views;
      return out;
    };
    // a draft write changes the drafts only: no published version moves
    await ok('PUT', `/api/articles/${a.documentId}?status=draft`, { views: 42 });
    expect(await views()).toEqual({ published: 1, 'status=draft': 42, 'locale=fr': 1, 'locale=fr&status=draft': 42 });
    // publishing without the field leaves the other locale's published version as it was
    await ok('PUT', `/api/articles/${a.documentId}`, { title: 'lt shared 2' });
    expect(await views()).toEqual({ published: 42, 'status=draft': 42, 'locale=fr': 1, 'locale=fr&status=draft': 42 });
    // a published write goes to the other published versions; their drafts keep theirs
    await ok('PUT', `/api/articles/${a.documentId}`, { views: 7 });
    expect(await views()).toEqual({ published: 7, 'status=draft': 7, 'locale=fr': 7, 'locale=fr&status=draft': 42 });
    expect((await t.get(`/api/articles/${a.documentId}?locale=fr`)).body.data.title).toBe('lt partagé');
  });

  it('a locale key in a create or update body is ignored; the query decides', async () => {
    const a = await ok('POST', '/api/articles?locale=fr', { title: 'lt ignoré', locale: 'de' });
    expect(a.locale).toBe('fr');
    const u = await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt ignoré 2', locale: 'en' });
    expect(u.locale).toBe('fr');
    expect(await versions(a.documentId)).toEqual(['fr:draft', 'fr:published']);
  });

  it('DELETE ?locale= removes both versions in that locale only (204)', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt delete' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt supprimer' });
    const r = await t.request('DELETE', `/api/articles/${a.documentId}?locale=fr`);
    expect(r.status).toBe(204);
    expect(r.text).toBe('');
    expect(await versions(a.documentId)).toEqual(['en:draft', 'en:published']);
    expect((await t.request('DELETE', `/api/articles/${a.documentId}?locale=fr`)).status).toBe(404);
  });

  it('DELETE ?locale=* removes every version in every locale', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt all' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr&status=draft`, { title: 'lt tout' });
    expect((await t.request('DELETE', `/api/articles/${a.documentId}?locale=*`)).status).toBe(204);
    expect(await versions(a.documentId)).toEqual([]);
  });

  it('an unknown locale is a 400 on every route and writes nothing', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt unknown' });
    const calls: [string, string, Record<string, unknown> | undefined][] = [
      ['GET', '/api/articles?locale=xx', undefined],
      ['GET', `/api/articles/${a.documentId}?locale=xx`, undefined],
      ['POST', '/api/articles?locale=xx', { title: 'lt nope' }],
      ['PUT', `/api/articles/${a.documentId}?locale=xx`, { title: 'lt nope' }],
      ['DELETE', `/api/articles/${a.documentId}?locale=xx`, undefined],
    ];
    for (const [method, path, data] of calls) {
      const r = await t.request(method, path, data ? { body: { data } } : {});
      expect(r.status, `${method} ${path}`).toBe(400);
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message: 'Locale "xx" is not available. Available locales: de, en, fr' });
    }
    expect(await versions(a.documentId)).toEqual(['en:draft', 'en:published']);
    expect((await t.get('/api/articles?filters[title][$eq]=lt nope&locale=*&status=draft')).body.data).toEqual([]);
    // every locale is one choice, not one of a list (Strapi 5.54 reads it there as a locale named "*")
    const mixed = await t.get('/api/categories?locale=en&locale=*');
    expect([mixed.status, mixed.body.error?.message]).toEqual([400, 'Locale "*" (every locale) can\'t be listed with other locales']);
  });

  it('without createLocalization a new locale version is 403 and writes nothing; existing ones stay editable', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt guarded' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt gardé' });
    const custom = await t.tokenOf('custom', ['api::article.article.update', 'api::article.article.findOne']);
    const de = await t.request('PUT', `/api/articles/${a.documentId}?locale=de`, { token: custom, body: { data: { title: 'lt bewacht' } } });
    expect(de.status).toBe(403);
    expect(de.body.error).toMatchObject({ status: 403, name: 'ForbiddenError', message: 'Forbidden' });
    const fr = await t.request('PUT', `/api/articles/${a.documentId}?locale=fr`, { token: custom, body: { data: { title: 'lt gardé 2' } } });
    expect(fr.status).toBe(200);
    expect(await versions(a.documentId)).toEqual(['en:draft', 'en:published', 'fr:draft', 'fr:published']);
  });

  it('localizations lists the other locale versions in the same status, only when populated', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt loc' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt loc fr' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=de&status=draft`, { title: 'lt loc de' });
    const plain = await t.get(`/api/articles/${a.documentId}`);
    expect(plain.body.data).not.toHaveProperty('localizations');
    const pub = await t.get(`/api/articles/${a.documentId}?populate=localizations`);
    expect(pub.body.data.localizations.map((l: Doc) => l.locale)).toEqual(['fr']);
    const draft = await t.get(`/api/articles/${a.documentId}?populate=localizations&status=draft`);
    expect(draft.body.data.localizations.map((l: Doc) => l.locale).sort()).toEqual(['de', 'fr']);
    const bad = await t.request('PUT', `/api/articles/${a.documentId}`, { body: { data: { localizations: [] } } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid key localizations');
  });

  it('non-localized types ignore locale on reads and writes', async () => {
    const tag = await ok('POST', '/api/tags?locale=fr', { label: 'lt tag' });
    expect(tag).not.toHaveProperty('locale');
    expect((await t.get(`/api/tags/${tag.documentId}?locale=de`)).body.data.label).toBe('lt tag');
  });
});

describe('locale table on a single type with draft & publish', () => {
  it('get, create, update, delete per locale with status', async () => {
    await ok('PUT', '/api/homepage', { headline: 'lt home' });
    const fr = await ok('PUT', '/api/homepage?locale=fr&status=draft', { headline: 'lt accueil' });
    expect(fr).toMatchObject({ locale: 'fr', publishedAt: null });
    expect((await t.get('/api/homepage?locale=fr')).status).toBe(404);
    expect((await t.get('/api/homepage?locale=fr&status=draft')).body.data.headline).toBe('lt accueil');
    await ok('PUT', '/api/homepage?locale=fr', {});
    expect((await t.get('/api/homepage?locale=fr')).body.data).toMatchObject({ headline: 'lt accueil', locale: 'fr', documentId: fr.documentId });
    await ok('PUT', '/api/homepage?status=draft', { headline: 'lt home draft' });
    expect((await t.get('/api/homepage')).body.data.headline).toBe('lt home');
    expect((await t.get('/api/homepage?status=draft')).body.data.headline).toBe('lt home draft');
    const custom = await t.tokenOf('custom', ['api::homepage.homepage.update', 'api::homepage.homepage.find']);
    expect((await t.request('PUT', '/api/homepage?locale=de', { token: custom, body: { data: { headline: 'lt Start' } } })).status).toBe(403);
    expect((await t.request('DELETE', '/api/homepage?locale=fr')).status).toBe(204);
    expect((await t.get('/api/homepage?locale=fr&status=draft')).status).toBe(404);
    expect((await t.get('/api/homepage')).body.data.headline).toBe('lt home');
  });
});

describe('longhand locale and status on links between types with and without i18n / draft & publish', () => {
  it('a non-localized author linked to the fr version of an article lists it whatever locale the read names (every linked version, as Strapi 5.54)', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt rel' });
    await ok('PUT', `/api/articles/${a.documentId}?locale=fr`, { title: 'lt rel fr' });
    const au = await ok('POST', '/api/authors', { name: 'lt author', articles: { connect: [{ documentId: a.documentId, locale: 'fr' }] } });
    const inFr = await t.get(`/api/authors/${au.documentId}?locale=fr&populate=articles`);
    expect(inFr.body.data.articles.map((x: Doc) => x.title)).toEqual(['lt rel fr']);
    const anyLocale = await t.get(`/api/authors/${au.documentId}?populate=articles`);
    expect(anyLocale.body.data.articles.map((x: Doc) => x.title)).toEqual(['lt rel fr']);
    // counted and filtered through the same way
    expect((await t.get(`/api/authors/${au.documentId}?populate[articles][count]=true`)).body.data.articles).toEqual({ count: 1 });
    const filtered = await t.get(`/api/authors?filters[articles][title][$eq]=lt rel fr&fields[0]=name`);
    expect(filtered.body.data.map((x: { name: string }) => x.name)).toEqual(['lt author']);
    // the author has no locales: a locale named for it picks nothing (Strapi 5.54 ignores it there)
    const inEn = await t.get(`/api/authors/${au.documentId}?locale=en&populate=articles`);
    expect(inEn.body.data.articles.map((x: Doc) => x.title)).toEqual(['lt rel fr']);
    expect((await t.get(`/api/authors?locale=en&filters[articles][title][$eq]=lt rel fr&fields[0]=name`)).body.data.map((x: { name: string }) => x.name)).toEqual(['lt author']);
    expect((await t.get(`/api/articles/${a.documentId}?locale=fr&populate=author`)).body.data.author.documentId).toBe(au.documentId);
    expect((await t.get(`/api/articles/${a.documentId}?populate=author`)).body.data.author).toBeNull();
  });

  it('below a localized list, the author lists every locale version that links it, whether the read names a locale or not, as Strapi 5.54 does', async () => {
    const au = await ok('POST', '/api/authors', { name: 'lt nested author' });
    const x = await ok('POST', '/api/articles', { title: 'lt nested', author: au.documentId });
    await ok('PUT', `/api/articles/${x.documentId}?locale=fr`, { title: 'lt nested fr', author: au.documentId });
    const nested = (q: string): string =>
      `/api/articles?filters[title][$eq]=lt nested&fields[0]=title&populate[author][fields][0]=name&populate[author][populate][articles][fields][0]=title${q}`;
    const titles = async (q: string): Promise<unknown> => (await t.get(nested(q))).body.data.map((d: { author: { articles: Doc[] } }) => d.author.articles.map((a) => a.title));
    expect(await titles('')).toEqual([['lt nested', 'lt nested fr']]);
    expect(await titles('&locale=en')).toEqual([['lt nested', 'lt nested fr']]);
    const count = await t.get(`/api/articles?filters[title][$eq]=lt nested&fields[0]=title&populate[author][populate][articles][count]=true`);
    expect(count.body.data.map((d: { author: { articles: unknown } }) => d.author.articles)).toEqual([{ count: 2 }]);
    const through = await t.get(`/api/articles?filters[author][articles][title][$eq]=lt nested fr&fields[0]=title`);
    expect(through.body.data.map((d: Doc) => d.title)).toEqual(['lt nested']);
    expect((await t.get(`/api/articles?filters[author][articles][title][$eq]=lt nested fr&fields[0]=title&locale=en`)).body.data.map((d: Doc) => d.title)).toEqual(['lt nested']);
  });

  it('a set from a type without locales replaces its links in every locale, as Strapi 5.54 does; connect and disconnect edit the locales they name', async () => {
    const au = await ok('POST', '/api/authors', { name: 'lt set author' });
    const x = await ok('POST', '/api/articles', { title: 'lt set x', author: au.documentId });
    await ok('PUT', `/api/articles/${x.documentId}?locale=fr`, { title: 'lt set x fr', author: au.documentId });
    const authorOf = async (locale: string): Promise<unknown> => (await t.get(`/api/articles/${x.documentId}?locale=${locale}&populate=author`)).body.data.author;
    expect(await authorOf('fr')).toMatchObject({ documentId: au.documentId });
    await ok('PUT', `/api/authors/${au.documentId}`, { articles: { set: [] } });
    expect([await authorOf('en'), await authorOf('fr')]).toEqual([null, null]);
    // linked again in both; a set naming another article's fr version unlinks both versions of this one
    await ok('PUT', `/api/articles/${x.documentId}`, { author: au.documentId });
    await ok('PUT', `/api/articles/${x.documentId}?locale=fr`, { author: au.documentId });
    const m = await ok('POST', '/api/articles?locale=fr', { title: 'lt set m fr' });
    await ok('PUT', `/api/authors/${au.documentId}`, { articles: [{ documentId: m.documentId, locale: 'fr' }] });
    expect([await authorOf('en'), await authorOf('fr')]).toEqual([null, null]);
    const listed = await t.get(`/api/authors/${au.documentId}?populate[articles][fields][0]=title`);
    expect(listed.body.data.articles.map((a: Doc) => a.title)).toEqual(['lt set m fr']);
    // a disconnect names its locale only
    await ok('PUT', `/api/articles/${x.documentId}`, { author: au.documentId });
    await ok('PUT', `/api/authors/${au.documentId}`, { articles: { disconnect: [{ documentId: m.documentId, locale: 'fr' }] } });
    expect(await authorOf('en')).toMatchObject({ documentId: au.documentId });
  });

  it('a category without draft & publish linked to the draft of an article sees it only with status=draft', async () => {
    const a = await ok('POST', '/api/articles', { title: 'lt status' });
    const c = await ok('POST', '/api/categories', { name: 'lt cat', articles: { connect: [{ documentId: a.documentId, status: 'draft' }] } });
    const draft = await t.get(`/api/categories/${c.documentId}?status=draft&populate=articles`);
    expect(draft.body.data.articles.map((x: Doc) => x.documentId)).toEqual([a.documentId]);
    const pub = await t.get(`/api/categories/${c.documentId}?populate=articles`);
    expect(pub.body.data.articles).toEqual([]);
  });
});
