// A component has no timestamps of its own, so `publishedAt`, `createdAt` and `updatedAt` declared in
// one are its fields like any other, as Strapi 5.54 stores and answers them (a public project's
// `components.hoppy-comic` declares `"publishedAt": {"type": "date"}`). On a content type the names
// stay the entry's own.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/components/blk/comic.json': JSON.stringify({
    collectionName: 'components_blk_comics',
    info: { displayName: 'comic' },
    attributes: { title: { type: 'string' }, publishedAt: { type: 'date' }, createdAt: { type: 'string' }, updatedAt: { type: 'string' } },
  }),
  'src/api/strip/content-types/strip/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'strips',
    info: { singularName: 'strip', pluralName: 'strips' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      info: { type: 'component', component: 'blk.comic', repeatable: false },
      body: { type: 'dynamiczone', components: ['blk.comic'] },
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

describe('a component attribute named as an entry timestamp', () => {
  it('is written, answered and filtered as the component declares it; the entry keeps its own publishedAt', async () => {
    const info = { title: 'i', publishedAt: '2024-01-02', createdAt: 'yesterday', updatedAt: 'u' };
    const created = await t.request('POST', '/api/strips?status=draft', {
      body: { data: { title: 'X', info, body: [{ __component: 'blk.comic', title: 'c', publishedAt: '2024-01-03' }] } },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.documentId as string;
    expect(created.body.data.publishedAt).toBeNull();

    const read = await t.get(`/api/strips/${id}?status=draft&populate=*`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.publishedAt).toBeNull();
    expect(read.body.data.info).toEqual({ id: expect.any(Number), ...info });
    expect(read.body.data.body).toEqual([{ id: expect.any(Number), __component: 'blk.comic', title: 'c', publishedAt: '2024-01-03', createdAt: null, updatedAt: null }]);

    const found = await t.get('/api/strips?status=draft&filters[info][publishedAt][$eq]=2024-01-02&filters[info][createdAt][$eq]=yesterday&fields[0]=title');
    expect(found.status, found.text).toBe(200);
    expect(found.body.data.map((d: { documentId: string }) => d.documentId)).toEqual([id]);
    const none = await t.get('/api/strips?status=draft&filters[info][publishedAt][$eq]=2024-01-03&fields[0]=title');
    expect(none.body.data).toEqual([]);
  });

  it('on a content type is still refused as a field name', async () => {
    const r = await t.request('POST', '/api/strips?status=draft', { body: { data: { title: 'Y', createdAt: '2024-01-01' } } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toBe('Invalid key createdAt');
  });
});
