// A relation given directly (`variant: {documentId, status}`, `variants: [{documentId, status}]`) takes a
// `status` when its target has an attribute named `status`, as Strapi 5.54 does (it checks those keys as
// the target's attributes, then reads `status` as the version to link): ins1derft/Marcus's quote requests
// link a product variant that way. Elsewhere a status there stays Strapi's 400.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExampleWith } from '../support/example-with.js';
import type { TestApp } from '../support/app.js';

const at = (name: string): string => `src/api/${name}/content-types/${name}/schema.json`;

let t: TestApp;
let draftOnly: string;

beforeAll(async () => {
  t = await startExampleWith({
    [at('variant')]: JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'variant', pluralName: 'variants' },
      options: { draftAndPublish: true },
      attributes: { title: { type: 'string' }, status: { type: 'enumeration', enum: ['active', 'archived'] } },
    }),
    [at('quote')]: JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'quote', pluralName: 'quotes' },
      options: { draftAndPublish: false },
      attributes: { email: { type: 'string' }, variant: { type: 'relation', relation: 'manyToOne', target: 'api::variant.variant' } },
    }),
    [at('product')]: JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'product', pluralName: 'products' },
      options: { draftAndPublish: true },
      attributes: { name: { type: 'string' }, variants: { type: 'relation', relation: 'manyToMany', target: 'api::variant.variant' } },
    }),
  });
  const v = await t.request('POST', '/api/variants?status=draft', { body: { data: { title: 'Red', status: 'active' } } });
  expect(v.status, v.text).toBe(201);
  draftOnly = v.body.data.documentId;
});
afterAll(async () => {
  await t.close();
});

const scrub = (body: unknown): string => JSON.stringify(body).replace(/"(id|documentId|createdAt|updatedAt|publishedAt)":("[^"]*"|\d+)/g, '"$1":_');

describe('status in a relation given directly', () => {
  it('a to-one from a type without draft & publish links the version named, as the longhand does', async () => {
    const direct = await t.request('POST', '/api/quotes?populate[variant][fields][0]=title&status=draft', {
      body: { data: { email: 'a@x.test', variant: { documentId: draftOnly, status: 'draft' } } },
    });
    expect(direct.status, direct.text).toBe(201);
    const longhand = await t.request('POST', '/api/quotes?populate[variant][fields][0]=title&status=draft', {
      body: { data: { email: 'a@x.test', variant: { set: [{ documentId: draftOnly, status: 'draft' }] } } },
    });
    expect(longhand.status, longhand.text).toBe(201);
    expect(scrub(direct.body)).toBe(scrub(longhand.body));
    for (const id of [direct.body.data.documentId, longhand.body.data.documentId]) {
      const read = await t.get(`/api/quotes/${id}?populate=variant&status=draft`);
      expect(read.body.data.variant?.title).toBe('Red');
    }
  });

  it('naming a version the target lacks is the same 400 as in the longhand', async () => {
    const direct = await t.request('POST', '/api/quotes', { body: { data: { email: 'b@x.test', variant: { documentId: draftOnly, status: 'published' } } } });
    const longhand = await t.request('POST', '/api/quotes', { body: { data: { email: 'b@x.test', variant: { connect: [{ documentId: draftOnly, status: 'published' }] } } } });
    expect(direct.status).toBe(400);
    expect(direct.body).toEqual(longhand.body);
  });

  it('a to-many list of such items is taken too', async () => {
    const r = await t.request('POST', '/api/products?status=draft&populate[variants][fields][0]=title', {
      body: { data: { name: 'Shirt', variants: [{ documentId: draftOnly, status: 'draft' }] } },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.variants.map((v: { title: string }) => v.title)).toEqual(['Red']);
  });

  it('a target without a status attribute still refuses it, as Strapi 5.54 does', async () => {
    const tag = await t.request('POST', '/api/tags?status=draft', { body: { data: { label: 'draft tag' } } });
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'T', tags: [{ documentId: tag.body.data.documentId, status: 'draft' }] } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key status at tags', details: { key: 'status', path: 'tags', source: 'body' } });
  });
});
