// `unique: true` on an attribute of a component, as Strapi 5.54 holds it when a version goes live
// (fleszevents-strapi5's seo and next-event components): no repeat within the document's own list or zone,
// and none at the same place in another document's live version. Each answer below is the reference's
// to the same steps on the same schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/components/uq/seo.json': JSON.stringify({ collectionName: 'components_uq_seos', info: { displayName: 'seo' }, attributes: { metaTitle: { type: 'string', unique: true } } }),
  'src/components/uq/tag.json': JSON.stringify({ collectionName: 'components_uq_tags', info: { displayName: 'tag' }, attributes: { label: { type: 'string', unique: true } } }),
  'src/api/post/content-types/post/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'posts',
    info: { singularName: 'post', pluralName: 'posts' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      seo: { type: 'component', component: 'uq.seo' },
      links: { type: 'component', component: 'uq.tag', repeatable: true },
      blocks: { type: 'dynamiczone', components: ['uq.tag', 'uq.seo'] },
    },
  }),
};

let t: TestApp;
let first: string;
beforeAll(async () => {
  t = await startExampleWith(FILES);
  first = await writeDocument(t, 'POST', '/api/posts', { title: 'A', seo: { metaTitle: 'm' }, links: [{ label: 'x' }], blocks: [{ __component: 'uq.tag', label: 'z' }] });
});
afterAll(async () => {
  await t?.close();
});

const clash = (path: (string | number)[], value: string) => ({ path: path.map(String), message: 'This attribute must be unique', name: 'ValidationError', value });
async function refused(data: Record<string, unknown>): Promise<unknown[]> {
  const r = await t.request('POST', '/api/posts', { body: { data } });
  expect(r.status, r.text).toBe(400);
  return r.body.error.details.errors as unknown[];
}

describe('unique attributes inside components', () => {
  it('a value another live document holds at the same place is refused, at its path', async () => {
    expect(await refused({ title: 'B', seo: { metaTitle: 'm' } })).toEqual([clash(['seo', 'metaTitle'], 'm')]);
    expect(await refused({ title: 'E', links: [{ label: 'y' }, { label: 'x' }] })).toEqual([clash(['links', 1, 'label'], 'x')]);
    expect(await refused({ title: 'F', blocks: [{ __component: 'uq.tag', label: 'z' }] })).toEqual([clash(['blocks', 0, 'label'], 'z')]);
    // a long list is compared with the other documents at once: the clash is still named at its index
    const many = Array.from({ length: 30 }, (_, i) => ({ label: i === 17 ? 'x' : `new ${i}` }));
    expect(await refused({ title: 'K', links: many })).toEqual([clash(['links', 17, 'label'], 'x')]);
    expect(await refused({ title: 'J', seo: { metaTitle: 'm' }, links: [{ label: 'x' }] })).toEqual([clash(['seo', 'metaTitle'], 'm'), clash(['links', 0, 'label'], 'x')]);
  });

  it('a value repeated within the document names every repeat', async () => {
    expect(await refused({ title: 'D', links: [{ label: 'q' }, { label: 'q' }] })).toEqual([clash(['links', 0, 'label'], 'q'), clash(['links', 1, 'label'], 'q')]);
    expect(
      await refused({
        title: 'G',
        blocks: [
          { __component: 'uq.tag', label: 'w' },
          { __component: 'uq.tag', label: 'w' },
        ],
      }),
    ).toEqual([clash(['blocks', 0, 'label'], 'w'), clash(['blocks', 1, 'label'], 'w')]);
  });

  it('publishing a draft checks the unique values its stored components hold though the write sends none', async () => {
    const draft = await writeDocument(t, 'POST', '/api/posts?status=draft', { title: 'L', seo: { metaTitle: 'm' }, links: [{ label: 'q' }, { label: 'q' }] });
    const r = await t.request('PUT', `/api/posts/${draft}`, { body: { data: { title: 'L2' } } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.details.errors).toEqual([clash(['seo', 'metaTitle'], 'm'), clash(['links', 0, 'label'], 'q'), clash(['links', 1, 'label'], 'q')]);
    expect((await t.request('GET', `/api/posts/${draft}`)).status).toBe(404);
  });

  it('the same value at another place, in a draft, or in the document itself again is no clash', async () => {
    expect((await t.request('POST', '/api/posts', { body: { data: { title: 'H', blocks: [{ __component: 'uq.tag', label: 'x' }] } } })).status).toBe(201);
    expect((await t.request('POST', '/api/posts', { body: { data: { title: 'I', blocks: [{ __component: 'uq.seo', metaTitle: 'm' }] } } })).status).toBe(201);
    expect((await t.request('POST', '/api/posts?status=draft', { body: { data: { title: 'C', seo: { metaTitle: 'm' } } } })).status).toBe(201);
    expect((await t.request('PUT', `/api/posts/${first}`, { body: { data: { title: 'A2' } } })).status).toBe(200);
    expect((await t.request('PUT', `/api/posts/${first}`, { body: { data: { title: 'A3', seo: { metaTitle: 'm' }, links: [{ label: 'x' }] } } })).status).toBe(200);
  });
});
