// Relations and their order survive publish, re-publish and adding a locale, seen from BOTH sides of
// every relation kind of the example app (Strapi loses or reorders them: behaviour.md §13 #8, #9;
// strapi#24438, #22170, #23155). The order of the owning side is the order it was set or connected in;
// the order of the inverse (mappedBy) side is the order the links were first made, and it does not move
// when a source is re-published, re-sends a link it already has, or reorders its own list.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Data = Record<string, unknown>;

let seq = 0;
/** a unique label/name for this file's documents */
const uniq = (what: string): string => `rop ${what} ${++seq}`;

async function send(method: 'POST' | 'PUT', path: string, data: Data): Promise<string> {
  const r = await t.request(method, path, { body: { data } });
  expect(r.status, `${method} ${path} ${JSON.stringify(data)} → ${r.text}`).toBe(method === 'POST' ? 201 : 200);
  return r.body.data.documentId as string;
}
const post = (plural: string, data: Data, query = ''): Promise<string> => send('POST', `/api/${plural}${query}`, data);
const put = (path: string, data: Data): Promise<string> => send('PUT', path, data);

const newTag = (query = ''): Promise<string> => post('tags', { label: uniq('tag') }, query);
const newArticle = (extra: Data = {}, query = ''): Promise<string> => post('articles', { title: uniq('article'), ...extra }, query);
const newCategory = (extra: Data = {}): Promise<string> => post('categories', { name: uniq('category'), ...extra });
const newAuthor = (extra: Data = {}): Promise<string> => post('authors', { name: uniq('author'), ...extra });
const newProfile = (extra: Data = {}): Promise<string> => post('profiles', { handle: uniq('profile'), ...extra });

const articleUrl = (id: string): string => `/api/articles/${id}`;
const tagUrl = (id: string): string => `/api/tags/${id}`;
const categoryUrl = (id: string): string => `/api/categories/${id}`;
const authorUrl = (id: string): string => `/api/authors/${id}`;
const profileUrl = (id: string): string => `/api/profiles/${id}`;

/** documentIds of a populated relation (to-one: [] or [id]), in the order the API returns them */
async function rel(path: string, field: string, query = ''): Promise<string[]> {
  // articles, the only localized targets here, say which locale version each one is
  const locale = field === 'articles' ? `&populate[${field}][fields][1]=locale` : '';
  const url = `${path}?populate[${field}][fields][0]=documentId${locale}${query ? `&${query}` : ''}`;
  const r = await t.get(url);
  expect(r.status, `GET ${url} → ${r.text}`).toBe(200);
  type Linked = { documentId: string; locale?: string };
  const v = r.body.data[field] as Linked | Linked[] | null | undefined;
  expect(v, `GET ${url}: ${field} missing`).not.toBeUndefined();
  if (v === null || v === undefined) return [];
  // a version in another locale than the read's says so (`doc@fr`), as a type without locales lists them all
  const readLocale = /(?:^|&)locale=([^&]+)/.exec(query)?.[1] ?? 'en';
  const name = (x: Linked): string => (x.locale && x.locale !== readLocale ? `${x.documentId}@${x.locale}` : x.documentId);
  return Array.isArray(v) ? v.map(name) : [name(v)];
}

/** asserts the order in one read (query picks status/locale) */
async function checkOne(step: string, path: string, field: string, expected: readonly string[], query = ''): Promise<void> {
  expect(await rel(path, field, query), `${step}: ${path} ${field} [${query || 'published'}]`).toEqual(expected);
}

/** asserts the same order in the published (default) and the draft read */
async function check(step: string, path: string, field: string, expected: readonly string[], query = ''): Promise<void> {
  await checkOne(step, path, field, expected, query);
  await checkOne(step, path, field, expected, query ? `${query}&status=draft` : 'status=draft');
}

