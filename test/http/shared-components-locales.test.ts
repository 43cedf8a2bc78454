// A component or dynamic zone that isn't localized is the document's in every locale, as its shared
// scalars are: written in one locale, it is written in the others' rows of the same status, as Strapi
// 5.54 does (markketplace's event.extensions kept its old entries in French). Steps and answers from the
// reference.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { exampleWith } from '../support/example-with.js';

const shared = { i18n: { localized: false } };
const FILES = {
  'src/components/blocks/kv.json': JSON.stringify({ collectionName: 'components_blocks_kvs', info: { displayName: 'kv' }, attributes: { k: { type: 'string' } } }),
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
    },
  }),
};

let project: ReturnType<typeof exampleWith> | undefined;
let t: TestApp;
beforeAll(async () => {
  project = exampleWith(FILES);
  t = await startTestApp({ dir: project.dir });
});
afterAll(async () => {
  await t?.close();
  project?.remove();
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
});
