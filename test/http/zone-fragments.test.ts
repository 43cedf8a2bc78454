// Dynamic-zone `on` fragments, as the reference Strapi 5.54 answers them: only the entries of the
// components a fragment names, each read as its fragment says (fields, filters, populate); `on`
// under any other attribute is refused with Strapi's message.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';

let t: TestApp;
const doc: Record<string, string> = {};

async function create(plural: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', `/api/${plural}`, { body: { data } });
  if (r.status !== 201) throw new Error(`${plural}: ${r.status} ${r.text}`);
  return r.body.data.documentId;
}

beforeAll(async () => {
  t = await startTestApp();
  doc['person'] = await create('authors', { name: 'Quoted', age: 40 });
  const blocks = (n: number) => [
    { __component: 'shared.rich-text', body: `text ${n}` },
    { __component: 'shared.quote', title: `Q${n}`, body: 'B', person: doc['person'] },
    { __component: 'shared.slider', files: [] },
    { __component: 'shared.quote', title: 'Second', body: null },
  ];
  doc['a'] = await create('articles', { title: 'Zoned', blocks: blocks(1) });
  for (let i = 2; i <= 4; i++) await create('articles', { title: `Zoned ${i}`, blocks: blocks(i) });
});
afterAll(async () => {
  await t.close();
});

async function zone(populate: string): Promise<unknown> {
  const r = await t.get(`/api/articles/${doc['a']}?fields[0]=title&${populate}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.blocks;
}

const ID = expect.any(Number);

describe('dynamic-zone on fragments', () => {
  it('return only the entries of the components they name', async () => {
    const blocks = await zone('populate[blocks][on][shared.quote]=true');
    expect(blocks).toEqual([
      { id: ID, title: 'Q1', body: 'B', __component: 'shared.quote' },
      { id: ID, title: 'Second', body: null, __component: 'shared.quote' },
    ]);
    expect(JSON.stringify(blocks)).not.toMatch(/shared\.(rich-text|slider)/);
  });

  it('several fragments keep the zone order; a fragment populates inside its entries', async () => {
    expect(await zone('populate[blocks][on][shared.quote][populate][person][fields][0]=name&populate[blocks][on][shared.rich-text]=true')).toEqual([
      { id: ID, body: 'text 1', __component: 'shared.rich-text' },
      { id: ID, title: 'Q1', body: 'B', person: { id: ID, documentId: doc['person'], name: 'Quoted' }, __component: 'shared.quote' },
      { id: ID, title: 'Second', body: null, person: null, __component: 'shared.quote' },
    ]);
  });

  it("a fragment's fields and filters shape and select its entries", async () => {
    expect(await zone('populate[blocks][on][shared.quote][fields][0]=title')).toEqual([
      { id: ID, title: 'Q1', __component: 'shared.quote' },
      { id: ID, title: 'Second', __component: 'shared.quote' },
    ]);
    expect(await zone('populate[blocks][on][shared.quote][filters][title][$eq]=Second')).toEqual([{ id: ID, title: 'Second', body: null, __component: 'shared.quote' }]);
    expect(await zone('populate[blocks][on][shared.quote][filters][title][$eq]=nope')).toEqual([]);
    expect(await zone('populate[blocks][on][shared.quote][filters][person][name][$eq]=Quoted&populate[blocks][on][shared.slider]=true')).toEqual([
      { id: ID, title: 'Q1', body: 'B', __component: 'shared.quote' },
      { id: ID, __component: 'shared.slider' },
    ]);
  });

  it('a fragment set to false still names its component, as in Strapi', async () => {
    expect(await zone('populate[blocks][on][shared.quote]=false')).toEqual([
      { id: ID, title: 'Q1', body: 'B', __component: 'shared.quote' },
      { id: ID, title: 'Second', body: null, __component: 'shared.quote' },
    ]);
  });

  it('fragments replace a populate=* beside them', async () => {
    expect(await zone('populate[blocks][populate]=*&populate[blocks][on][shared.quote][fields][0]=title')).toEqual([
      { id: ID, title: 'Q1', __component: 'shared.quote' },
      { id: ID, title: 'Second', __component: 'shared.quote' },
    ]);
  });

  it('without fragments every entry comes back: true, populate=* and a dot path', async () => {
    for (const populate of ['populate[blocks]=true', 'populate[blocks][populate]=*', 'populate=blocks.person']) {
      const blocks = (await zone(populate)) as { __component: string }[];
      expect(
        blocks.map((b) => b.__component),
        populate,
      ).toEqual(['shared.rich-text', 'shared.quote', 'shared.slider', 'shared.quote']);
    }
  });

  it('on a single type too', async () => {
    const put = await t.request('PUT', '/api/homepage', {
      body: {
        data: {
          headline: 'Home',
          hero: [
            { __component: 'shared.rich-text', body: 'hero' },
            { __component: 'shared.quote', title: 'HQ' },
          ],
        },
      },
    });
    expect(put.status, put.text).toBe(200);
    const r = await t.get('/api/homepage?populate[hero][on][shared.quote][fields][0]=title');
    expect(r.body.data.hero).toEqual([{ id: ID, title: 'HQ', __component: 'shared.quote' }]);
  });

  it('fragments with filters cost the same statements for one document as for many', async () => {
    const q = 'populate[blocks][on][shared.quote][filters][title][$ne]=x&populate[blocks][on][shared.quote][populate][person]=true&populate[blocks][on][shared.slider]=true';
    const [one, four] = await statementCosts(t, [`/api/articles?pagination[pageSize]=1&${q}`, `/api/articles?pagination[pageSize]=4&${q}`]);
    expect(four).toBe(one);
  });
});

describe('on under an attribute that is not a dynamic zone', () => {
  it("is Strapi's 'Using fragments is not permitted' error, at any depth", async () => {
    for (const [query, attribute, uid] of [
      ['populate[seo][on][shared.quote]=true', 'seo', 'api::article.article'],
      ['populate[author][on][shared.quote][populate]=*', 'author', 'api::article.article'],
      ['populate[cover][on][shared.quote]=true', 'cover', 'api::article.article'],
      ['populate[localizations][on][shared.quote]=true', 'localizations', 'api::article.article'],
      ['populate[seo][fields][0]=metaTitle&populate[seo][on][shared.quote]=true', 'seo', 'api::article.article'],
      ['populate[seo][populate][openGraph][on][shared.quote]=true', 'openGraph', 'shared.seo'],
      ['populate[author][populate][avatar][on][shared.quote]=true', 'avatar', 'api::author.author'],
      ['populate[blocks][on][shared.quote][populate][person][on][shared.quote]=true', 'person', 'shared.quote'],
    ] as const) {
      const r = await t.get(`/api/articles?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body, query).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `Using fragments is not permitted to populate "${attribute}" in "${uid}"`, details: {} },
      });
    }
  });

  it('a key that names no component, or an on that is not an object, is an Invalid key', async () => {
    for (const [query, key, path] of [
      ['populate[author][on][x]=true', 'x', 'author.on.x'],
      ['populate[seo][on]=x', 'on', 'seo.on'],
      ['populate[blocks][on][shared.nope]=true', 'shared.nope', 'blocks.on.shared.nope'],
    ] as const) {
      const r = await t.get(`/api/articles?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.body.error, query).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key} at ${path}`,
        details: { key, path, source: 'query', param: 'populate' },
      });
    }
  });
});
