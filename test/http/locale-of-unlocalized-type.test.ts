// Every Strapi 5 type has a locale column; on a type without locales (the example's authors) Strapi 5.54
// refuses `locale` as it refuses a hidden field: named at its own path, in fields, filters, sort and populate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const refused = (param: string) => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: 'Invalid key locale', details: { key: 'locale', path: 'locale', source: 'query', param } },
});

describe('locale of a type without locales', () => {
  it('is refused at its own path wherever a query names it', async () => {
    expect((await t.get('/api/authors?fields[0]=locale')).body).toEqual(refused('fields'));
    expect((await t.get('/api/authors?filters[locale][$eq]=en')).body).toEqual(refused('filters'));
    expect((await t.get('/api/authors?filters[locale]=en')).body).toEqual(refused('filters'));
    expect((await t.get('/api/authors?sort=locale')).body).toEqual(refused('sort'));
    // a direction or a name after it doesn't take the error deeper, as after a relation
    expect((await t.get('/api/authors?sort=locale:desc')).body).toEqual(refused('sort'));
    expect((await t.get('/api/authors?sort=locale.x')).body).toEqual(refused('sort'));
    expect((await t.get('/api/authors?populate[locale]=true')).body).toEqual(refused('populate'));
    expect((await t.get('/api/authors?populate=locale')).body).toEqual(refused('populate'));
  });

  it('below a relation too (the populated author of an article)', async () => {
    expect((await t.get('/api/articles?populate[author][fields][0]=locale')).body).toEqual(refused('populate'));
  });

  it('stays a field of a localized type', async () => {
    const r = await t.get('/api/articles?fields[0]=locale&filters[locale][$eq]=en&sort=locale');
    expect(r.status, r.text).toBe(200);
  });
});
