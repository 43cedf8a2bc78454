// How filter and pagination values are read, decided case by case against the reference Strapi
// 5.54: numbers as JavaScript's Number() reads them, Strapi's pagination converters and their
// messages, a time without seconds refused. Where Folio stays stricter the README says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_REST, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  for (const [title, views, publishTime, isFeatured] of [
    ['Ten', 10, '09:30:00', true],
    ['Thousand', 1000, '10:00:00', false],
    ['Million', 1_000_000, '23:00:00.5', false],
  ] as const) {
    const r = await t.request('POST', '/api/articles', { body: { data: { title, views, publishTime, isFeatured } } });
    if (r.status !== 201) throw new Error(r.text);
  }
});
afterAll(async () => {
  await t.close();
});

async function titles(query: string): Promise<string[]> {
  const r = await t.get(`/api/articles?fields[0]=title&sort=views&${query}`);
  expect(r.status, `${query}: ${r.text}`).toBe(200);
  return r.body.data.map((a: { title: string }) => a.title);
}

async function error(query: string): Promise<unknown> {
  const r = await t.get(`/api/articles?${query}`);
  expect(r.status, query).toBe(400);
  return r.body;
}

const strapiError = (message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });

describe('numbers in filters', () => {
  it('integers in exponent or decimal notation, and with spaces around them', async () => {
    expect(await titles('filters[views][$gt]=1e2')).toEqual(['Thousand', 'Million']);
    expect(await titles('filters[views][$eq]=1E3')).toEqual(['Thousand']);
    expect(await titles('filters[views][$lt]=1000.0')).toEqual(['Ten']);
    expect(await titles('filters[views][$gte]=-1e1&filters[views][$lte]=%201e1%20')).toEqual(['Ten']);
    expect(await titles('filters[wordCount][$null]=true&filters[views][$in][0]=1e6')).toEqual(['Million']);
    const ten = await t.get('/api/articles?filters[views][$eq]=10');
    expect(await titles(`filters[id][$eq]=${ten.body.data[0].id}e0`)).toEqual(['Ten']);
  });

  it('a fraction, an empty value or no number against an integer is a 400 naming the field', async () => {
    for (const v of ['1000.5', '', 'abc', 'Infinity', '1e400']) {
      expect(await error(`filters[views][$gt]=${v}`), v).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `Invalid value "${v}" for views: expected an integer`, details: { source: 'query', param: 'filters' } },
      });
    }
  });
});

describe('booleans in filters', () => {
  it('true/false, t/f and 1/0', async () => {
    for (const v of ['true', 't', '1']) expect(await titles(`filters[isFeatured][$eq]=${v}`), v).toEqual(['Ten']);
    for (const v of ['false', 'f', '0']) expect(await titles(`filters[isFeatured][$eq]=${v}`), v).toEqual(['Thousand', 'Million']);
    expect(await titles('filters[publishTime][$null]=f')).toEqual(['Ten', 'Thousand', 'Million']);
  });

  it('anything else stays a 400, where Strapi takes JavaScript truthiness ("no" and "FALSE" would mean true)', async () => {
    for (const v of ['yes', 'no', 'FALSE', '']) {
      expect(await error(`filters[views][$notNull]=${v}`), v).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `Invalid value "${v}" for views: expected true or false`, details: { source: 'query', param: 'filters' } },
      });
    }
  });
});

describe('times in filters', () => {
  it("need seconds, as in Strapi, and a bad one is Strapi's message", async () => {
    expect(await titles('filters[publishTime][$lt]=10:00:00')).toEqual(['Ten']);
    expect(await titles('filters[publishTime][$gt]=23:00:00.4')).toEqual(['Million']);
    for (const v of ['10:00', '99:99', '1000', '10:00:00Z'])
      expect(await error(`filters[publishTime][$lt]=${v}`), v).toEqual(strapiError('Invalid time format, expected HH:mm:ss.SSS'));
  });
});

