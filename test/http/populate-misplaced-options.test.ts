// An entry's option names (`fields`, `sort`, `filters`, `populate`, `count`) written where attribute names go
// — a front end's `populate: { image: { populate: { fields: [...] } } }` — are checked as the options they
// name and then left out, as Strapi 5.54 does: the entry is populated as if they weren't there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const cat = await t.request('POST', '/api/categories', { body: { data: { name: 'Cedar', slug: 'cedar' } } });
  const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'one' } } });
  const article = await t.request('POST', '/api/articles', {
    body: { data: { title: 'First', categories: [cat.body.data.documentId], tags: [tag.body.data.documentId], seo: { metaTitle: 'Meta', metaDescription: 'About it' } } },
  });
  expect(article.status).toBe(201);
});
afterAll(async () => {
  await t.close();
});

const LIST = '/api/articles?fields[0]=title';

describe('option names among populated attributes', () => {
  it.each([
    ['fields', 'populate[categories][populate][fields][0]=name'],
    ['count', 'populate[categories][populate][count]=true'],
    ['sort', 'populate[categories][populate][sort]=name'],
    ['filters', 'populate[categories][populate][filters][name][$eq]=nothing'],
    ['populate', 'populate[categories][populate][populate][articles]=true'],
  ])('a relation whose populate names %s is populated in full, as without it', async (_, query) => {
    const plain = await t.get(`${LIST}&populate[categories]=true`);
    const r = await t.get(`${LIST}&${query}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual(plain.body);
    expect(Object.keys(r.body.data[0].categories[0])).toContain('slug');
  });

  it('a component and a deeper level take them the same way, beside real attributes', async () => {
    const r = await t.get(`${LIST}&populate[seo][populate][fields][0]=metaTitle&populate[seo][populate][openGraph]=true`);
    expect(r.status).toBe(200);
    expect(r.body.data[0].seo).toMatchObject({ metaTitle: 'Meta', metaDescription: 'About it', openGraph: null });
    const deep = await t.get(`${LIST}&populate[categories][populate][articles][populate][fields][0]=slug`);
    expect(deep.status).toBe(200);
    expect(deep.body.data[0].categories[0].articles[0].title).toBe('First');
  });

  it('at the top level they are left out too', async () => {
    const plain = await t.get(LIST);
    for (const query of ['populate[fields][0]=title', 'populate[count]=true', 'populate[sort]=title', 'populate[filters][title][$eq]=x']) {
      const r = await t.get(`${LIST}&${query}`);
      expect(r.status).toBe(200);
      expect(r.body).toEqual(plain.body);
    }
  });

  it.each([
    // the answers of Strapi 5.54, message and details alike
    ['populate[fields][0]=nope', 'Invalid key nope', 'nope', null],
    ['populate[sort]=nope', 'Invalid key nope', 'nope', null],
    ['populate[filters][nope]=1', 'Invalid key nope', 'nope', null],
    ['populate[count]=zz', 'Invalid key count', 'count', null],
    ['populate[populate]=zz', 'Invalid key zz', 'zz', 'zz'],
    ['populate[categories][populate][fields][0]=nope', 'Invalid key nope', 'nope', null],
    ['populate[categories][populate][count]=zz', 'Invalid key count at categories', 'count', 'categories'],
    ['populate[categories][populate][populate][nope]=true', 'Invalid key nope at categories', 'nope', 'categories'],
  ])('%s is checked as the option it names: 400 %s', async (query, message, key, path) => {
    const r = await t.get(`${LIST}&${query}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message, details: { key, path, source: 'query', param: 'populate' } });
  });

  it('a private attribute named there is refused as it is in the option itself', async () => {
    for (const option of ['fields[0]=internalNotes', 'sort=internalNotes', 'filters[internalNotes][$eq]=x']) {
      const misplaced = await t.get(`${LIST}&populate[${option.replace(/^(\w+)/, '$1]')}`);
      const inEntry = await t.get(`${LIST}&populate[related][${option.replace(/^(\w+)/, '$1]')}`);
      expect(misplaced.status, option).toBe(400);
      expect(misplaced.body.error.message).toBe(inEntry.body.error.message);
    }
  });

  it('any other name that is no attribute is still refused', async () => {
    const r = await t.get(`${LIST}&populate[categories][populate][zz]=true`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Invalid key zz at categories');
  });
});
