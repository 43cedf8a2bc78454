// Nested to-many populates multiply: one request may load at most 25,000 related rows and return at
// most 100,000 populated entries.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
const ARTICLES = 170;

beforeAll(async () => {
  t = await startTestApp();
  const cat = await t.request('POST', '/api/categories', { body: { data: { name: 'Everything' } } });
  expect(cat.status).toBe(201);
  for (let i = 0; i < ARTICLES; i++) {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: `Article ${i}`, categories: [cat.body.data.documentId] } } });
    expect(r.status).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
});

describe('populate budget', () => {
  it('a populate whose response would hold more than 100000 entries is a 400, though few rows are loaded', async () => {
    // 1 category → 170 articles → 1 category each → its 170 articles → 1 category each → its 170 articles: 170³ entries
    const r = await t.get('/api/categories?populate[articles][populate][categories][populate][articles][populate][categories][populate][articles]=true');
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      details: { source: 'query', param: 'populate' },
      message: 'This populate would return more than 100000 related entries in one request: narrow it with pagination, fields, filters or fewer populated levels',
    });
  });

  it('the same shape within the budget answers in full', async () => {
    const r = await t.get('/api/categories?populate[articles][populate][categories]=true');
    expect(r.status).toBe(200);
    const articles = r.body.data[0].articles as { categories: unknown[] }[];
    expect(articles).toHaveLength(ARTICLES);
    expect(articles.every((a) => a.categories.length === 1)).toBe(true);
    // filters narrow the deep level back under the budget
    const narrowed = await t.get('/api/categories?populate[articles][populate][categories][populate][articles][filters][title][$eq]=Article 7');
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.data[0].articles[0].categories[0].articles.map((a: { title: string }) => a.title)).toEqual(['Article 7']);
  });

  it('a populate that would load more than 25000 related rows is a 400 before it loads them', async () => {
    // 150 more categories, each linked (straight in the database, for speed) to every published article
    const cats: string[] = [];
    for (let i = 0; i < 150; i++) {
      const c = await t.request('POST', '/api/categories', { body: { data: { name: `Bulk ${i}` } } });
      cats.push(c.body.data.documentId);
    }
    const db = t.app.database.db;
    const published = await db.selectFrom('articles').select('id').where('published_at', 'is not', null).execute();
    const links = cats.flatMap((doc) => published.map((a, i) => ({ source_id: a.id, target_document_id: doc, target_locale: 'en', target_status: null, ord: 2, inv_ord: i + 1 })));
    for (let i = 0; i < links.length; i += 2000)
      await db
        .insertInto('articles_categories_lnk')
        .values(links.slice(i, i + 2000))
        .execute();
    // 100 categories × 170 articles = 17,000 rows, then 170 articles × 151 categories = 25,670 more
    const r = await t.get('/api/categories?populate[articles][populate][categories][fields][0]=name&pagination[pageSize]=100');
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      details: { source: 'query', param: 'populate' },
      message: 'This populate would load more than 25000 related entries in one request: narrow it with pagination, fields, filters or fewer populated levels',
    });
    // one level is 17,000 rows and entries: within both limits
    const one = await t.get('/api/categories?populate[articles][fields][0]=title&pagination[pageSize]=100');
    expect(one.status).toBe(200);
    expect(one.body.data).toHaveLength(100);
    expect(one.body.data.every((c: { articles: unknown[] }) => c.articles.length === 170)).toBe(true);
  });
});

describe('populate budget in text', () => {
  it('a populate whose related entries would be more than 32 MB of text is a 400, though they are few; one level of them answers', async () => {
    const cat = await t.request('POST', '/api/categories', { body: { data: { name: 'Long reads' } } });
    const long = 'x'.repeat(30_000);
    for (let i = 0; i < 40; i++) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: `Long ${i}`, legacyBody: long, categories: [cat.body.data.documentId] } } });
      expect(r.status).toBe(201);
    }
    const id = cat.body.data.documentId as string;
    // 40 articles → their category → its 40 articles: 1,640 entries, ~49 MB of text
    const r = await t.get(`/api/categories/${id}?populate[articles][populate][categories][populate][articles]=true`);
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe(
      'This populate would return more than 32 MB of related entries in one request: narrow it with pagination, fields, filters or fewer populated levels',
    );
    const one = await t.get(`/api/categories/${id}?populate[articles][populate][categories]=true`);
    expect(one.status).toBe(200);
    expect(one.body.data.articles).toHaveLength(40);
    // the same shape without the long field selected is small again
    const narrow = await t.get(`/api/categories/${id}?populate[articles][fields][0]=title&populate[articles][populate][categories][populate][articles][fields][0]=title`);
    expect(narrow.status).toBe(200);
  });
});
