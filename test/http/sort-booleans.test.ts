// `sort` through a relation or a repeatable component by a boolean: the largest value reached
// (descending) or the smallest (ascending), true above false, as for other fields. PostgreSQL has no
// min()/max() of booleans: these were a 500 there.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const titles = async (q: string): Promise<string[]> => {
  const r = await t.get(`/api/articles?fields[0]=title&filters[title][$startsWith]=sb &${q}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data.map((d: { title: string }) => d.title);
};

it('through a relation to many: true above false; a document reaching none has no value (first ascending, last descending)', async () => {
  const yes = await writeDocument(t, 'POST', '/api/articles', { title: 'featured', isFeatured: true });
  const no = await writeDocument(t, 'POST', '/api/articles', { title: 'plain', isFeatured: false });
  await writeDocument(t, 'POST', '/api/articles', { title: 'sb A', related: [yes] });
  await writeDocument(t, 'POST', '/api/articles', { title: 'sb B', related: [no] });
  await writeDocument(t, 'POST', '/api/articles', { title: 'sb C' });
  await writeDocument(t, 'POST', '/api/articles', { title: 'sb D', related: [yes, no] });
  expect(await titles('sort=related.isFeatured:desc')).toEqual(['sb A', 'sb D', 'sb B', 'sb C']);
  expect(await titles('sort=related.isFeatured:asc')).toEqual(['sb C', 'sb B', 'sb D', 'sb A']);
  expect(await titles('sort[0][related][isFeatured]=desc')).toEqual(['sb A', 'sb D', 'sb B', 'sb C']);
  // two to-many steps are refused (sort-paths.test.ts)
  expect((await t.get('/api/articles?sort=related.related.isFeatured:desc')).status).toBe(400);
  expect((await t.get('/api/categories?sort=articles.isFeatured:asc&fields[0]=name')).status).toBe(200);
});

it('through a repeatable component', async () => {
  const names = async (q: string): Promise<string[]> => {
    const r = await t.get(`/api/authors?fields[0]=name&filters[name][$startsWith]=sb &${q}`);
    expect(r.status, r.text).toBe(200);
    return r.body.data.map((d: { name: string }) => d.name);
  };
  await writeDocument(t, 'POST', '/api/authors', { name: 'sb new tab', links: [{ label: 'a', url: 'https://a.example', newTab: true }] });
  await writeDocument(t, 'POST', '/api/authors', { name: 'sb same tab', links: [{ label: 'b', url: 'https://b.example', newTab: false }] });
  expect(await names('sort=links.newTab:desc')).toEqual(['sb new tab', 'sb same tab']);
  expect(await names('sort=links.newTab:asc')).toEqual(['sb same tab', 'sb new tab']);
});
