import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_REST, writeDocument, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';

let t: TestApp;
const doc: Record<string, string> = {};

async function create(plural: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', `/api/${plural}`, { body: { data } });
  if (r.status !== 201) throw new Error(`${plural}: ${r.status} ${r.text}`);
  return r.body.data.documentId;
}

beforeAll(async () => {
  t = await startTestApp();
  doc['red'] = await create('tags', { label: 'Red', color: '#ff0000' });
  doc['blue'] = await create('tags', { label: 'blue', color: '#0000ff' });
  doc['green'] = await create('tags', { label: 'Grün', color: null });
  doc['ada'] = await create('authors', { name: 'Ada', age: 36 });
  doc['bob'] = await create('authors', { name: 'Bob', age: 52 });
  doc['a1'] = await create('articles', {
    title: 'Éclair recipes',
    views: 10,
    rating: 4.5,
    isFeatured: true,
    publishDate: '2025-01-10',
    eventAt: '2025-01-10T10:00:00.000Z',
    author: doc['ada'],
    tags: [doc['red'], doc['blue']],
  });
  doc['a2'] = await create('articles', {
    title: 'éclair history',
    views: 20,
    rating: 3.25,
    isFeatured: false,
    publishDate: '2025-02-10',
    eventAt: '2025-02-10T10:00:00.000Z',
    author: doc['bob'],
    tags: [doc['red']],
  });
  doc['a3'] = await create('articles', {
    title: 'Plain 100% text_',
    views: 30,
    isFeatured: false,
    publishDate: '2025-03-10',
    author: doc['ada'],
    tags: [doc['red'], doc['blue'], doc['green']],
  });
  doc['a4'] = await create('articles', { title: 'Nothing', views: 40 });
});
afterAll(async () => {
  await t.close();
});

