import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

it("a new locale version gets its own localized components, not a copy of the other locale's", async () => {
  const en = await t.request('POST', '/api/articles', {
    body: { data: { title: 'EN', seo: { metaTitle: 'English meta' }, blocks: [{ __component: 'shared.rich-text', body: 'en' }] } },
  });
  expect(en.status, en.text).toBe(201);
  const id = en.body.data.documentId;
  const fr = await t.request('PUT', `/api/articles/${id}?locale=fr`, { body: { data: { title: 'FR', seo: { metaTitle: 'Méta' } } } });
  expect(fr.status, fr.text).toBe(200);
  const r = await t.get(`/api/articles/${id}?locale=fr&populate[0]=seo&populate[1]=blocks`);
  expect(r.body.data.seo).toMatchObject({ metaTitle: 'Méta' });
  expect(r.body.data.blocks).toEqual([]);
  const rows = await t.app.database.db.selectFrom('articles_cmps').select('id').where('field', '=', 'seo').execute();
  // one seo per row: en draft, en published, fr draft, fr published
  expect(rows).toHaveLength(4);
  const enAgain = await t.get(`/api/articles/${id}?populate=seo`);
  expect(enAgain.body.data.seo.metaTitle).toBe('English meta');
});
