// Strapi 5.54's users routes read through its query layer without a transaction, so one pooled
// connection serves their statements in turn and a populated key with nothing below it (an empty zone, a
// level naming nothing) comes with the plain ones, in the order asked; the document service's reads put
// it later. Each order below was measured on the reference with the same schema and data.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/components/sw/tag.json': JSON.stringify({ collectionName: 'components_sw_tags', info: { displayName: 'tag' }, attributes: { label: { type: 'string' } } }),
  'src/components/sw/seo.json': JSON.stringify({
    collectionName: 'components_sw_seos',
    info: { displayName: 'seo' },
    attributes: { metaTitle: { type: 'string' }, og: { type: 'component', component: 'sw.tag' } },
  }),
  'src/api/plain/content-types/plain/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'plains',
    info: { singularName: 'plain', pluralName: 'plains' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      tags: { type: 'component', component: 'sw.tag', repeatable: true },
      seo: { type: 'component', component: 'sw.seo' },
      blocks: { type: 'dynamiczone', components: ['sw.tag', 'sw.seo'] },
    },
  }),
  'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
    attributes: { favorite: { type: 'relation', relation: 'manyToOne', target: 'api::plain.plain' } },
  }),
};

let t: TestApp;
let plain: string;
let userId: number;
beforeAll(async () => {
  t = await startExampleWith(FILES);
  plain = await writeDocument(t, 'POST', '/api/plains', { title: 'P', tags: [{ label: 'a' }], seo: { metaTitle: 'm' }, blocks: [] });
  const reg = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'fan', email: 'fan@example.com', password: 'secret123' } });
  expect(reg.status, reg.text).toBe(200);
  userId = reg.body.user.id as number;
  const linked = await t.request('PUT', `/api/users/${userId}`, { body: { favorite: plain } });
  expect(linked.status, linked.text).toBe(200);
});
afterAll(async () => {
  await t?.close();
});

const keys = (o: Record<string, unknown>): string[] => Object.keys(o).filter((k) => ['tags', 'seo', 'blocks'].includes(k));

describe('populated key order on the users routes', () => {
  it('an empty zone comes with the plain keys in the order asked, where a document read puts it after them', async () => {
    const asked = 'populate[favorite][populate][blocks]=true&populate[favorite][populate][seo]=true';
    expect(keys((await t.get(`/api/users/${userId}?${asked}`)).body.favorite)).toEqual(['blocks', 'seo']);
    expect(keys((await t.get(`/api/users?${asked}`)).body[0].favorite)).toEqual(['blocks', 'seo']);
    expect(keys((await t.get(`/api/plains/${plain}?populate[blocks]=true&populate[seo]=true`)).body.data)).toEqual(['seo', 'blocks']);
  });

  it('a level naming nothing below a list that has rows comes with the plain keys too', async () => {
    const r = await t.get(`/api/users/${userId}?populate[favorite][populate][tags][populate]=*&populate[favorite][populate][seo]=true`);
    expect(keys(r.body.favorite)).toEqual(['tags', 'seo']);
    expect(keys((await t.get(`/api/plains/${plain}?populate[tags][populate]=*&populate[seo]=true`)).body.data)).toEqual(['seo', 'tags']);
  });
});