async function titles(query: string): Promise<string[]> {
  const r = await t.get(`/api/articles?${query}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.map((a: { title: string }) => a.title);
}

describe('filters', () => {
  it('$eq is case-sensitive and $eqi is not, also for non-ASCII letters', async () => {
    expect(await titles('filters[title][$eq]=éclair history')).toEqual(['éclair history']);
    expect(await titles('filters[title][$eq]=Éclair history')).toEqual([]);
    expect(await titles('filters[title][$eqi]=ÉCLAIR HISTORY')).toEqual(['éclair history']);
  });

  it('each case-insensitive operator finds the row holding exactly the text searched, for letters JavaScript lower-cases otherwise than PostgreSQL and MySQL (final Σ, İ)', async () => {
    await create('authors', { name: 'ΟΔΟΣ' });
    await create('authors', { name: 'İZMİR' });
    const names = async (query: string): Promise<string[]> => {
      const r = await t.get(`/api/authors?fields[0]=name&${query}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return r.body.data.map((a: { name: string }) => a.name);
    };
    for (const q of ['filters[name][$eqi]=ΟΔΟΣ', 'filters[name][$containsi]=ΔΟΣ', 'filters[name][$endsWithi]=ΟΣ', '_q=ΟΔΟΣ']) expect(await names(q), q).toContain('ΟΔΟΣ');
    for (const q of ['filters[name][$eqi]=İZMİR', 'filters[name][$startsWithi]=İZ', 'filters[name][$containsi]=ZMİ', '_q=İZMİR']) expect(await names(q), q).toContain('İZMİR');
    expect(await names('filters[name][$nei]=ΟΔΟΣ')).not.toContain('ΟΔΟΣ');
    expect(await names('filters[name][$notContainsi]=İZM')).not.toContain('İZMİR');
  });

  it('$contains is case-sensitive and $containsi folds case including É/é', async () => {
    expect(await titles('filters[title][$contains]=clair')).toEqual(['Éclair recipes', 'éclair history']);
    expect(await titles('filters[title][$contains]=Éclair')).toEqual(['Éclair recipes']);
    expect(await titles('filters[title][$containsi]=ÉCLAIR')).toEqual(['Éclair recipes', 'éclair history']);
    expect(await titles('filters[title][$notContainsi]=éclair')).toEqual(['Plain 100% text_', 'Nothing']);
  });

  it('$startsWith/$endsWith and their i variants; % and _ are literal', async () => {
    expect(await titles('filters[title][$startsWith]=é')).toEqual(['éclair history']);
    expect(await titles('filters[title][$startsWithi]=é')).toEqual(['Éclair recipes', 'éclair history']);
    expect(await titles('filters[title][$endsWith]=text_')).toEqual(['Plain 100% text_']);
    expect(await titles('filters[title][$contains]=100%25')).toEqual(['Plain 100% text_']);
    expect(await titles('filters[title][$endsWithi]=RECIPES')).toEqual(['Éclair recipes']);
  });

  it('comparisons, $in, $notIn, $between, $ne on numbers, dates and booleans', async () => {
    expect(await titles('filters[views][$gt]=20')).toEqual(['Plain 100% text_', 'Nothing']);
    expect(await titles('filters[views][$lte]=20')).toEqual(['Éclair recipes', 'éclair history']);
    expect(await titles('filters[views][$in][0]=10&filters[views][$in][1]=40')).toEqual(['Éclair recipes', 'Nothing']);
    expect(await titles('filters[views][$in]=30')).toEqual(['Plain 100% text_']);
    expect(await titles('filters[views][$notIn][0]=10')).toEqual(['éclair history', 'Plain 100% text_', 'Nothing']);
    expect(await titles('filters[views][$between][0]=15&filters[views][$between][1]=30')).toEqual(['éclair history', 'Plain 100% text_']);
    expect(await titles('filters[publishDate][$gte]=2025-02-01')).toEqual(['éclair history', 'Plain 100% text_']);
    expect(await titles('filters[eventAt][$lt]=2025-02-01T00:00:00.000Z')).toEqual(['Éclair recipes']);
    expect(await titles('filters[isFeatured][$eq]=true')).toEqual(['Éclair recipes']);
    expect(await titles('filters[rating][$gt]=4')).toEqual(['Éclair recipes']);
    expect(await titles('filters[views][$ne]=10')).toEqual(['éclair history', 'Plain 100% text_', 'Nothing']);
  });

  it('$null and $notNull take true/false', async () => {
    expect(await titles('filters[publishDate][$null]=true')).toEqual(['Nothing']);
    expect(await titles('filters[publishDate][$null]=false')).toEqual(['Éclair recipes', 'éclair history', 'Plain 100% text_']);
    expect(await titles('filters[publishDate][$notNull]=true')).toEqual(['Éclair recipes', 'éclair history', 'Plain 100% text_']);
  });

  it('$and, $or and $not nest at any depth; several fields are an implicit $and', async () => {
    expect(await titles('filters[$or][0][views]=10&filters[$or][1][views]=40')).toEqual(['Éclair recipes', 'Nothing']);
    expect(await titles('filters[$and][0][$or][0][views]=10&filters[$and][0][$or][1][views]=20&filters[$and][1][$not][title][$startsWith]=é')).toEqual(['Éclair recipes']);
    expect(await titles('filters[views][$gte]=20&filters[isFeatured]=false')).toEqual(['éclair history', 'Plain 100% text_', 'Nothing']);
    expect(await titles('filters[title][$not][$containsi]=éclair')).toEqual(['Plain 100% text_', 'Nothing']);
  });

  it('deep filters through relations from both sides, including documentId', async () => {
    expect(await titles('filters[author][name][$eq]=Ada')).toEqual(['Éclair recipes', 'Plain 100% text_']);
    expect(await titles(`filters[author][documentId][$eq]=${doc['bob']}`)).toEqual(['éclair history']);
    expect(await titles('filters[tags][label][$eq]=blue')).toEqual(['Éclair recipes', 'Plain 100% text_']);
    const authors = await t.get('/api/authors?filters[articles][views][$gte]=30');
    expect(authors.body.data.map((a: { name: string }) => a.name)).toEqual(['Ada']);
  });

  it('a filter through a relation does not populate it; populate beside it returns the whole relation', async () => {
    const r = await t.get('/api/articles?filters[tags][label][$eq]=blue&sort=views&fields[0]=title');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data).toEqual([
      { id: expect.any(Number), documentId: doc['a1'], title: 'Éclair recipes' },
      { id: expect.any(Number), documentId: doc['a3'], title: 'Plain 100% text_' },
    ]);
    const populated = await t.get('/api/articles?filters[tags][label][$eq]=blue&sort=views&fields[0]=title&populate[tags][fields][0]=label');
    // the filter picks the articles; the populated list still holds every tag of each, not only the matching one
    expect(populated.body.data.map((a: { tags: { label: string }[] }) => a.tags.map((x) => x.label))).toEqual([
      ['Red', 'blue'],
      ['Red', 'blue', 'Grün'],
    ]);
  });

  it('a dynamic zone cannot be filtered on: Invalid key at the zone, as for any polymorphic structure', async () => {
    for (const q of ['filters[blocks][title][$eq]=Q', 'filters[blocks][__component][$eq]=shared.quote', 'filters[blocks][$null]=true', 'filters[$or][0][blocks][id][$eq]=1']) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Invalid key blocks', details: { key: 'blocks', path: 'blocks', source: 'query', param: 'filters' } },
      });
    }
  });

  it('totals count documents when a to-many filter matches several related rows', async () => {
    const r = await t.get('/api/articles?filters[tags][label][$in][0]=Red&filters[tags][label][$in][1]=blue&pagination[pageSize]=1');
    expect(r.body.meta.pagination).toEqual({ page: 1, pageSize: 1, pageCount: 3, total: 3 });
    const seen = new Set<string>();
    for (let page = 1; page <= 3; page++) {
      const p = await t.get(`/api/articles?filters[tags][label][$in][0]=Red&filters[tags][label][$in][1]=blue&pagination[pageSize]=1&pagination[page]=${page}`);
      seen.add(p.body.data[0].documentId);
    }
    expect(seen.size).toBe(3);
    const or = await t.get('/api/articles?filters[$or][0][tags][label]=Red&filters[$or][1][author][name]=Ada');
    expect(or.body.meta.pagination.total).toBe(3);
  });
});

