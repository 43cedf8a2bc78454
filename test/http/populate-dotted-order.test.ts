// Dotted populate names under one parent, in the order Strapi 5.54 answers them: it gathers each
// parent's remainders newest first and reads them again one level down, so the second level comes in
// reverse (where the keys' cost ties), a third level as written, and a bare name after dotted ones
// empties what they asked. Every expectation below was answered by the reference on the same data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
  const profile = await writeDocument(t, 'POST', '/api/profiles', { handle: 'writer', website: 'https://writer.example' });
  const author = await writeDocument(t, 'POST', '/api/authors', { name: 'Writer', profile });
  const tag = await writeDocument(t, 'POST', '/api/tags', { label: 'one' });
  const category = await writeDocument(t, 'POST', '/api/categories', { name: 'Cedar' });
  await writeDocument(t, 'POST', '/api/articles', { title: 'First', author, tags: [tag], categories: [category] });
});
afterAll(async () => {
  await t.close();
});

const POPULATABLE = new Set(['profile', 'articles', 'avatar', 'links', 'categories', 'tags', 'author', 'cover', 'gallery', 'seo', 'blocks', 'related', 'editor']);

/** the populated keys of the first article's `author`, or of `author.articles[0]` */
async function keysOf(query: string, below?: 'articles'): Promise<string[]> {
  const r = await t.get(`/api/articles?fields[0]=title&${query}`);
  expect(r.status, r.text).toBe(200);
  const author = r.body.data[0].author as Record<string, unknown>;
  const at = below ? (author[below] as Record<string, unknown>[])[0]! : author;
  return Object.keys(at).filter((k) => POPULATABLE.has(k));
}

describe('dotted populate names under one parent', () => {
  it('the second level comes newest first, in the list and the comma forms alike', async () => {
    expect(await keysOf('populate[0]=author.profile&populate[1]=author.articles')).toEqual(['articles', 'profile']);
    expect(await keysOf('populate=author.profile,author.articles')).toEqual(['articles', 'profile']);
    expect(await keysOf('populate[0]=author.articles&populate[1]=author.profile')).toEqual(['profile', 'articles']);
  });

  it('the third level keeps the order written', async () => {
    const query = 'populate[0]=author.articles.categories&populate[1]=author.articles.tags&populate[2]=author.articles.author';
    expect(await keysOf(query, 'articles')).toEqual(['categories', 'tags', 'author']);
  });

  it('a bare parent after dotted names empties what they asked; before them it keeps them', async () => {
    expect(await keysOf('populate[0]=author.profile&populate[1]=author')).toEqual([]);
    expect(await keysOf('populate[0]=author&populate[1]=author.profile')).toEqual(['profile']);
    expect(await keysOf('populate[0]=author.profile&populate[1]=author&populate[2]=author.articles')).toEqual(['articles']);
  });

  it('the object form keeps the order written', async () => {
    expect(await keysOf('populate[author][populate][0]=profile&populate[author][populate][1]=articles')).toEqual(['profile', 'articles']);
  });
});
