// From a type without draft & publish (a category, an author), the articles it lists are links held by
// the articles' rows, one list per version: a connect, disconnect or set item naming a status edits
// that version's list only, as in Strapi 5.54 (compared side by side on MariaDB); one without a status
// edits both.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const article = (): Promise<string> => writeDocument(t, 'POST', '/api/articles', { title: `versions ${++n}` });
const category = (): Promise<string> => writeDocument(t, 'POST', '/api/categories', { name: `versions ${++n}` });
const put = (path: string, data: Record<string, unknown>): Promise<string> => writeDocument(t, 'PUT', path, data);

/** the categories each version of the article lists */
async function categoriesOf(doc: string): Promise<{ draft: string[]; published: string[] }> {
  const read = async (status: string): Promise<string[]> => {
    const r = await t.get(`/api/articles/${doc}?status=${status}&fields[0]=title&populate[categories][fields][0]=name`);
    expect(r.status, r.text).toBe(200);
    return (r.body.data.categories as { documentId: string }[]).map((c) => c.documentId);
  };
  return { draft: await read('draft'), published: await read('published') };
}

describe('an inverse list item naming a status', () => {
  it('a connect naming draft, then one naming published, links both versions, in either order', async () => {
    const [x, y, c] = [await article(), await article(), await category()];
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: x, status: 'draft' }] } });
    expect(await categoriesOf(x)).toEqual({ draft: [c], published: [] });
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: x, status: 'published' }] } });
    expect(await categoriesOf(x)).toEqual({ draft: [c], published: [c] });
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: y, status: 'published' }] } });
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: y, status: 'draft' }] } });
    expect(await categoriesOf(y)).toEqual({ draft: [c], published: [c] });
  });

  it('a disconnect naming draft leaves the published version linked, and the published list keeps its order', async () => {
    const [x, y, c] = [await article(), await article(), await category()];
    await put(`/api/categories/${c}`, { articles: [x, y] });
    await put(`/api/categories/${c}`, { articles: { disconnect: [{ documentId: x, status: 'draft' }] } });
    expect(await categoriesOf(x)).toEqual({ draft: [], published: [c] });
    expect(await categoriesOf(y)).toEqual({ draft: [c], published: [c] });
    const listed = async (status: string): Promise<string[]> =>
      ((await t.get(`/api/categories/${c}?status=${status}&populate[articles][fields][0]=title`)).body.data.articles as { documentId: string }[]).map((a) => a.documentId);
    expect(await listed('published')).toEqual([x, y]);
    // a connect naming published moves that version only: the draft list keeps its order
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: x, status: 'draft', position: { start: true } }] } });
    await put(`/api/categories/${c}`, { articles: { connect: [{ documentId: y, status: 'published', position: { start: true } }] } });
    expect(await listed('published')).toEqual([y, x]);
    expect(await listed('draft')).toEqual([x, y]);
  });

  it('a to-one owner: an author connecting an article’s draft, then its published version, is the author of both', async () => {
    const x = await article();
    const a = await writeDocument(t, 'POST', '/api/authors', { name: `versions ${++n}` });
    await put(`/api/authors/${a}`, { articles: { connect: [{ documentId: x, status: 'draft' }] } });
    await put(`/api/authors/${a}`, { articles: { connect: [{ documentId: x, status: 'published' }] } });
    for (const status of ['draft', 'published']) {
      const r = await t.get(`/api/articles/${x}?status=${status}&fields[0]=title&populate[author][fields][0]=name`);
      expect(r.body.data.author?.documentId, status).toBe(a);
    }
  });

  it('one connect naming an article’s draft and its published version links both; a version twice, or one and no status, is refused', async () => {
    const [x, c] = [await article(), await category()];
    await put(`/api/categories/${c}`, {
      articles: {
        connect: [
          { documentId: x, status: 'draft' },
          { documentId: x, status: 'published' },
        ],
      },
    });
    expect(await categoriesOf(x)).toEqual({ draft: [c], published: [c] });
    const message = `The relation with id ${x} is already connected. You cannot connect the same relation twice.`;
    for (const connect of [
      [
        { documentId: x, status: 'draft' },
        { documentId: x, status: 'draft' },
      ],
      [{ documentId: x, status: 'published' }, { documentId: x }],
    ]) {
      const r = await t.request('PUT', `/api/categories/${c}`, { body: { data: { articles: { connect } } } });
      expect(r.status, JSON.stringify(connect)).toBe(400);
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message });
    }
  });

  it('items without a status still edit both versions', async () => {
    const [x, c] = [await article(), await category()];
    await put(`/api/categories/${c}`, { articles: { connect: [x] } });
    expect(await categoriesOf(x)).toEqual({ draft: [c], published: [c] });
    await put(`/api/categories/${c}`, { articles: { disconnect: [x] } });
    expect(await categoriesOf(x)).toEqual({ draft: [], published: [] });
  });

  it('naming the published version of a draft-only article is that document not found, before a missing file or a value error, as Strapi 5.54 answers', async () => {
    const draft = await writeDocument(t, 'POST', '/api/articles?status=draft', { title: 'never published' });
    const notFound = { status: 400, name: 'ValidationError', message: `Document with id "${draft}", locale "en" not found`, details: {} };
    const link = { connect: [{ documentId: draft, status: 'published' }] };
    for (const data of [
      { name: 'P1', articles: link },
      { name: 'P2', articles: link, avatar: 99999 },
      { name: 'P3', age: 'abc', articles: link },
    ]) {
      const r = await t.request('POST', '/api/authors', { body: { data } });
      expect(r.body.error, JSON.stringify(data)).toEqual(notFound);
    }
    expect((await t.get('/api/authors?filters[name][$in][0]=P1&filters[name][$in][1]=P2&filters[name][$in][2]=P3')).body.data).toEqual([]);
    // its draft is there to name
    const drafted = await t.request('POST', '/api/authors', { body: { data: { name: 'P4', age: 'abc', articles: { connect: [{ documentId: draft, status: 'draft' }] } } } });
    expect(drafted.body.error.message).toBe('age must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).');
  });
});
