// A new component's left-out fields take their defaults before the publish rules read them, as Strapi
// 5.54 checks them: a required field with a default may be left out (BrightBrainsBr/Site's block
// filters, whose required `value` defaults to "/", were refused).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { project } from '../config/helpers.js';

let t: TestApp;
const attributes = {
  name: { type: 'string' },
  filters: { type: 'component', component: 'kit.filter', repeatable: true },
  one: { type: 'component', component: 'kit.filter', repeatable: false },
  zone: { type: 'dynamiczone', components: ['kit.filter', 'kit.holder'] },
};
const type = (single: string, plural: string, draftAndPublish: boolean): string =>
  JSON.stringify({ kind: 'collectionType', info: { singularName: single, pluralName: plural }, options: { draftAndPublish }, attributes });

beforeAll(async () => {
  const dir = project({
    'src/api/block/content-types/block/schema.json': type('block', 'blocks', true),
    'src/api/plain/content-types/plain/schema.json': type('plain', 'plains', false),
    'src/components/kit/filter.json': JSON.stringify({
      collectionName: 'components_kit_filters',
      attributes: { value: { type: 'string', required: true, default: '/' }, weight: { type: 'integer', required: true, default: 1 }, note: { type: 'string', required: true } },
    }),
    'src/components/kit/holder.json': JSON.stringify({ collectionName: 'components_kit_holders', attributes: { inner: { type: 'component', component: 'kit.filter' } } }),
  });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
});

describe('defaults of new components', () => {
  for (const plural of ['blocks', 'plains']) {
    it(`a required field with a default may be left out, at every level (${plural})`, async () => {
      const data = { name: 'a', filters: [{ note: 'n' }], one: { note: 'n' }, zone: [{ __component: 'kit.holder', inner: { note: 'n' } }] };
      const r = await t.request('POST', `/api/${plural}`, { body: { data } });
      expect(r.status, r.text).toBe(201);
      const read = await t.get(`/api/${plural}/${r.body.data.documentId as string}?populate[filters]=true&populate[one]=true&populate[zone][on][kit.holder][populate]=inner`);
      const f = { value: '/', weight: 1, note: 'n' };
      expect(read.body.data).toMatchObject({ filters: [f], one: f, zone: [{ __component: 'kit.holder', inner: f }] });
    });

    it(`a required field without one is still refused (${plural})`, async () => {
      const r = await t.request('POST', `/api/${plural}`, { body: { data: { name: 'b', filters: [{}] } } });
      expect(r.status).toBe(400);
      expect(r.body.error.details.errors.map((e: { path: string[] }) => e.path.join('.'))).toEqual(['filters.0.note']);
    });
  }
});