describe('manyToMany between two draft & publish types: article.tags ↔ tag.articles', () => {
  it('article.tags keeps the order it was set in through re-publish, a draft edit then publish, a new fr version and another re-publish', async () => {
    const [a, b, c] = [await newTag(), await newTag(), await newTag()];
    const x = await newArticle({ tags: [c, a, b] });
    const p = articleUrl(x);
    await check('created', p, 'tags', [c, a, b]);
    await put(p, { summary: 'unrelated change' });
    await check('re-published', p, 'tags', [c, a, b]);
    await put(`${p}?status=draft`, { summary: 'draft edit' });
    await check('after a draft edit', p, 'tags', [c, a, b]);
    await put(p, {});
    await check('draft published', p, 'tags', [c, a, b]);
    await put(`${p}?locale=fr`, { title: uniq('article fr') });
    await check('fr version added', p, 'tags', [c, a, b]);
    await check('the new fr version has its own (empty) relations', p, 'tags', [], 'locale=fr');
    await put(p, { summary: 'after fr' });
    await check('re-published after fr', p, 'tags', [c, a, b]);
    for (const g of [a, b, c]) await check('target side', tagUrl(g), 'articles', [x]);
  });

  it('tag.articles lists articles in the order they connected the tag, unchanged after the articles and the tag are re-published and an article gains a locale', async () => {
    const [g, h] = [await newTag(), await newTag()];
    const x = await newArticle({ tags: [g] });
    const y = await newArticle({ tags: [g] });
    const z = await newArticle({ tags: [h, g] });
    const p = tagUrl(g);
    await check('first connect', p, 'articles', [x, y, z]);
    await put(articleUrl(z), { summary: 'z again' });
    await put(articleUrl(x), { summary: 'x again' });
    await check('articles re-published', p, 'articles', [x, y, z]);
    await put(`${articleUrl(y)}?status=draft`, { summary: 'y draft' });
    await put(articleUrl(y), {});
    await check('an article draft edited then published', p, 'articles', [x, y, z]);
    await put(p, { color: '#123456' });
    await check('tag re-published', p, 'articles', [x, y, z]);
    await put(`${p}?status=draft`, { color: '#654321' });
    await put(p, {});
    await check('tag draft edited then published', p, 'articles', [x, y, z]);
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr') });
    await put(articleUrl(x), { summary: 'x after fr' });
    await check('an article gained a fr version', p, 'articles', [x, y, z]);
    await check('owner side untouched', articleUrl(z), 'tags', [h, g]);
  });

  it("tag.articles keeps an article's place when the article is re-published with the same tags sent again", async () => {
    const [g, h] = [await newTag(), await newTag()];
    const x = await newArticle({ tags: [g, h] });
    const y = await newArticle({ tags: [g] });
    const z = await newArticle({ tags: [h, g] });
    await check('first connect', tagUrl(g), 'articles', [x, y, z]);
    await check('first connect', tagUrl(h), 'articles', [x, z]);
    await put(articleUrl(x), { summary: 'form saved again', tags: [g, h] });
    await put(articleUrl(y), { summary: 'form saved again', tags: { set: [g] } });
    await check('articles re-published with their tags re-sent', tagUrl(g), 'articles', [x, y, z]);
    await check('articles re-published with their tags re-sent', tagUrl(h), 'articles', [x, z]);
    await check('owner side', articleUrl(x), 'tags', [g, h]);
  });

  it("tag.articles keeps an article's place when the article moves that tag within its own list (connect + position)", async () => {
    const [a, g] = [await newTag(), await newTag()];
    const x = await newArticle({ tags: [a, g] });
    const y = await newArticle({ tags: [g] });
    await check('first connect', tagUrl(g), 'articles', [x, y]);
    await put(articleUrl(x), { tags: { connect: [{ documentId: g, position: { start: true } }] } });
    await check('owner side reordered', articleUrl(x), 'tags', [g, a]);
    await check('inverse side unchanged', tagUrl(g), 'articles', [x, y]);
    await check('inverse side unchanged', tagUrl(a), 'articles', [x]);
  });

  it('connect with before/after/start/end on a re-published article keeps the other tags in their relative order', async () => {
    const [a, b, c, d, e] = [await newTag(), await newTag(), await newTag(), await newTag(), await newTag()];
    const x = await newArticle({ tags: [a, b, c] });
    const p = articleUrl(x);
    await put(p, { summary: 're-published' });
    await put(p, { tags: { connect: [{ documentId: d, position: { after: a } }] } });
    await check('d after a', p, 'tags', [a, d, b, c]);
    await put(p, { tags: { connect: [{ documentId: c, position: { start: true } }] } });
    await check('c to the start', p, 'tags', [c, a, d, b]);
    await put(p, {
      tags: {
        connect: [
          { documentId: e, position: { before: d } },
          { documentId: a, position: { end: true } },
        ],
      },
    });
    await check('e before d, then a to the end', p, 'tags', [c, e, d, b, a]);
    await put(p, { summary: 're-published again' });
    await check('re-published', p, 'tags', [c, e, d, b, a]);
    await put(p, { tags: { disconnect: [b] } });
    await check('b disconnected', p, 'tags', [c, e, d, a]);
    await check('target side', tagUrl(b), 'articles', []);
    await check('target side', tagUrl(e), 'articles', [x]);
  });

  it('a status=draft reorder shows only in the draft until the article is published again', async () => {
    const [a, b, c, d] = [await newTag(), await newTag(), await newTag(), await newTag()];
    const x = await newArticle({ tags: [c, a, b] });
    const p = articleUrl(x);
    await put(`${p}?status=draft`, {
      tags: {
        connect: [
          { documentId: d, position: { before: a } },
          { documentId: b, position: { start: true } },
        ],
      },
    });
    await checkOne('draft edit: published', p, 'tags', [c, a, b]);
    await checkOne('draft edit: draft', p, 'tags', [b, c, d, a], 'status=draft');
    await checkOne('draft edit: new tag, published', tagUrl(d), 'articles', []);
    await checkOne('draft edit: new tag, draft', tagUrl(d), 'articles', [x], 'status=draft');
    await put(p, {});
    await check('published', p, 'tags', [b, c, d, a]);
    await check('published: new tag', tagUrl(d), 'articles', [x]);
  });

  it('a draft-only tag linked from a published article appears in its original position once the tag is published, without re-saving the article', async () => {
    const [a, b] = [await newTag(), await newTag()];
    const e = await newTag('?status=draft');
    const x = await newArticle({ tags: [a, e, b] });
    const p = articleUrl(x);
    await checkOne('tag still a draft: published', p, 'tags', [a, b]);
    await checkOne('tag still a draft: draft', p, 'tags', [a, e, b], 'status=draft');
    await put(p, { summary: 're-published while the tag is a draft' });
    await checkOne('re-published: published', p, 'tags', [a, b]);
    await checkOne('re-published: draft', p, 'tags', [a, e, b], 'status=draft');
    await put(tagUrl(e), {});
    await check('tag published', p, 'tags', [a, e, b]);
    await check('tag published: its side', tagUrl(e), 'articles', [x]);
  });

  it('a draft-only article that connects a tag joins tag.articles at its place once the article is published', async () => {
    const g = await newTag();
    const x = await newArticle({ tags: [g] });
    const w = await newArticle({ tags: [g] }, '?status=draft');
    const y = await newArticle({ tags: [g] });
    await checkOne('article still a draft: published', tagUrl(g), 'articles', [x, y]);
    await checkOne('article still a draft: draft', tagUrl(g), 'articles', [x, w, y], 'status=draft');
    await put(tagUrl(g), { color: '#00ff00' });
    await checkOne('tag re-published: published', tagUrl(g), 'articles', [x, y]);
    await put(articleUrl(w), {});
    await check('article published', tagUrl(g), 'articles', [x, w, y]);
  });

  it('an order set from the tag side holds on both sides through re-publishing the articles and the tag; connect + position from the tag side reorders it', async () => {
    const h = await newTag();
    const x = await newArticle({ tags: [h] });
    const y = await newArticle();
    const z = await newArticle();
    const g = await post('tags', { label: uniq('tag'), articles: [z, x, y] });
    await check('set from the tag', tagUrl(g), 'articles', [z, x, y]);
    await check('owner side: appended after its own tag', articleUrl(x), 'tags', [h, g]);
    for (const id of [y, z]) await check('owner side', articleUrl(id), 'tags', [g]);
    await put(articleUrl(x), { summary: 'x again' });
    await put(`${articleUrl(z)}?status=draft`, { summary: 'z draft' });
    await put(articleUrl(z), {});
    await put(tagUrl(g), { color: '#0000aa' });
    await check('both sides re-published', tagUrl(g), 'articles', [z, x, y]);
    await check('both sides re-published', articleUrl(x), 'tags', [h, g]);
    await put(tagUrl(g), { articles: { connect: [{ documentId: y, position: { before: z } }] } });
    await check('y moved before z', tagUrl(g), 'articles', [y, z, x]);
    await put(tagUrl(g), { color: '#0000bb' });
    await put(articleUrl(z), { summary: 'z again' });
    await check('re-published after the move', tagUrl(g), 'articles', [y, z, x]);
    await check('owner side untouched by the move', articleUrl(x), 'tags', [h, g]);
  });

  it("a status=draft change to tag.articles shows only in the tag's draft until the tag is published, then in the connected position", async () => {
    const [x, y, z] = [await newArticle(), await newArticle(), await newArticle()];
    const g = await post('tags', { label: uniq('tag'), articles: [x, y] });
    await check('set from the tag', tagUrl(g), 'articles', [x, y]);
    await put(`${tagUrl(g)}?status=draft`, { articles: { connect: [{ documentId: z, position: { start: true } }] } });
    await checkOne('draft edit: published tag unchanged', tagUrl(g), 'articles', [x, y]);
    await checkOne('draft edit: draft tag', tagUrl(g), 'articles', [z, x, y], 'status=draft');
    await checkOne('draft edit: published article unchanged', articleUrl(z), 'tags', []);
    await checkOne('draft edit: draft article', articleUrl(z), 'tags', [g], 'status=draft');
    await put(tagUrl(g), {});
    await check('tag published', tagUrl(g), 'articles', [z, x, y]);
    await check('tag published: article side', articleUrl(z), 'tags', [g]);
  });

  it('the fr version of an article holds its own tag order; tags list every linked version, whatever locale the read names', async () => {
    const [a, b, c] = [await newTag(), await newTag(), await newTag()];
    const x = await newArticle({ tags: [c, a, b] });
    const y = await newArticle({ tags: [c] });
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr'), tags: [b, c] });
    await check('en', articleUrl(x), 'tags', [c, a, b]);
    await check('fr', articleUrl(x), 'tags', [b, c], 'locale=fr');
    await put(articleUrl(x), { summary: 'en again' });
    await put(`${articleUrl(x)}?locale=fr`, { summary: 'fr again' });
    await check('en after re-publishing both', articleUrl(x), 'tags', [c, a, b]);
    await check('fr after re-publishing both', articleUrl(x), 'tags', [b, c], 'locale=fr');
    // every version that links the tag, as Strapi 5.54 lists them: x in en, y, x in fr; a tag has no
    // locales, and a locale named for it changes nothing
    for (const query of ['', 'locale=en']) {
      await check(`tag side ${query}`, tagUrl(c), 'articles', [x, y, `${x}@fr`], query);
      await check(`tag side ${query}`, tagUrl(a), 'articles', [x], query);
    }
    await check('tag side, locale=fr', tagUrl(c), 'articles', [`${x}@en`, `${y}@en`, x], 'locale=fr');
  });

  it('connecting an article from the tag side links its en version even when its fr version already links the tag', async () => {
    const g = await newTag();
    const x = await newArticle();
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr'), tags: [g] });
    const y = await newArticle({ tags: [g] });
    await check('before', tagUrl(g), 'articles', [`${x}@fr`, y]);
    await put(tagUrl(g), { articles: { connect: [x] } });
    await check('connected from the tag (en)', tagUrl(g), 'articles', [`${x}@fr`, y, x]);
    await check('en version of the article', articleUrl(x), 'tags', [g]);
    await check('fr version of the article', articleUrl(x), 'tags', [g], 'locale=fr');
  });

  it("disconnecting an article from the tag side removes only its en link, not its fr version's", async () => {
    const g = await newTag();
    const x = await newArticle();
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr'), tags: [g] });
    await put(articleUrl(x), { tags: [g] });
    await check('before', tagUrl(g), 'articles', [`${x}@fr`, x]);
    await put(tagUrl(g), { articles: { disconnect: [x] } });
    await check('en link removed', articleUrl(x), 'tags', []);
    await check('fr link kept', tagUrl(g), 'articles', [`${x}@fr`]);
    await check('fr link kept', articleUrl(x), 'tags', [g], 'locale=fr');
  });
});

