// `localizations` in filters, sort and populate, compared with the reference Strapi 5.54: a filter
// or a sort through it reads the document's other locale versions (in the status of the read, as
// populate shows them); `populate[localizations]` honours its own filters, sort and fields, and a
// bad key inside it is reported under the `populate` parameter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';

let t: TestApp;
const ids: Record<string, number> = {};
let multi: string;
let single: string;
let frenchToo: string;

async function put(documentId: string, locale: string, title: string): Promise<number> {
  const r = await t.request('PUT', `/api/articles/${documentId}?locale=${locale}`, { body: { data: { title } } });
  if (r.status !== 200) throw new Error(`${r.status} ${r.text}`);
  return r.body.data.id;
}

beforeAll(async () => {
  t = await startTestApp();
  const a = await t.request('POST', '/api/articles', { body: { data: { title: 'Three locales' } } });
  multi = a.body.data.documentId;
  ids['en'] = a.body.data.id;
  ids['fr'] = await put(multi, 'fr', 'Trois langues');
  ids['de'] = await put(multi, 'de', 'Drei Sprachen');
  const b = await t.request('POST', '/api/articles', { body: { data: { title: 'English only' } } });
  single = b.body.data.documentId;
  // a German draft of the English-only document: not seen by published reads
  await t.request('PUT', `/api/articles/${single}?locale=de&status=draft`, { body: { data: { title: 'Nur Entwurf' } } });
  const c = await t.request('POST', '/api/articles', { body: { data: { title: 'Zed' } } });
  frenchToo = c.body.data.documentId;
  await put(frenchToo, 'fr', 'Alpha fr');
  // categories whose English and French names sort apart, linked from the English versions only
  for (const [doc, en, fr] of [
    [frenchToo, 'X en', 'A fr'],
    [multi, 'M en', 'N fr'],
  ] as const) {
    const cat = await t.request('POST', '/api/categories', { body: { data: { name: en } } });
    await t.request('PUT', `/api/categories/${cat.body.data.documentId}?locale=fr`, { body: { data: { name: fr } } });
    const linked = await t.request('PUT', `/api/articles/${doc}?locale=en`, { body: { data: { categories: { connect: [cat.body.data.documentId] } } } });
    if (linked.status !== 200) throw new Error(`${linked.status} ${linked.text}`);
  }
});
afterAll(async () => {
  await t.close();
});

const titles = async (q: string, sort = 'sort=id'): Promise<string[]> => {
  const r = await t.get(`/api/articles?fields[0]=title&${sort}&${q}`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data as { title: string }[]).map((d) => d.title);
};

describe('filters through localizations', () => {
  it('match documents by their other locale versions', async () => {
    expect(await titles('filters[localizations][locale]=fr')).toEqual(['Three locales', 'Zed']);
    expect(await titles('filters[localizations][title][$contains]=Sprachen')).toEqual(['Three locales']);
    expect(await titles('locale=fr&filters[localizations][locale][$in][0]=de')).toEqual(['Trois langues']);
    expect(await titles('filters[localizations][id]=' + ids['fr'])).toEqual(['Three locales']);
  });

  it('see the versions populate would show: the other locales, in the status of the read', async () => {
    // the row itself is no localization of itself
    expect(await titles('filters[localizations][locale]=en')).toEqual([]);
    expect(await titles('filters[localizations][$null]=true')).toEqual(['English only']);
    expect(await titles('filters[localizations][$notNull]=true')).toEqual(['Three locales', 'Zed']);
    // the draft read sees the German draft
    expect(await titles('status=draft&filters[localizations][locale]=de')).toEqual(['Three locales', 'English only']);
  });

  it('a type without locales has no localizations to filter by (refused at its own path, as Strapi refuses it)', async () => {
    const r = await t.get('/api/authors?filters[localizations][name]=x');
    expect(r.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key localizations',
        details: { key: 'localizations', path: 'localizations', source: 'query', param: 'filters' },
      },
    });
  });
});