describe('private stays private', () => {
  it('private attributes and passwords cannot be filtered, sorted or selected, at any depth', async () => {
    const cases: [string, string][] = [
      ['filters[internalNotes][$eq]=x', 'Invalid key internalNotes'],
      ['filters[editor][password][$startsWith]=$2', 'Invalid key password at editor.password'],
      ['filters[$or][0][editor][resetPasswordToken][$null]=false', 'Invalid key resetPasswordToken at editor.resetPasswordToken'],
      ['filters[editor][t1.password][$eq]=x', 'Invalid key t1.password at editor'],
      ['sort=internalNotes', 'Invalid key internalNotes'],
      ['fields[0]=internalNotes', 'Invalid key internalNotes'],
    ];
    for (const [q, message] of cases) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
      expect(r.body.error.message, q).toBe(message);
    }
  });

  it('a probe of a secret gets the same answer whatever the secret', async () => {
    const a = await t.get('/api/articles?filters[editor][password][$startsWith]=$2');
    const b = await t.get('/api/articles?filters[editor][password][$startsWith]=$9');
    expect(a.status).toBe(b.status);
    expect(a.body).toEqual(b.body);
  });
});

describe('malformed queries are 400, never 500', () => {
  it.each([
    'filters[views][$between]=1',
    'filters[$or][label]=x',
    'filters[$eq]=x',
    'fields=',
    'filters[views][$foo]=1',
    'filters[title][$eq][a]=b',
    'filters=abc',
    'sort=nope',
    'sort=title:sideways',
    'pagination[page]=abc',
    'pagination[page]=1&pagination[start]=0',
    'pagination[withCount]=maybe',
    'status=bogus',
    'locale=xx',
    'publicationFilter=whatever',
    'populate=nope',
    'populate[tags][status]=draft',
    'populate[tags][pageSize]=2',
  ])('%s', async (q) => {
    const r = await t.get(`/api/articles?${q}`);
    expect(r.status).toBe(400);
    expect(r.body.data).toBeNull();
    expect(r.body.error.status).toBe(400);
  });

  it("fields that is no list of names, or names nothing, gets Strapi 5.54's body", async () => {
    const shape = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid fields parameter. Expected a string or an array of strings', details: {} } };
    const empty = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key ', details: { key: '', path: null, source: 'query', param: 'fields' } } };
    const cases: [string, unknown][] = [
      ['fields[x]=title', shape],
      ['fields[0]=title&fields[1][x]=views', shape],
      ['populate[tags][fields][x]=label', shape],
      ['fields[0]=title&fields[1]=', empty],
      ['fields=title,', empty],
      ['fields=,', empty],
      // a list entry naming several attributes: each name checked, then the list refused
      ['fields[0]=title,slug', shape],
      ['fields[0]=title&fields[1]=slug,summary', shape],
      ['populate[author][fields][0]=name,email', shape],
      ['fields[0]=title,', empty],
      [
        'fields[0]=nope,slug',
        { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key nope', details: { key: 'nope', path: null, source: 'query', param: 'fields' } } },
      ],
    ];
    for (const [q, body] of cases) expect((await t.get(`/api/articles?${q}`)).body, q).toEqual(body);
  });

  it("filters that is no object or list, empty included, gets Strapi 5.54's body on every list and findOne; empty inside a populate is no filter", async () => {
    const body = { data: null, error: { status: 400, name: 'ValidationError', message: 'The filters parameter must be an object or an array', details: {} } };
    const one = (await t.get('/api/articles?pagination[pageSize]=1')).body.data[0].documentId as string;
    for (const path of [
      '/api/articles?filters=',
      '/api/articles?filters=abc',
      `/api/articles/${one}?filters=`,
      '/api/users?filters=',
      '/api/upload/files?filters=',
      '/api/upload/files/page?filters=',
    ])
      expect((await t.get(path)).body, path).toEqual(body);
    const populated = await t.get('/api/articles?populate[tags][filters]=&pagination[pageSize]=1');
    expect(populated.status, populated.text).toBe(200);
  });

  it('__proto__ keys pollute nothing', async () => {
    const r = await t.get('/api/articles?filters[__proto__][polluted]=1&__proto__[x]=1');
    expect([200, 400]).toContain(r.status);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });
});

describe('sort, pagination and fields', () => {
  it('sort forms: field, :desc, arrays, comma lists, object, through a relation', async () => {
    expect(await titles('sort=views:desc')).toEqual(['Nothing', 'Plain 100% text_', 'éclair history', 'Éclair recipes']);
    expect(await titles('sort[0]=isFeatured:desc&sort[1]=views:desc')).toEqual(['Éclair recipes', 'Nothing', 'Plain 100% text_', 'éclair history']);
    expect(await titles('sort=isFeatured:desc,views:asc')).toEqual(['Éclair recipes', 'éclair history', 'Plain 100% text_', 'Nothing']);
    expect(await titles('sort[views]=desc')).toEqual(['Nothing', 'Plain 100% text_', 'éclair history', 'Éclair recipes']);
    expect(await titles('sort=author.name:desc&filters[author][id][$notNull]=true')).toEqual(['éclair history', 'Éclair recipes', 'Plain 100% text_']);
  });

  it('pagination clamps out-of-range numbers and reports the effective values', async () => {
    expect((await t.get('/api/articles?pagination[pageSize]=1000')).body.meta.pagination).toEqual({ page: 1, pageSize: 100, pageCount: 1, total: 4 });
    expect((await t.get('/api/articles?pagination[page]=0&pagination[pageSize]=2')).body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 4 });
    expect((await t.get('/api/articles?pagination[start]=1&pagination[limit]=2')).body.meta.pagination).toEqual({ start: 1, limit: 2, total: 4 });
    expect((await t.get('/api/articles?pagination[limit]=1000')).body.meta.pagination).toEqual({ start: 0, limit: 100, total: 4 });
    expect((await t.get('/api/articles?pagination[start]=1')).body.meta.pagination).toEqual({ start: 1, limit: 25, total: 4 });
    expect((await t.get('/api/articles?pagination[withCount]=false')).body.meta.pagination).toEqual({ page: 1, pageSize: 25 });
    expect((await t.get('/api/articles?pagination[start]=1&pagination[limit]=2&pagination[withCount]=false')).body.meta.pagination).toEqual({ start: 1, limit: 2 });
    const mixed = await t.get('/api/articles?pagination[page]=1&pagination[limit]=2');
    expect(mixed.body.error).toEqual({ status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} });
  });

  it('fields selects scalars; id and documentId always come back', async () => {
    const r = await t.get('/api/articles?fields[0]=title&sort=views&pagination[pageSize]=1');
    expect(r.body.data).toEqual([{ id: expect.any(Number), documentId: doc['a1'], title: 'Éclair recipes' }]);
    const bad = await t.get('/api/articles?fields[0]=tags');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid key tags');
  });

  it('a filtered, sorted list pages in sort order with the total of all matches on every page', async () => {
    const q = 'filters[views][$gte]=20&sort=views:desc&pagination[pageSize]=2';
    const p1 = await t.get(`/api/articles?${q}&pagination[page]=1`);
    expect(p1.body.data.map((a: { title: string }) => a.title)).toEqual(['Nothing', 'Plain 100% text_']);
    expect(p1.body.meta.pagination).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    const p2 = await t.get(`/api/articles?${q}&pagination[page]=2`);
    expect(p2.body.data.map((a: { title: string }) => a.title)).toEqual(['éclair history']);
    expect(p2.body.meta.pagination).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
    // every field of the rows is there, not only what the page was ordered by
    expect(p2.body.data[0]).toMatchObject({ documentId: doc['a2'], views: 20, rating: 3.25, isFeatured: false, publishDate: '2025-02-10' });
  });

  it('a filtered list asked past its last page is empty and still gives the total', async () => {
    const r = await t.get('/api/articles?filters[views][$gte]=20&pagination[page]=5&pagination[pageSize]=2');
    expect(r.body.data).toEqual([]);
    expect(r.body.meta.pagination).toEqual({ page: 5, pageSize: 2, pageCount: 2, total: 3 });
    const offset = await t.get('/api/articles?filters[tags][label][$eq]=Red&pagination[start]=10&pagination[limit]=2');
    expect(offset.body.data).toEqual([]);
    expect(offset.body.meta.pagination).toEqual({ start: 10, limit: 2, total: 3 });
  });

  it('a filter that matches nothing gives total 0', async () => {
    const r = await t.get('/api/articles?filters[views][$gt]=1000&sort=title');
    expect(r.body).toEqual({ data: [], meta: { pagination: { page: 1, pageSize: 25, pageCount: 0, total: 0 } } });
  });

  it('a filtered, sorted, counted list runs the same statements for 1 and 4 results', async () => {
    const [one, four] = await statementCosts(t, [
      '/api/articles?filters[tags][label][$eq]=Red&sort=views&pagination[pageSize]=1',
      '/api/articles?filters[tags][label][$eq]=Red&sort=views&pagination[pageSize]=4',
    ]);
    expect(four).toBe(one);
  });
});