describe('manyToMany to a localized type without draft & publish: article.categories ↔ category.articles', () => {
  it('both sides keep their order through re-publishing the articles, a new article locale and a category update', async () => {
    const [k1, k2, k3] = [await newCategory(), await newCategory(), await newCategory()];
    const x = await newArticle({ categories: [k3, k1, k2] });
    const y = await newArticle({ categories: [k1] });
    const z = await newArticle({ categories: [k2, k1] });
    await check('created', articleUrl(x), 'categories', [k3, k1, k2]);
    await check('created', categoryUrl(k1), 'articles', [x, y, z]);
    await check('created', categoryUrl(k2), 'articles', [x, z]);
    await put(articleUrl(x), { summary: 'again' });
    await put(`${articleUrl(y)}?status=draft`, { summary: 'y draft' });
    await put(articleUrl(y), {});
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr') });
    await put(articleUrl(x), { summary: 'and again' });
    await put(categoryUrl(k1), { description: 'changed', position: 3 });
    await check('after re-publishing and a new locale', articleUrl(x), 'categories', [k3, k1, k2]);
    await check('after re-publishing and a new locale', articleUrl(z), 'categories', [k2, k1]);
    await check('after re-publishing and a new locale', categoryUrl(k1), 'articles', [x, y, z]);
    await check('after re-publishing and a new locale', categoryUrl(k2), 'articles', [x, z]);
  });

  it("category.articles keeps an article's place when the article is re-published with the same categories sent again", async () => {
    const k = await newCategory();
    const x = await newArticle({ categories: [k] });
    const y = await newArticle({ categories: [k] });
    await check('first connect', categoryUrl(k), 'articles', [x, y]);
    await put(articleUrl(x), { summary: 'saved again', categories: [k] });
    await check('x re-sent its categories', categoryUrl(k), 'articles', [x, y]);
  });

  it('an order set from the category side holds after the articles are re-published and the category is updated; connect + position reorders it', async () => {
    const [x, y, z] = [await newArticle(), await newArticle(), await newArticle()];
    const k = await newCategory({ articles: [y, z, x] });
    await check('set from the category', categoryUrl(k), 'articles', [y, z, x]);
    await put(articleUrl(z), { summary: 'z' });
    await put(categoryUrl(k), { description: 'changed' });
    await check('both sides updated', categoryUrl(k), 'articles', [y, z, x]);
    for (const id of [x, y, z]) await check('owner side', articleUrl(id), 'categories', [k]);
    await put(categoryUrl(k), { articles: { connect: [{ documentId: x, position: { start: true } }] } });
    await check('x to the start', categoryUrl(k), 'articles', [x, y, z]);
    await put(articleUrl(y), { summary: 'y' });
    await check('re-published after the move', categoryUrl(k), 'articles', [x, y, z]);
  });

  it('a new fr version of a category starts without articles and leaves the en order; fr articles linked to it keep their own order', async () => {
    const k = await newCategory();
    const x = await newArticle({ categories: [k] });
    const y = await newArticle({ categories: [k] });
    await put(`${categoryUrl(k)}?locale=fr`, { name: uniq('category fr') });
    await check('en after the fr version', categoryUrl(k), 'articles', [x, y]);
    await check('fr version', categoryUrl(k), 'articles', [], 'locale=fr');
    await put(`${articleUrl(y)}?locale=fr`, { title: uniq('y fr'), categories: [k] });
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr'), categories: [k] });
    await check('fr articles linked', categoryUrl(k), 'articles', [y, x], 'locale=fr');
    await check('en unchanged', categoryUrl(k), 'articles', [x, y]);
    await put(articleUrl(y), { summary: 'y en again' });
    await put(`${articleUrl(y)}?locale=fr`, { summary: 'y fr again' });
    await check('after re-publishing y in both locales', categoryUrl(k), 'articles', [y, x], 'locale=fr');
    await check('after re-publishing y in both locales', categoryUrl(k), 'articles', [x, y]);
  });

  it('connecting an article from the en category links its en version even when its fr version already links the category', async () => {
    const k = await newCategory();
    await put(`${categoryUrl(k)}?locale=fr`, { name: uniq('category fr') });
    const x = await newArticle();
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr'), categories: [k] });
    await check('before', categoryUrl(k), 'articles', []);
    await check('before', categoryUrl(k), 'articles', [x], 'locale=fr');
    await put(categoryUrl(k), { articles: { connect: [x] } });
    await check('connected from the en category', categoryUrl(k), 'articles', [x]);
    await check('en version of the article', articleUrl(x), 'categories', [k]);
    await check('fr side untouched', categoryUrl(k), 'articles', [x], 'locale=fr');
  });
});

