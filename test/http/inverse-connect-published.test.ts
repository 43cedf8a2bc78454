// Connecting a document from the side that doesn't store the links (a category's items, both types
// with draft & publish) moves a single-valued owner (the item's category) in its published version
// too, as Strapi 5.54 answers: the item is listed by its new category only (seen on
// DesumovJP/restaraunt-OS and ChanKinTak/strapi-cms, where the published item kept both links).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';
import { project } from '../config/helpers.js';

let t: TestApp;
const type = (single: string, plural: string, rel: Record<string, unknown>): string =>
  JSON.stringify({
    kind: 'collectionType',
    info: { singularName: single, pluralName: plural },
    options: { draftAndPublish: true },
    attributes: { name: { type: 'string' }, ...rel },
  });

beforeAll(async () => {
  const dir = project({
    'src/api/category/content-types/category/schema.json': type('category', 'categories', {
      items: { type: 'relation', relation: 'oneToMany', target: 'api::item.item', mappedBy: 'category' },
    }),
    'src/api/item/content-types/item/schema.json': type('item', 'items', {
      category: { type: 'relation', relation: 'manyToOne', target: 'api::category.category', inversedBy: 'items' },
    }),
  });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
});

const send = (method: string, path: string, data: Record<string, unknown>): Promise<string> => writeDocument(t, method, path, data);

describe('connecting from the inverse side of a to-one owner', () => {
  it('the owner’s published version leaves its former target, read from either side', async () => {
    const a = await send('POST', '/api/categories', { name: 'A' });
    const b = await send('POST', '/api/categories', { name: 'B' });
    const x = await send('POST', '/api/items', { name: 'X', category: a });
    await send('PUT', `/api/categories/${b}`, { items: { connect: [x] } });
    for (const status of ['published', 'draft']) {
      const categories = await t.get(`/api/categories?status=${status}&fields[0]=name&populate[items][fields][0]=name&sort=name`);
      expect(
        categories.body.data.map((r: { name: string; items: { name: string }[] }) => [r.name, r.items.map((i) => i.name)]),
        status,
      ).toEqual([
        ['A', []],
        ['B', ['X']],
      ]);
      const item = await t.get(`/api/items/${x}?status=${status}&fields[0]=name&populate[category][fields][0]=name`);
      expect(item.body.data.category, status).toMatchObject({ name: 'B' });
      const filtered = await t.get(`/api/categories?status=${status}&filters[items][documentId][$eq]=${x}&fields[0]=name`);
      expect(
        filtered.body.data.map((r: { name: string }) => r.name),
        status,
      ).toEqual(['B']);
    }
  });
});
