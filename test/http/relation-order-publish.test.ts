// Relations and their order survive publish, re-publish and adding a locale, seen from both sides
// of each relation kind of the example app (Strapi loses or reorders them: strapi#24438, #22170, #23155).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

let n = 0;
async function write(method: 'POST' | 'PUT', path: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request(method, path, { body: { data } });
  expect(r.status, `${method} ${path} → ${r.text}`).toBe(method === 'POST' ? 201 : 200);
  return r.body.data.documentId as string;
}
const article = (extra: Record<string, unknown> = {}): Promise<string> => write('POST', '/api/articles', { title: `ro article ${++n}`, ...extra });
const tag = (status = ''): Promise<string> => write('POST', `/api/tags${status}`, { label: `ro tag ${++n}` });
const category = (extra: Record<string, unknown> = {}): Promise<string> => write('POST', '/api/categories', { name: `ro category ${++n}`, ...extra });
/** re-publish: a published write with an unrelated change */
const republish = (plural: string, id: string, data: Record<string, unknown>): Promise<string> => write('PUT', `/api/${plural}/${id}`, data);

/** documentIds of a populated relation, in the order the API returns them */
async function related(path: string, field: string, query = ''): Promise<string[]> {
  const r = await t.get(`${path}?populate[${field}]=true${query}`);
  expect(r.status, r.text).toBe(200);
  const v = r.body.data[field] as { documentId: string } | { documentId: string }[] | null;
  if (v === null) return [];
  return Array.isArray(v) ? v.map((x) => x.documentId) : [v.documentId];
}
/** the same order in the published and the draft version */
async function bothStatuses(path: string, field: string, expected: string[], query = ''): Promise<void> {
  expect(await related(path, field, query), `${path} ${field} published`).toEqual(expected);
  expect(await related(path, field, `${query}&status=draft`), `${path} ${field} draft`).toEqual(expected);
}

describe('manyToMany between two draft & publish types: article.tags ↔ tag.articles', () => {
  it('article.tags keeps its order through re-publish, draft-then-publish and a new locale', async () => {
    const [a, b, c] = [await tag(), await tag(), await tag()];
    const x = await article({ tags: [c, a, b] });
    await bothStatuses(`/api/articles/${x}`, 'tags', [c, a, b]);
    await republish('articles', x, { summary: 'again' });
    await bothStatuses(`/api/articles/${x}`, 'tags', [c, a, b]);
    await write('PUT', `/api/articles/${x}?status=draft`, { summary: 'draft edit' });
    await write('PUT', `/api/articles/${x}`, {});
    await bothStatuses(`/api/articles/${x}`, 'tags', [c, a, b]);
    await write('PUT', `/api/articles/${x}?locale=fr`, { title: 'ro article fr' });
    await republish('articles', x, { summary: 'after locale' });
    await bothStatuses(`/api/articles/${x}`, 'tags', [c, a, b]);
  });

  it('tag.articles keeps its connect order after each article and the tag itself are re-published', async () => {
    const g = await tag();
    const [x, y, z] = [await article({ tags: [g] }), await article({ tags: [g] }), await article({ tags: [g] })];
    await bothStatuses(`/api/tags/${g}`, 'articles', [x, y, z]);
    await republish('articles', y, { summary: 'y again' });
    await republish('articles', x, { summary: 'x again' });
    await bothStatuses(`/api/tags/${g}`, 'articles', [x, y, z]);
    await republish('tags', g, { color: '#aa0000' });
    await bothStatuses(`/api/tags/${g}`, 'articles', [x, y, z]);
    await write('PUT', `/api/articles/${z}?locale=fr`, { title: 'ro z fr' });
    await bothStatuses(`/api/tags/${g}`, 'articles', [x, y, z]);
  });

  it('an order set from the tag side holds on both sides through re-publishing either side', async () => {
    const [x, y, z] = [await article(), await article(), await article()];
    const g = await write('POST', '/api/tags', { label: `ro tag ${++n}`, articles: [z, x, y] });
    await bothStatuses(`/api/tags/${g}`, 'articles', [z, x, y]);
    for (const id of [x, y, z]) await bothStatuses(`/api/articles/${id}`, 'tags', [g]);
    await republish('articles', x, { summary: 'x' });
    await republish('tags', g, { color: '#0000aa' });
    await bothStatuses(`/api/tags/${g}`, 'articles', [z, x, y]);
    await write('PUT', `/api/tags/${g}`, { articles: { connect: [{ documentId: y, position: { before: z } }] } });
    await bothStatuses(`/api/tags/${g}`, 'articles', [y, z, x]);
  });

  it('connect with a position on a re-published article keeps the others\' relative order', async () => {
    const [a, b, c, d] = [await tag(), await tag(), await tag(), await tag()];
    const x = await article({ tags: [a, b, c] });
    await republish('articles', x, { summary: 'again' });
    await write('PUT', `/api/articles/${x}`, { tags: { connect: [{ documentId: d, position: { after: a } }] } });
    await bothStatuses(`/api/articles/${x}`, 'tags', [a, d, b, c]);
    await write('PUT', `/api/articles/${x}`, { tags: { connect: [{ documentId: c, position: { start: true } }] } });
    await bothStatuses(`/api/articles/${x}`, 'tags', [c, a, d, b]);
  });

  it('a draft-only tag appears in the published article, in its place, once the tag is published', async () => {
    const [a, b] = [await tag(), await tag()];
    const e = await tag('?status=draft');
    const x = await article({ tags: [a, e, b] });
    expect(await related(`/api/articles/${x}`, 'tags')).toEqual([a, b]);
    expect(await related(`/api/articles/${x}`, 'tags', '&status=draft')).toEqual([a, e, b]);
    await write('PUT', `/api/tags/${e}`, {});
    await bothStatuses(`/api/articles/${x}`, 'tags', [a, e, b]);
    expect(await related(`/api/tags/${e}`, 'articles')).toEqual([x]);
  });
});