describe('manyToOne ↔ oneToMany: article.author ↔ author.articles', () => {
  it('author.articles lists articles in the order they chose the author, unchanged after they are re-published (incl. a draft edit) and gain a fr version', async () => {
    const au = await newAuthor();
    const x = await newArticle({ author: au });
    const y = await newArticle({ author: au });
    const z = await newArticle({ author: au });
    await check('first connect', authorUrl(au), 'articles', [x, y, z]);
    await put(articleUrl(y), { summary: 'y' });
    await put(`${articleUrl(x)}?status=draft`, { summary: 'x draft' });
    await put(articleUrl(x), {});
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr') });
    await put(articleUrl(x), { summary: 'x after fr' });
    await put(authorUrl(au), { bio: 'changed' });
    await check('after re-publishing', authorUrl(au), 'articles', [x, y, z]);
    for (const id of [x, y, z]) await check('owner side', articleUrl(id), 'author', [au]);
    await check('the fr version has its own (empty) author', articleUrl(x), 'author', [], 'locale=fr');
  });

  it("author.articles keeps an article's place when the article is re-published with the same author sent again", async () => {
    const au = await newAuthor();
    const x = await newArticle({ author: au });
    const y = await newArticle({ author: au });
    await check('first connect', authorUrl(au), 'articles', [x, y]);
    await put(articleUrl(x), { summary: 'saved again', author: au });
    await check('x re-sent its author', authorUrl(au), 'articles', [x, y]);
  });

  it('an order set from the author side holds in both statuses and after the articles are re-published; connect + position reorders it', async () => {
    const [x, y, z] = [await newArticle(), await newArticle(), await newArticle()];
    const au = await newAuthor({ articles: [z, x, y] });
    await check('set from the author', authorUrl(au), 'articles', [z, x, y]);
    for (const id of [x, y, z]) await check('owner side', articleUrl(id), 'author', [au]);
    await put(articleUrl(x), { summary: 'x' });
    await put(authorUrl(au), { bio: 'changed' });
    await check('after re-publishing', authorUrl(au), 'articles', [z, x, y]);
    await put(authorUrl(au), { articles: { connect: [{ documentId: y, position: { after: z } }] } });
    await check('y after z', authorUrl(au), 'articles', [z, y, x]);
    await put(articleUrl(z), { summary: 'z' });
    await check('re-published after the move', authorUrl(au), 'articles', [z, y, x]);
  });

  it('a draft-only article connected from the author side appears at its place once the article is published', async () => {
    const x = await newArticle();
    const w = await newArticle({}, '?status=draft');
    const y = await newArticle();
    const au = await newAuthor({ articles: [x, w, y] });
    await checkOne('article still a draft: published', authorUrl(au), 'articles', [x, y]);
    await checkOne('article still a draft: draft', authorUrl(au), 'articles', [x, w, y], 'status=draft');
    await checkOne('article still a draft: its own draft', articleUrl(w), 'author', [au], 'status=draft');
    await put(articleUrl(w), {});
    await check('article published', authorUrl(au), 'articles', [x, w, y]);
    await check('article published: its side', articleUrl(w), 'author', [au]);
  });

  it("moving an article to another author appends it there and leaves the first author's others in order", async () => {
    const [a1, a2] = [await newAuthor(), await newAuthor()];
    const x = await newArticle({ author: a1 });
    const y = await newArticle({ author: a1 });
    const z = await newArticle({ author: a1 });
    const v = await newArticle({ author: a2 });
    await put(articleUrl(y), { author: a2 });
    await check('first author', authorUrl(a1), 'articles', [x, z]);
    await check('second author', authorUrl(a2), 'articles', [v, y]);
    await put(articleUrl(x), { summary: 'x' });
    await check('first author after a re-publish', authorUrl(a1), 'articles', [x, z]);
  });
});

