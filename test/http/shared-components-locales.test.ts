// A component or dynamic zone that isn't localized is the document's in every locale, as its shared
// scalars are: written in one locale, it is written in the others' rows of the same status, as Strapi
// 5.54 does (markketplace's event.extensions kept its old entries in French). Steps and answers from the
// reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const shared = { i18n: { localized: false } };
const FILES = {
  'src/components/blocks/kv.json': JSON.stringify({ collectionName: 'components_blocks_kvs', info: { displayName: 'kv' }, attributes: { k: { type: 'string' } } }),
  'src/components/blocks/uq.json': JSON.stringify({ collectionName: 'components_blocks_uqs', info: { displayName: 'uq' }, attributes: { code: { type: 'string', unique: true } } }),
  'src/api/doc/content-types/doc/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'docs',
    info: { singularName: 'doc', pluralName: 'docs' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      shared: { type: 'string', pluginOptions: shared },
      one: { type: 'component', component: 'blocks.kv', pluginOptions: shared },
      many: { type: 'component', component: 'blocks.kv', repeatable: true, pluginOptions: shared },
      zone: { type: 'dynamiczone', components: ['blocks.kv'], pluginOptions: shared },
      codes: { type: 'component', component: 'blocks.uq', repeatable: true, pluginOptions: shared },
      sku: { type: 'string', unique: true, pluginOptions: shared },
    },
  }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

type Doc = { shared: string; one: { k: string } | null; many: { k: string }[]; zone: { k: string }[] };
const view = (d: Doc) => ({ shared: d.shared, one: d.one?.k ?? null, many: d.many.map((x) => x.k), zone: d.zone.map((x) => x.k) });

describe('components and zones without locales', () => {
  it('written in one locale, they are written in the other locales of the same status', async () => {
    const created = await t.request('POST', '/api/docs', {
      body: { data: { title: 'en', shared: 's1', one: { k: 'o1' }, many: [{ k: 'm1' }], zone: [{ __component: 'blocks.kv', k: 'z1' }] } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.documentId as string;
    expect((await t.request('PUT', `/api/docs/${id}?locale=fr`, { body: { data: { title: 'fr' } } })).status).toBe(200);
    const read = async (q: string): Promise<unknown> => view((await t.get(`/api/docs/${id}?populate=*&${q}`)).body.data as Doc);
    expect(await read('locale=fr&status=draft')).toEqual({ shared: 's1', one: 'o1', many: ['m1'], zone: ['z1'] });

    const draft = await t.request('PUT', `/api/docs/${id}?status=draft`, { body: { data: { shared: 's3', one: { k: 'o3' }, many: [{ k: 'm4' }], zone: [] } } });
    expect(draft.status, draft.text).toBe(200);
    expect(await read('locale=fr&status=draft')).toEqual({ shared: 's3', one: 'o3', many: ['m4'], zone: [] });
    // a draft write leaves every published version as it was
    expect(await read('locale=fr')).toEqual({ shared: 's1', one: 'o1', many: ['m1'], zone: ['z1'] });

    const published = await t.request('PUT', `/api/docs/${id}`, { body: { data: { many: [{ k: 'm9' }, { k: 'm10' }] } } });
    expect(published.status, published.text).toBe(200);
    expect(await read('locale=fr')).toMatchObject({ many: ['m9', 'm10'] });
    expect(await read('locale=fr&status=draft')).toMatchObject({ many: ['m4'] });
  });

  it('a unique value in shared fields is held in every locale the write makes it live in, not only the one written', async () => {
    const other = await t.request('POST', '/api/docs?locale=fr', { body: { data: { title: 'b', codes: [{ code: 'X' }], sku: 'S1' } } });
    expect(other.status, other.text).toBe(201);
    const id = (await t.request('POST', '/api/docs?status=draft', { body: { data: { title: 'a' } } })).body.data.documentId as string;
    expect((await t.request('PUT', `/api/docs/${id}?locale=fr`, { body: { data: { title: 'afr' } } })).status).toBe(200);
    const notUnique = (path: string[], value: string) => ({ path, message: 'This attribute must be unique', name: 'ValidationError', value });
    const codes = await t.request('PUT', `/api/docs/${id}`, { body: { data: { codes: [{ code: 'X' }] } } });
    expect(codes.status).toBe(400);
    expect(codes.body.error.details.errors).toEqual([notUnique(['codes', '0', 'code'], 'X')]);
    const sku = await t.request('PUT', `/api/docs/${id}`, { body: { data: { sku: 'S1' } } });
    expect(sku.body.error.details.errors).toEqual([notUnique(['sku'], 'S1')]);
    expect((await t.get('/api/docs?locale=fr&filters[codes][code][$eq]=X&fields[0]=title')).body.data.map((d: { title: string }) => d.title)).toEqual(['b']);
    expect((await t.request('PUT', `/api/docs/${id}`, { body: { data: { codes: [{ code: 'Y' }], sku: 'S2' } } })).status).toBe(200);
  });

  // SQLite's bound (32,766 values per statement) is the one these lists pass; on PostgreSQL and MySQL the
  // rows are inserted and copied a table at a time, each copy taking the id its place in the run gives it
  it('long lists reach every locale: the rows replaced across locales are named a bounded number at a time', async () => {
    const created = await t.request('POST', '/api/docs?status=draft', { body: { data: { title: 'long' } } });
    const id = created.body.data.documentId as string;
    for (const locale of ['fr', 'de']) expect((await t.request('PUT', `/api/docs/${id}?locale=${locale}&status=draft`, { body: { data: { title: locale } } })).status).toBe(200);
    const lists = (tag: string) => ({
      many: Array.from({ length: 10_000 }, (_, i) => ({ k: `${tag}${i}` })),
      zone: Array.from({ length: 10_000 }, (_, i) => ({ __component: 'blocks.kv', k: `${tag}z${i}` })),
    });
    for (const tag of ['a', 'b']) {
      const r = await t.request('PUT', `/api/docs/${id}?status=draft&fields[0]=title`, { body: { data: lists(tag) } });
      expect(r.status, r.text.slice(0, 300)).toBe(200);
    }
    // every locale's copy holds the list whole and in order (a copy given another row's id would not)
    for (const locale of ['en', 'fr', 'de']) {
      const r = await t.get(`/api/docs/${id}?locale=${locale}&status=draft&populate[many][fields][0]=k&populate[zone][on][blocks.kv][fields][0]=k`);
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect((r.body.data.many as { k: string }[]).map((e) => e.k)).toEqual(lists('b').many.map((e) => e.k));
      expect((r.body.data.zone as { k: string }[]).map((e) => e.k)).toEqual(lists('b').zone.map((e) => e.k));
    }
  }, 180_000);
});
