// How a stored row becomes the object clients see: keys in schema order after id and documentId,
// values formatted per type, private fields never present.
import { describe, expect, it } from 'vitest';
import { rowShape } from '../../src/values/row-shape.js';
import { stringifyResponse } from '../../src/values/stored-json.js';
import { loadModel } from '../../src/schema/load-model.js';
import type { Component } from '../../src/schema/types.js';
import { EXAMPLE_DIR } from '../support/app.js';

const model = loadModel(EXAMPLE_DIR);
const article = model.contentTypes.get('api::article.article')!;

const row = {
  id: 7,
  document_id: 'abc123',
  locale: 'en',
  published_at: '2026-01-02T03:04:05.000Z',
  title: 'T',
  slug: 't',
  summary: null,
  body: '[{"type":"paragraph","children":[]}]',
  legacy_body: 'x',
  views: 5,
  word_count: 9007199254740993n.toString(),
  rating: 4.5,
  score: 1.25,
  is_featured: 1,
  publish_date: '2026-01-02',
  publish_time: '10:20',
  event_at: '2026-01-02 03:04:05',
  metadata: '{"a":1}',
  kind: 'news',
  contact_email: 'a@b.c',
  internal_notes: 'secret',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: null,
};

describe('row shape', () => {
  it('builds id, documentId, then every public scalar in schema order with its type formatted', () => {
    const built = rowShape(article, null).build(row);
    // json and blocks are kept as their stored text until the response is written
    expect(stringifyResponse(built)).toContain('"body":[{"type":"paragraph","children":[]}]');
    const out = JSON.parse(stringifyResponse(built)) as Record<string, unknown>;
    expect(Object.keys(out).slice(0, 3)).toEqual(['id', 'documentId', 'title']);
    expect(out).toMatchObject({
      id: 7,
      documentId: 'abc123',
      title: 'T',
      body: [{ type: 'paragraph', children: [] }],
      views: 5,
      wordCount: '9007199254740993',
      isFeatured: true,
      publishTime: '10:20:00.000',
      metadata: { a: 1 },
      eventAt: '2026-01-02T03:04:05.000Z',
      publishedAt: '2026-01-02T03:04:05.000Z',
      updatedAt: null,
      locale: 'en',
    });
    expect(out).not.toHaveProperty('internalNotes');
    expect(Object.values(out)).not.toContain('secret');
  });

  it('a field list keeps only those fields', () => {
    const out = rowShape(article, ['title', 'views']).build(row);
    expect(out).toEqual({ id: 7, documentId: 'abc123', title: 'T', views: 5 });
  });

  it('an attribute named __proto__ is an own key, not the prototype', () => {
    const seo = model.components.get('shared.seo')!;
    const attr = seo.attributes.get('keywords')!;
    const odd = { ...seo, order: ['__proto__'], attributes: new Map([['__proto__', { ...attr, name: '__proto__', column: 'keywords' }]]) } as unknown as Component;
    const out = rowShape(odd, null).build({ id: '3', keywords: 'k' });
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(Object.keys(out)).toEqual(['id', '__proto__']);
    expect(Object.getOwnPropertyDescriptor(out, '__proto__')?.value).toBe('k');
    expect(out['id']).toBe(3);
  });
});