describe('oneToMany one-way: article.related and homepage.featured', () => {
  it('article.related keeps its order through re-publish, a draft edit then publish, re-publishing its targets and a new fr version', async () => {
    const [q1, q2, q3] = [await newArticle(), await newArticle(), await newArticle()];
    const x = await newArticle({ related: [q3, q1, q2] });
    const p = articleUrl(x);
    await check('created', p, 'related', [q3, q1, q2]);
    await put(p, { summary: 'again' });
    await check('re-published', p, 'related', [q3, q1, q2]);
    await put(`${p}?status=draft`, { summary: 'draft' });
    await put(p, {});
    await check('draft published', p, 'related', [q3, q1, q2]);
    await put(articleUrl(q1), { summary: 'target re-published' });
    await put(`${articleUrl(q3)}?status=draft`, { summary: 'target draft' });
    await put(articleUrl(q3), {});
    await check('targets re-published', p, 'related', [q3, q1, q2]);
    await put(`${p}?locale=fr`, { title: uniq('related fr') });
    await put(p, { summary: 'after fr' });
    await check('fr version added', p, 'related', [q3, q1, q2]);
    await check('the fr version', p, 'related', [], 'locale=fr');
  });

  it('article.related: a draft-only target appears in its original position once published, without re-saving the article', async () => {
    const q1 = await newArticle();
    const w = await newArticle({}, '?status=draft');
    const q2 = await newArticle();
    const x = await newArticle({ related: [q1, w, q2] });
    const p = articleUrl(x);
    await checkOne('target still a draft: published', p, 'related', [q1, q2]);
    await checkOne('target still a draft: draft', p, 'related', [q1, w, q2], 'status=draft');
    await put(p, { summary: 're-published while the target is a draft' });
    await checkOne('re-published: published', p, 'related', [q1, q2]);
    await put(articleUrl(w), {});
    await check('target published', p, 'related', [q1, w, q2]);
  });

  it('article.related: connect + position on a re-published article keeps the others in relative order', async () => {
    const [q1, q2, q3, q4] = [await newArticle(), await newArticle(), await newArticle(), await newArticle()];
    const x = await newArticle({ related: [q1, q2, q3] });
    const p = articleUrl(x);
    await put(p, { summary: 'again' });
    await put(p, {
      related: {
        connect: [
          { documentId: q4, position: { before: q2 } },
          { documentId: q3, position: { start: true } },
        ],
      },
    });
    await check('reordered', p, 'related', [q3, q1, q4, q2]);
    await put(p, { summary: 'again 2' });
    await check('re-published', p, 'related', [q3, q1, q4, q2]);
  });

  it('homepage.featured keeps its order through a draft edit, publish, re-publishing its targets and a fr version that holds its own order', async () => {
    const [x, y, z] = [await newArticle(), await newArticle(), await newArticle()];
    await put('/api/homepage', { headline: uniq('home'), featured: [y, z, x] });
    await check('set', '/api/homepage', 'featured', [y, z, x]);
    await put('/api/homepage?status=draft', { headline: uniq('home draft') });
    await check('after a draft edit', '/api/homepage', 'featured', [y, z, x]);
    await put('/api/homepage', {});
    await check('draft published', '/api/homepage', 'featured', [y, z, x]);
    await put(articleUrl(z), { summary: 'z' });
    await put(articleUrl(y), { summary: 'y' });
    await check('targets re-published', '/api/homepage', 'featured', [y, z, x]);
    await put('/api/homepage?locale=fr', { headline: uniq('accueil') });
    await put('/api/homepage', { headline: uniq('home again') });
    await check('fr version added', '/api/homepage', 'featured', [y, z, x]);
    await put(`${articleUrl(x)}?locale=fr`, { title: uniq('x fr') });
    await put(`${articleUrl(z)}?locale=fr`, { title: uniq('z fr') });
    await put('/api/homepage?locale=fr', { featured: [z, x] });
    await check('fr holds its own order', '/api/homepage', 'featured', [z, x], 'locale=fr');
    await check('en unchanged', '/api/homepage', 'featured', [y, z, x]);
  });

  it('homepage.featured: a draft-only article appears at its place once published; connect + position reorders the rest in order', async () => {
    const [x, y] = [await newArticle(), await newArticle()];
    const w = await newArticle({}, '?status=draft');
    const v = await newArticle();
    await put('/api/homepage', { headline: uniq('home'), featured: [x, w, y] });
    await checkOne('target still a draft: published', '/api/homepage', 'featured', [x, y]);
    await checkOne('target still a draft: draft', '/api/homepage', 'featured', [x, w, y], 'status=draft');
    await put(articleUrl(w), {});
    await check('target published', '/api/homepage', 'featured', [x, w, y]);
    await put('/api/homepage', {
      featured: {
        connect: [
          { documentId: v, position: { after: x } },
          { documentId: y, position: { start: true } },
        ],
      },
    });
    await check('reordered', '/api/homepage', 'featured', [y, x, v, w]);
    await put('/api/homepage', { headline: uniq('home again') });
    await check('re-published', '/api/homepage', 'featured', [y, x, v, w]);
  });
});