describe('dates and datetimes in filters', () => {
  it('a date takes the date part of a full ISO datetime, as Strapi does', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'Dated', publishDate: '2024-01-02', eventAt: '2024-01-02T10:00:00.000Z' } } });
    expect(r.status, r.text).toBe(201);
    try {
      expect(await titles('filters[publishDate][$eq]=2024-01-02T23:59:00Z')).toEqual(['Dated']);
      // any text after the date is dropped, as Strapi 5.54 reads it
      expect(await titles('filters[publishDate][$eq]=2024-01-02x')).toEqual(['Dated']);
      expect(await titles('filters[publishDate][$in][0]=2024-01-02%2010:00')).toEqual(['Dated']);
      expect(await titles('filters[eventAt][$eq]=1704189600000')).toEqual(['Dated']);
      expect(await titles('filters[eventAt][$gt]=2024-01-02%2009:00')).toEqual(['Dated']);
      // the forms date-fns' parseISO reads besides the extended one, compared with the reference Strapi 5.54:
      // a basic date, a week date, an ordinal date, a two-digit century
      expect(await titles('filters[eventAt][$gt]=20240103')).toEqual([]);
      expect(await titles('filters[eventAt][$gt]=2024-W01-3')).toEqual([]);
      expect(await titles('filters[eventAt][$lt]=2024-003')).toEqual(['Dated']);
      expect(await titles('filters[eventAt][$gte]=21')).toEqual([]);
    } finally {
      // the other tests count the three documents of beforeAll
      expect((await t.request('DELETE', `/api/articles/${r.body.data.documentId}`)).status).toBe(204);
    }
  });

  it("a bad one is Strapi's message, with details {}", async () => {
    for (const v of ['2024-13-45', 'yesterday', '20240102']) expect(await error(`filters[publishDate][$eq]=${v}`), v).toEqual(strapiError('Invalid format, expected yyyy-MM-dd'));
    expect(await error('filters[publishDate][$in][0]=2024-01-01&filters[publishDate][$in][1]=bad')).toEqual(strapiError('Invalid format, expected yyyy-MM-dd'));
    expect(await error('filters[publishDate][$eq]=2024-02-30')).toEqual(strapiError('Invalid date'));
    for (const v of ['notadate', 'Jan%201%202024'])
      expect(await error(`filters[eventAt][$gt]=${v}`), v).toEqual(strapiError('Invalid format, expected a timestamp or an ISO date'));
  });
});

describe('datetimes written', () => {
  it('a number is read as ISO text first (a year, a basic date), then as an epoch, and a fraction of a millisecond is dropped, as Strapi 5.54 reads them', async () => {
    const cases: [unknown, string][] = [
      [2024, '2024-01-01T00:00:00.000Z'],
      [20240601, '2024-06-01T00:00:00.000Z'],
      [1700000000000, '2023-11-14T22:13:20.000Z'],
      ['2024-06-01T10:00:00.9999Z', '2024-06-01T10:00:00.999Z'],
      ['2024-06-01T10:00:00.123Z', '2024-06-01T10:00:00.123Z'],
    ];
    for (const [eventAt, stored] of cases) {
      const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'When', eventAt } } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.data.eventAt, String(eventAt)).toBe(stored);
      // the other tests count the three documents of beforeAll
      expect((await t.request('DELETE', `/api/articles/${r.body.data.documentId}`)).status).toBe(204);
    }
  });
});

