// uid attributes are unique as Strapi 5 holds them: among the published versions of one locale
// (drafts are not checked, an empty value is not held to it), also when writers race.
// Bodies compared with the reference Strapi 5.54.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

function duplicate(path: string, value: string): unknown {
  const error = { path: [path], message: 'This attribute must be unique', name: 'ValidationError', value };
  return { data: null, error: { status: 400, name: 'ValidationError', message: 'This attribute must be unique', details: { errors: [error] } } };
}

describe('uid attributes are unique', () => {
  it('a second published article with the same slug is 400 "This attribute must be unique" on slug', async () => {
    const first = await t.request('POST', '/api/articles', { body: { data: { title: 'One', slug: 'same-slug' } } });
    expect(first.status, first.text).toBe(201);
    const second = await t.request('POST', '/api/articles', { body: { data: { title: 'Two', slug: 'same-slug' } } });
    expect(second.status).toBe(400);
    expect(second.body).toEqual(duplicate('slug', 'same-slug'));
  });

  it('a draft may share a published slug; publishing it is then refused, and an update keeping its own slug is not', async () => {
    await t.request('POST', '/api/articles', { body: { data: { title: 'Live', slug: 'draft-slug' } } });
    const draft = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'Draft', slug: 'draft-slug' } } });
    expect(draft.status, draft.text).toBe(201);
    const id = draft.body.data.documentId as string;
    const publish = await t.request('PUT', `/api/articles/${id}?status=published`, { body: { data: { title: 'Draft again' } } });
    expect(publish.status).toBe(400);
    expect(publish.body).toEqual(duplicate('slug', 'draft-slug'));
    const renamed = await t.request('PUT', `/api/articles/${id}?status=published`, { body: { data: { slug: 'own-slug' } } });
    expect(renamed.status, renamed.text).toBe(200);
    const again = await t.request('PUT', `/api/articles/${id}`, { body: { data: { title: 'Kept slug' } } });
    expect(again.status, again.text).toBe(200);
    expect(again.body.data).toMatchObject({ slug: 'own-slug', title: 'Kept slug' });
  });

  it('another locale may use the same slug, also for a uid marked not localized', async () => {
    await t.request('POST', '/api/articles', { body: { data: { title: 'En', slug: 'locale-slug' } } });
    const fr = await t.request('POST', '/api/articles?locale=fr', { body: { data: { title: 'Fr', slug: 'locale-slug' } } });
    expect(fr.status, fr.text).toBe(201);
    // category: no draft & publish, slug with i18n.localized false
    const en = await t.request('POST', '/api/categories', { body: { data: { name: 'A', slug: 'cat-slug' } } });
    expect(en.status, en.text).toBe(201);
    const frCat = await t.request('POST', '/api/categories?locale=fr', { body: { data: { name: 'B', slug: 'cat-slug' } } });
    expect(frCat.status, frCat.text).toBe(201);
    const enAgain = await t.request('POST', '/api/categories', { body: { data: { name: 'C', slug: 'cat-slug' } } });
    expect(enAgain.status).toBe(400);
    expect(enAgain.body).toEqual(duplicate('slug', 'cat-slug'));
  });

  it('an empty slug is not held to uniqueness', async () => {
    for (const title of ['Empty one', 'Empty two']) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title, slug: '' } } });
      expect(r.status, r.text).toBe(201);
      expect(r.body.data.slug).toBe('');
    }
  });

  it('20 simultaneous creates with one slug: one 201, the rest the 400', async () => {
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => t.request('POST', '/api/articles', { body: { data: { title: `Race ${i}`, slug: 'raced-slug' } } })));
    expect(rs.filter((r) => r.status === 201)).toHaveLength(1);
    const refused = rs.filter((r) => r.status !== 201);
    expect(refused).toHaveLength(19);
    for (const r of refused) expect(r.body).toEqual(duplicate('slug', 'raced-slug'));
    const listed = await t.get('/api/articles?filters[slug][$eq]=raced-slug');
    expect(listed.body.meta.pagination.total).toBe(1);
  });
});