describe('manyToMany to a localized type without draft & publish: article.categories ↔ category.articles', () => {
  it('both sides keep their order through re-publishing the article and adding a locale', async () => {
    const [k1, k2, k3] = [await category(), await category(), await category()];
    const x = await article({ categories: [k3, k1, k2] });
    const y = await article({ categories: [k1] });
    await bothStatuses(`/api/articles/${x}`, 'categories', [k3, k1, k2]);
    expect(await related(`/api/categories/${k1}`, 'articles')).toEqual([x, y]);
    await republish('articles', x, { summary: 'again' });
    await write('PUT', `/api/articles/${x}?locale=fr`, { title: 'ro x fr' });
    await republish('articles', x, { summary: 'and again' });
    await bothStatuses(`/api/articles/${x}`, 'categories', [k3, k1, k2]);
    expect(await related(`/api/categories/${k1}`, 'articles')).toEqual([x, y]);
    expect(await related(`/api/categories/${k1}`, 'articles', '&status=draft')).toEqual([x, y]);
  });

  it('an order set from the category side survives re-publishing the articles', async () => {
    const [x, y, z] = [await article(), await article(), await article()];
    const k = await category({ articles: [y, z, x] });
    expect(await related(`/api/categories/${k}`, 'articles')).toEqual([y, z, x]);
    await republish('articles', z, { summary: 'z' });
    await republish('categories', k, { description: 'changed' });
    expect(await related(`/api/categories/${k}`, 'articles')).toEqual([y, z, x]);
    expect(await related(`/api/categories/${k}`, 'articles', '&status=draft')).toEqual([y, z, x]);
    await bothStatuses(`/api/articles/${z}`, 'categories', [k]);
  });
});