describe('oneToOne both sides: author.profile ↔ profile.author', () => {
  it('set from the author side, seen from both sides after each side is updated', async () => {
    const p1 = await newProfile();
    const au = await newAuthor({ profile: p1 });
    await check('created', authorUrl(au), 'profile', [p1]);
    await check('created', profileUrl(p1), 'author', [au]);
    await put(authorUrl(au), { bio: 'changed' });
    await put(profileUrl(p1), { website: 'https://example.test' });
    await check('after updates', authorUrl(au), 'profile', [p1]);
    await check('after updates', profileUrl(p1), 'author', [au]);
    await put(authorUrl(au), { bio: 'changed again', profile: p1 });
    await check('profile re-sent', authorUrl(au), 'profile', [p1]);
    await check('profile re-sent', profileUrl(p1), 'author', [au]);
  });

  it('set from the profile side, it takes the author from its previous profile; both sides agree after updates', async () => {
    const p1 = await newProfile();
    const au = await newAuthor({ profile: p1 });
    const p2 = await newProfile({ author: au });
    await check('taken', authorUrl(au), 'profile', [p2]);
    await check('taken', profileUrl(p2), 'author', [au]);
    await check('taken', profileUrl(p1), 'author', []);
    await put(profileUrl(p2), { website: 'https://p2.test' });
    await put(authorUrl(au), { bio: 'changed' });
    await check('after updates', authorUrl(au), 'profile', [p2]);
    await check('after updates', profileUrl(p2), 'author', [au]);
    const other = await newAuthor();
    await put(profileUrl(p2), { author: other });
    await check('moved to another author', authorUrl(other), 'profile', [p2]);
    await check('moved to another author', authorUrl(au), 'profile', []);
  });
});