describe('lists and parameters past Strapi query-string limits', () => {
  const titlesOf = async (q: string): Promise<string[]> => {
    const r = await t.get(`/api/articles?fields[0]=title&sort=title&${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.data.map((d: { title: string }) => d.title);
  };

  it('$in, $notIn and $or take more than 100 entries as the list they are (Strapi drops such a filter and lists everything)', async () => {
    const ids = Array.from({ length: 150 }, (_, i) => `filters[documentId][$in][${i}]=${i === 149 ? doc['a1'] : `none-${i}`}`).join('&');
    expect(await titlesOf(ids)).toEqual(['Éclair recipes']);
    const bracketed = Array.from({ length: 150 }, (_, i) => `filters[documentId][$in][]=${i === 0 ? doc['a2'] : `none-${i}`}`).join('&');
    expect(await titlesOf(bracketed)).toEqual(['éclair history']);
    const or = Array.from({ length: 120 }, (_, i) => `filters[$or][${i}][documentId]=${i === 119 ? doc['a1'] : `none-${i}`}`).join('&');
    expect(await titlesOf(or)).toEqual(['Éclair recipes']);
    expect(await titlesOf(`filters[documentId][$in][150]=${doc['a2']}`)).toEqual(['éclair history']);
  });

  it('a list index or a parameter count past 1,000 is a 400 naming the limit, not a list cut short', async () => {
    expect((await t.get(`/api/articles?filters[documentId][$in][1000]=${doc['a1']}`)).body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Array limit exceeded. Only 1000 elements allowed in an array.', details: {} },
    });
    const many = Array.from({ length: 1001 }, () => 'x=1').join('&');
    const tooMany = { data: null, error: { status: 400, name: 'ValidationError', message: 'Parameter limit exceeded. Only 1000 parameters allowed.', details: {} } };
    expect((await t.get(`/api/articles?${many}`)).body).toEqual(tooMany);
    const form = await t.request('POST', '/api/tags', { body: many, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(form.body).toEqual(tooMany);
    // the server still answers
    expect((await t.get('/api/tags')).status).toBe(200);
  });

  it('the limits follow the strapi::query middleware: raised, a list past 1,000 filters; lowered, a shorter one is refused', async () => {
    const raised = await startTestApp({ rest: { ...TEST_REST, queryLimits: { arrayLimit: 2000, parameterLimit: 2000, depth: 20 } } });
    const lowered = await startTestApp({ rest: { ...TEST_REST, queryLimits: { arrayLimit: 10, parameterLimit: 20, depth: 20 } } });
    try {
      const a = await writeDocument(raised, 'POST', '/api/articles', { title: 'Far in the list' });
      const far = await raised.get(`/api/articles?filters[documentId][$in][1500]=${a}&fields[0]=title&status=draft`);
      expect(far.status, far.text).toBe(200);
      expect(far.body.data.map((d: { title: string }) => d.title)).toEqual(['Far in the list']);
      const many = Array.from({ length: 1500 }, () => 'x=1').join('&');
      // 1,500 parameters are under the raised limit: an unknown top-level parameter is ignored, as without strictParams
      expect((await raised.get(`/api/articles?${many}`)).status).toBe(200);
      expect((await lowered.get('/api/articles?filters[id][$in][11]=1')).body).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: 'Array limit exceeded. Only 10 elements allowed in an array.', details: {} },
      });
      const form = await lowered.request('POST', '/api/tags', {
        body: Array.from({ length: 21 }, () => 'x=1').join('&'),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.body.error.message).toBe('Parameter limit exceeded. Only 20 parameters allowed.');
    } finally {
      await raised.close();
      await lowered.close();
    }
  });
});
