// Attribute names with spaces and hyphens, as hand-written schemas hold them (ensiklopedia-doa-cms's
// "Main Category", referenced by its conditions): Strapi 5.54 starts and serves them under those names,
// their columns snake-cased (`main_category`) (checked on the reference for filters, sort, fields and a
// component's field; the relation named with a space is Folio's reading of the same rule).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/components/sp/card.json': JSON.stringify({ collectionName: 'components_sp_cards', info: { displayName: 'card' }, attributes: { 'Display Name': { type: 'string' } } }),
  'src/api/topic/content-types/topic/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'topics',
    info: { singularName: 'topic', pluralName: 'topics' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      'Main Category': { type: 'boolean', default: false },
      'sub-title': { type: 'string', conditions: { visible: { '==': [{ var: 'Main Category' }, true] } } },
      card: { type: 'component', component: 'sp.card' },
      'related topics': { type: 'relation', relation: 'manyToMany', target: 'api::topic.topic' },
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

describe('attribute names with spaces and hyphens', () => {
  it('are written, read, filtered, sorted, selected and populated under their names', async () => {
    const a = await t.request('POST', '/api/topics', { body: { data: { name: 'A', 'Main Category': true, 'sub-title': 'first', card: { 'Display Name': 'Card A' } } } });
    expect(a.status, a.text).toBe(201);
    expect(a.body.data).toMatchObject({ name: 'A', 'Main Category': true, 'sub-title': 'first' });
    const b = await t.request('POST', '/api/topics', { body: { data: { name: 'B', 'related topics': [a.body.data.documentId] } } });
    expect(b.status, b.text).toBe(201);
    const list = await t.get('/api/topics?filters[Main Category][$eq]=true&sort=sub-title:desc&fields[0]=Main Category&fields[1]=sub-title&populate[card][fields][0]=Display Name');
    expect(list.status, list.text).toBe(200);
    expect(list.body.data).toEqual([
      { id: expect.any(Number), documentId: a.body.data.documentId, 'Main Category': true, 'sub-title': 'first', card: { id: expect.any(Number), 'Display Name': 'Card A' } },
    ]);
    const related = await t.get(`/api/topics/${b.body.data.documentId as string}?fields[0]=name&populate[related topics][fields][0]=name`);
    expect(related.body.data['related topics']).toEqual([{ id: expect.any(Number), documentId: a.body.data.documentId, name: 'A' }]);
    const through = await t.get('/api/topics?fields[0]=name&filters[related topics][Main Category][$eq]=true');
    expect(through.body.data.map((d: { name: string }) => d.name)).toEqual(['B']);
  });
});