describe('manyToOne ↔ oneToMany: article.author ↔ author.articles', () => {
  it('author.articles keeps the order the articles were linked in through their re-publishing', async () => {
    const au = await write('POST', '/api/authors', { name: `ro author ${++n}` });
    const [x, y, z] = [await article({ author: au }), await article({ author: au }), await article({ author: au })];
    expect(await related(`/api/authors/${au}`, 'articles')).toEqual([x, y, z]);
    await republish('articles', y, { summary: 'y' });
    await write('PUT', `/api/articles/${x}?locale=fr`, { title: 'ro x fr' });
    expect(await related(`/api/authors/${au}`, 'articles')).toEqual([x, y, z]);
    for (const id of [x, y, z]) await bothStatuses(`/api/articles/${id}`, 'author', [au]);
  });

  it('an order set from the author side holds, and each article points back', async () => {
    const [x, y, z] = [await article(), await article(), await article()];
    const au = await write('POST', '/api/authors', { name: `ro author ${++n}`, articles: [z, x, y] });
    expect(await related(`/api/authors/${au}`, 'articles')).toEqual([z, x, y]);
    expect(await related(`/api/authors/${au}`, 'articles', '&status=draft')).toEqual([z, x, y]);
    await republish('articles', x, { summary: 'x' });
    expect(await related(`/api/authors/${au}`, 'articles')).toEqual([z, x, y]);
    for (const id of [x, y, z]) await bothStatuses(`/api/articles/${id}`, 'author', [au]);
  });
});

describe('oneToMany one-way: article.related and homepage.featured', () => {
  it('article.related keeps its order through re-publish and a new locale', async () => {
    const [p, q, r] = [await article(), await article(), await article()];
    const x = await article({ related: [r, p, q] });
    await republish('articles', x, { summary: 'again' });
    await republish('articles', p, { summary: 'target re-published' });
    await write('PUT', `/api/articles/${x}?locale=fr`, { title: 'ro related fr' });
    await bothStatuses(`/api/articles/${x}`, 'related', [r, p, q]);
  });

  it('homepage.featured keeps its order through re-publishing the single type and its targets', async () => {
    const [x, y, z] = [await article(), await article(), await article()];
    await write('PUT', '/api/homepage', { headline: 'ro home', featured: [y, z, x] });
    await bothStatuses('/api/homepage', 'featured', [y, z, x]);
    await write('PUT', '/api/homepage?status=draft', { headline: 'ro home draft' });
    await write('PUT', '/api/homepage', {});
    await republish('articles', z, { summary: 'z' });
    await write('PUT', '/api/homepage?locale=fr', { headline: 'ro accueil' });
    await bothStatuses('/api/homepage', 'featured', [y, z, x]);
  });
});

describe('oneToOne and self relations without draft & publish', () => {
  it('author.profile ↔ profile.author: set from either side, seen from both', async () => {
    const p1 = await write('POST', '/api/profiles', { handle: `ro${++n}` });
    const au = await write('POST', '/api/authors', { name: `ro author ${++n}`, profile: p1 });
    expect(await related(`/api/profiles/${p1}`, 'author')).toEqual([au]);
    const p2 = await write('POST', '/api/profiles', { handle: `ro${++n}`, author: au });
    expect(await related(`/api/authors/${au}`, 'profile')).toEqual([p2]);
    expect(await related(`/api/profiles/${p1}`, 'author')).toEqual([]);
  });

  it('category.children keeps its order; each child knows its parent', async () => {
    const [c1, c2, c3] = [await category(), await category(), await category()];
    const parent = await category({ children: [c3, c1, c2] });
    expect(await related(`/api/categories/${parent}`, 'children')).toEqual([c3, c1, c2]);
    await republish('categories', parent, { description: 'changed' });
    await write('PUT', `/api/categories/${parent}?locale=fr`, { name: 'ro parent fr' });
    expect(await related(`/api/categories/${parent}`, 'children')).toEqual([c3, c1, c2]);
    for (const c of [c1, c2, c3]) expect(await related(`/api/categories/${c}`, 'parent')).toEqual([parent]);
  });
});
