// The order of populated keys, as Strapi 5.54 answers it: its database layer loads a level's attributes
// at once and adds each key when its load ends, so the order depends on what each one asks below itself
// and on what it found (src/query/sql/populate-cost.ts). Every expectation below was answered by the
// reference on the same schema and data (a page with a parent and children, a component holding another,
// a component with nothing to populate, a dynamic zone).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/components/ko/flat.json': JSON.stringify({
    collectionName: 'components_ko_flats',
    info: { displayName: 'flat' },
    attributes: { label: { type: 'string' }, rank: { type: 'integer' } },
  }),
  'src/components/ko/seo.json': JSON.stringify({
    collectionName: 'components_ko_seos',
    info: { displayName: 'seo' },
    attributes: { metaTitle: { type: 'string' }, og: { type: 'component', component: 'ko.flat' } },
  }),
  'src/api/page/content-types/page/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'pages',
    info: { singularName: 'page', pluralName: 'pages' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      code: { type: 'string' },
      seo: { type: 'component', component: 'ko.seo' },
      flat: { type: 'component', component: 'ko.flat' },
      blocks: { type: 'dynamiczone', components: ['ko.flat', 'ko.seo'] },
      parent: { type: 'relation', relation: 'manyToOne', target: 'api::page.page', inversedBy: 'children' },
      children: { type: 'relation', relation: 'oneToMany', target: 'api::page.page', mappedBy: 'parent' },
    },
  }),
};

let t: TestApp;
const ids: Record<string, string> = {};
beforeAll(async () => {
  t = await startExampleWith(FILES);
  const flat = (label: string) => ({ label, rank: 1 });
  ids['full'] = await writeDocument(t, 'POST', '/api/pages', {
    title: 'full',
    code: 'full',
    seo: { metaTitle: 's', og: flat('o') },
    flat: flat('f'),
    blocks: [
      { __component: 'ko.flat', ...flat('b') },
      { __component: 'ko.seo', metaTitle: 'bs', og: flat('bo') },
    ],
  });
  ids['child'] = await writeDocument(t, 'POST', '/api/pages', { title: 'child', code: 'child', parent: ids['full'], seo: { metaTitle: 's' }, flat: flat('f') });
  ids['empty'] = await writeDocument(t, 'POST', '/api/pages', { title: 'empty', code: 'empty' });
});
afterAll(async () => {
  await t?.close();
});

const OWN = new Set(['id', 'documentId', 'title', 'code', 'createdAt', 'updatedAt', 'publishedAt']);
const populated = (entry: Record<string, unknown>) => Object.keys(entry).filter((k) => !OWN.has(k));

async function keysOf(page: string, query: string): Promise<string[]> {
  const r = await t.get(`/api/pages/${ids[page]}?${query}`);
  expect(r.status, r.text).toBe(200);
  return populated(r.body.data);
}

describe('populated keys in the order Strapi answers them', () => {
  it('a level below that found rows comes after one that found none or asked nothing below', async () => {
    // seo's * reaches its og component, flat's * names nothing: flat first; on an empty page neither found rows
    expect(await keysOf('full', 'populate[seo][populate]=*&populate[flat][populate]=*')).toEqual(['flat', 'seo']);
    expect(await keysOf('empty', 'populate[seo][populate]=*&populate[flat][populate]=*')).toEqual(['seo', 'flat']);
    expect(await keysOf('full', 'populate[flat][populate]=*&populate[seo]=true')).toEqual(['seo', 'flat']);
    expect(await keysOf('full', 'populate[children][populate]=*&populate[flat][populate]=*')).toEqual(['flat', 'children']);
    expect(await keysOf('empty', 'populate[children][populate]=*&populate[flat][populate]=*')).toEqual(['children', 'flat']);
  });

  it('a dynamic zone with entries comes by what its components ask below them; a relation that found nothing first', async () => {
    expect(await keysOf('full', 'populate=seo.og,flat,blocks')).toEqual(['flat', 'blocks', 'seo']);
    expect(await keysOf('full', 'populate[blocks][populate]=*&populate[parent][populate]=*')).toEqual(['parent', 'blocks']);
    expect(await keysOf('child', 'populate[blocks][populate]=*&populate[parent][populate]=*')).toEqual(['blocks', 'parent']);
    expect(await keysOf('full', 'populate=*')).toEqual(['seo', 'flat', 'parent', 'children', 'blocks']);
    expect(await keysOf('empty', 'populate=*')).toEqual(['seo', 'flat', 'parent', 'children', 'blocks']);
  });

  it('every entry of a list has its keys in one order, from what the whole page found', async () => {
    const r = await t.get('/api/pages?filters[code][$in][0]=full&filters[code][$in][1]=empty&sort=code&populate[seo][populate]=*&populate[flat][populate]=*');
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.map((e: Record<string, unknown>) => [e['code'], populated(e)])).toEqual([
      ['empty', ['flat', 'seo']],
      ['full', ['flat', 'seo']],
    ]);
  });
});