describe('sort through localizations', () => {
  const sorted = (sort: string, q = ''): Promise<string[]> => titles(q, sort);

  it('orders by the smallest (asc) or largest (desc) value among the other locale versions; none sorts as no link', async () => {
    // Strapi 5.54 also counts the row itself and its drafts: Zed, Three locales, English only
    expect(await sorted('sort=localizations.title')).toEqual(['English only', 'Zed', 'Three locales']);
    expect(await sorted('sort[0][localizations][title]=asc')).toEqual(['English only', 'Zed', 'Three locales']);
    expect(await sorted('sort=localizations.title:desc')).toEqual(['Three locales', 'Zed', 'English only']);
    expect(await sorted('sort[localizations][title]=desc')).toEqual(['Three locales', 'Zed', 'English only']);
  });

  it('reads the versions in the status of the read, and never the read locale itself', async () => {
    expect(await sorted('sort=localizations.title:desc', 'status=draft')).toEqual(['Three locales', 'English only', 'Zed']);
    // in French, "Alpha fr" is the row itself: Zed is sorted by its English version
    expect(await sorted('sort=localizations.title', 'locale=fr')).toEqual(['Trois langues', 'Alpha fr']);
  });

  it('goes on past the localizations, from each of them', async () => {
    // Three locales: fr and de, whose own others are {en, de} and {en, fr}; Zed: fr, whose other is en
    expect(await sorted('sort=localizations.localizations.locale')).toEqual(['English only', 'Three locales', 'Zed']);
    expect(await sorted('sort=localizations.localizations.locale:desc', 'locale=fr')).toEqual(['Trois langues', 'Alpha fr']);
    // a relation of an English localization shows its English targets, also in a French read
    expect(await sorted('sort=localizations.categories.name', 'locale=fr')).toEqual(['Trois langues', 'Alpha fr']);
  });

  it('a bad name or direction after it is the error Strapi gives; a type without locales has none', async () => {
    const r = await t.get('/api/articles?sort=localizations.nope');
    expect(r.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key nope at localizations',
        details: { key: 'nope', path: 'localizations', source: 'query', param: 'sort' },
      },
    });
    // Strapi answers 500 here
    expect((await t.get('/api/articles?sort=localizations.title:up')).body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} },
    });
    expect((await t.get('/api/authors?sort=localizations.name')).body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key localizations',
        details: { key: 'localizations', path: 'localizations', source: 'query', param: 'sort' },
      },
    });
  });
});

describe('populate[localizations]', () => {
  const localizations = async (q: string): Promise<unknown> => {
    const r = await t.get(`/api/articles/${multi}?fields[0]=title&${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.data.localizations;
  };

  it('honours its sort and fields', async () => {
    expect(await localizations('populate[localizations][fields][0]=locale&populate[localizations][sort]=locale:desc')).toEqual([
      { id: ids['fr'], documentId: multi, locale: 'fr' },
      { id: ids['de'], documentId: multi, locale: 'de' },
    ]);
    expect(await localizations('populate[localizations][fields][0]=title&populate[localizations][sort][0]=title:asc')).toEqual([
      { id: ids['de'], documentId: multi, title: 'Drei Sprachen' },
      { id: ids['fr'], documentId: multi, title: 'Trois langues' },
    ]);
  });

  it('honours its filters', async () => {
    expect(await localizations('populate[localizations][fields][0]=locale&populate[localizations][filters][locale]=de')).toEqual([
      { id: ids['de'], documentId: multi, locale: 'de' },
    ]);
    expect(await localizations('populate[localizations][fields][0]=locale&populate[localizations][filters][title][$contains]=nothing')).toEqual([]);
  });

  it('costs the same statements for one document as for a page', async () => {
    const q = 'fields[0]=title&populate[localizations][fields][0]=locale&populate[localizations][sort]=locale&populate[localizations][filters][locale][$ne]=xx';
    const [one, page] = await statementCosts(t, [`/api/articles?pagination[pageSize]=1&${q}`, `/api/articles?pagination[pageSize]=10&${q}`]);
    expect(page).toBe(one);
  });

  it('a bad key in its fields, sort or filters is reported under populate, as in Strapi', async () => {
    for (const q of [
      'populate[localizations][fields][0]=nope',
      'populate[localizations][sort]=nope',
      'populate[localizations][filters][nope]=1',
      'populate[author][fields][0]=nope',
    ]) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.body, q).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'query', param: 'populate' } },
      });
    }
  });
});