describe('pagination numbers, as Strapi converts them', () => {
  async function meta(query: string): Promise<unknown> {
    const r = await t.get(`/api/articles?fields[0]=title&${query}`);
    expect(r.status, `${query}: ${r.text}`).toBe(200);
    return r.body.meta.pagination;
  }

  it('exponent notation', async () => {
    expect(await meta('pagination[page]=1e0&pagination[pageSize]=2e0')).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[start]=1e0&pagination[limit]=1e1')).toEqual({ start: 1, limit: 10, total: 3 });
  });

  it('a pageSize or limit that is no number is the maximum; one beyond it or below 1 is clamped, fractions too', async () => {
    expect(await meta('pagination[pageSize]=abc')).toEqual({ page: 1, pageSize: 100, pageCount: 1, total: 3 });
    expect(await meta('pagination[limit]=abc')).toEqual({ start: 0, limit: 100, total: 3 });
    expect(await meta('pagination[pageSize]=1000.5')).toEqual({ page: 1, pageSize: 100, pageCount: 1, total: 3 });
    expect(await meta('pagination[pageSize]=0.5')).toEqual({ page: 1, pageSize: 1, pageCount: 3, total: 3 });
    expect(await meta('pagination[pageSize]=')).toEqual({ page: 1, pageSize: 1, pageCount: 3, total: 3 });
  });

  it('an empty or negative page or start is the first', async () => {
    expect(await meta('pagination[page]=&pagination[pageSize]=2')).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[page]=-1.5&pagination[pageSize]=2')).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[start]=-1.5&pagination[limit]=2')).toEqual({ start: 0, limit: 2, total: 3 });
  });

  it('a list of one number is that number, as Number() reads it (Strapi 5.54)', async () => {
    expect(await meta('pagination[page][0]=2&pagination[pageSize]=2')).toEqual({ page: 2, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[pageSize][0]=2')).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[start][0]=2&pagination[limit][0]=2')).toEqual({ start: 2, limit: 2, total: 3 });
  });

  it('a key without a value chooses the mode and is its default, but a limit beside a start is 0, so 1 (Strapi 5.54)', async () => {
    expect(await meta('pagination[pageSize]')).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
    expect(await meta('pagination[page]')).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
    expect(await meta('pagination[limit]')).toEqual({ start: 0, limit: 25, total: 3 });
    expect(await meta('pagination[start]')).toEqual({ start: 0, limit: 25, total: 3 });
    expect(await meta('pagination[pageSize]&pagination[page]=1')).toEqual({ page: 1, pageSize: 25, pageCount: 1, total: 3 });
    expect(await meta('pagination[page]&pagination[pageSize]=2')).toEqual({ page: 1, pageSize: 2, pageCount: 2, total: 3 });
    expect(await meta('pagination[start]&pagination[limit]=2')).toEqual({ start: 0, limit: 2, total: 3 });
    expect(await meta('pagination[start]&pagination[limit]')).toEqual({ start: 0, limit: 25, total: 3 });
    expect(await meta('pagination[limit]&pagination[start]=1')).toEqual({ start: 1, limit: 1, total: 3 });
  });

  it("fractions and pages that are no number are Strapi's 400s", async () => {
    expect(await error('pagination[page]=abc')).toEqual(strapiError('convertStartQueryParams expected a positive integer got NaN'));
    expect(await error('pagination[start]=abc')).toEqual(strapiError('convertStartQueryParams expected a positive integer got NaN'));
    expect(await error('pagination[page]=1.5')).toEqual(strapiError('convertStartQueryParams expected a positive integer got 12.5'));
    expect(await error('pagination[start]=1.5')).toEqual(strapiError('convertStartQueryParams expected a positive integer got 1.5'));
    expect(await error('pagination[pageSize]=2.5')).toEqual(strapiError('convertLimitQueryParams expected a positive integer got 2.5'));
    expect(await error('pagination[limit]=1.5')).toEqual(strapiError('convertLimitQueryParams expected a positive integer got 1.5'));
    expect(await error('pagination[page]=Infinity')).toEqual(strapiError('convertStartQueryParams expected a positive integer got Infinity'));
    expect(await error('pagination[page][0]=1&pagination[page][1]=2')).toEqual(strapiError('convertStartQueryParams expected a positive integer got NaN'));
  });

  it('without a configured maximum, a pageSize that is no number is a 400', async () => {
    const open = await startTestApp({ rest: { ...TEST_REST, maxLimit: null } });
    try {
      const r = await open.get('/api/articles?pagination[pageSize]=abc');
      expect(r.status).toBe(400);
      expect(r.body).toEqual(strapiError('convertLimitQueryParams expected a positive integer got NaN'));
    } finally {
      await open.close();
    }
  });
});