describe('self relation: category.parent ↔ category.children', () => {
  it('category.children set from the parent keeps its order through parent and child updates and a new parent locale; each child points back', async () => {
    const [c1, c2, c3] = [await newCategory(), await newCategory(), await newCategory()];
    const parent = await newCategory({ children: [c3, c1, c2] });
    await check('set', categoryUrl(parent), 'children', [c3, c1, c2]);
    await put(categoryUrl(parent), { description: 'changed' });
    await put(categoryUrl(c1), { description: 'child changed' });
    await put(`${categoryUrl(parent)}?locale=fr`, { name: uniq('parent fr') });
    await check('after updates and a fr version', categoryUrl(parent), 'children', [c3, c1, c2]);
    await check('the fr version', categoryUrl(parent), 'children', [], 'locale=fr');
    for (const c of [c1, c2, c3]) await check('child side', categoryUrl(c), 'parent', [parent]);
  });

  it('category.children lists children in the order they chose the parent; a child saved again with the same parent keeps its place', async () => {
    const parent = await newCategory();
    const c1 = await newCategory({ parent });
    const c2 = await newCategory({ parent });
    const c3 = await newCategory({ parent });
    await check('first connect', categoryUrl(parent), 'children', [c1, c2, c3]);
    await put(categoryUrl(c2), { description: 'unrelated' });
    await put(categoryUrl(parent), { description: 'unrelated' });
    await check('after updates', categoryUrl(parent), 'children', [c1, c2, c3]);
    await put(categoryUrl(c1), { description: 'saved again', parent });
    await check('c1 re-sent its parent', categoryUrl(parent), 'children', [c1, c2, c3]);
  });

  it('connect + position on category.children reorders; moving a child to another parent keeps the rest in order', async () => {
    const [c1, c2, c3, c4] = [await newCategory(), await newCategory(), await newCategory(), await newCategory()];
    const [p1, p2] = [await newCategory({ children: [c1, c2, c3] }), await newCategory({ children: [c4] })];
    await put(categoryUrl(p1), { children: { connect: [{ documentId: c3, position: { before: c1 } }] } });
    await check('c3 before c1', categoryUrl(p1), 'children', [c3, c1, c2]);
    await put(categoryUrl(c1), { parent: p2 });
    await check('c1 moved away', categoryUrl(p1), 'children', [c3, c2]);
    await check('c1 appended to the other parent', categoryUrl(p2), 'children', [c4, c1]);
    await put(categoryUrl(p1), { description: 'changed' });
    await check('after a parent update', categoryUrl(p1), 'children', [c3, c2]);
  });
});
