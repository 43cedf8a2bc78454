// A relation inside a component of a localized document links the target's version in that
// document's locale, as Strapi 5.54 resolves it: a target missing in that locale is its 400, and
// each locale's component shows its own locale's target (found on piotrsliwka333/strapi-v5-backend
// and SuperNiceDev/snd-strapi-cms, where fr pages linked the en versions).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';
import { project } from '../config/helpers.js';

let t: TestApp;
const localized = { i18n: { localized: true } };

beforeAll(async () => {
  const dir = project({
    'src/api/page/content-types/page/schema.json': JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'page', pluralName: 'pages' },
      options: { draftAndPublish: false },
      pluginOptions: localized,
      attributes: {
        title: { type: 'string', pluginOptions: localized },
        related: { type: 'relation', relation: 'oneToOne', target: 'api::page.page' },
        links: { type: 'component', component: 'shared.link', repeatable: true, pluginOptions: localized },
        blocks: { type: 'dynamiczone', components: ['shared.link', 'shared.group'], pluginOptions: localized },
      },
    }),
    'src/components/shared/link.json': JSON.stringify({
      collectionName: 'components_shared_links',
      attributes: { label: { type: 'string' }, page: { type: 'relation', relation: 'oneToOne', target: 'api::page.page' } },
    }),
    // a component in a component: the document's locale reaches every level
    'src/components/shared/group.json': JSON.stringify({
      collectionName: 'components_shared_groups',
      attributes: { inner: { type: 'component', component: 'shared.link', repeatable: false } },
    }),
  });
  t = await startTestApp({ dir });
});
afterAll(async () => {
  await t?.close();
});

const send = (method: string, path: string, data: Record<string, unknown>): Promise<string> => writeDocument(t, method, path, data);

describe('relations in components of a localized document', () => {
  it('a target missing in the document’s locale is refused, as a relation of the document itself is', async () => {
    const onlyEn = await send('POST', '/api/pages', { title: 'Only en' });
    for (const data of [{ related: onlyEn }, { links: [{ label: 'l', page: onlyEn }] }, { blocks: [{ __component: 'shared.group', inner: { page: onlyEn } }] }]) {
      const r = await t.request('POST', '/api/pages?locale=fr', { body: { data: { title: 'C fr', ...data } } });
      expect(r.status, JSON.stringify(data)).toBe(400);
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message: `Document with id "${onlyEn}", locale "fr" not found` });
    }
    expect((await t.get('/api/pages?locale=fr')).body.data).toEqual([]);
  });

  it('each locale’s components show the target in their own locale, at every level and in any read', async () => {
    const a = await send('POST', '/api/pages', { title: 'A en' });
    await send('PUT', `/api/pages/${a}?locale=fr`, { title: 'A fr' });
    const data = { related: a, links: [{ label: 'l', page: a }], blocks: [{ __component: 'shared.group', inner: { label: 'g', page: a } }] };
    const d = await send('POST', '/api/pages', { title: 'D en', ...data });
    await send('PUT', `/api/pages/${d}?locale=fr`, { title: 'D fr', ...data });
    const q = 'populate[related]=true&populate[links][populate]=page&populate[blocks][on][shared.group][populate][inner][populate]=page';
    for (const [locale, want] of [
      ['en', 'A en'],
      ['fr', 'A fr'],
    ] as const) {
      const r = await t.get(`/api/pages/${d}?locale=${locale}&${q}`);
      expect(r.status, r.text).toBe(200);
      expect([r.body.data.related.title, r.body.data.links[0].page.title, r.body.data.blocks[0].inner.page.title], locale).toEqual([want, want, want]);
    }
    // a read of every locale, and the other locale reached through localizations, keep each version's own
    const all = await t.get(`/api/pages?locale=*&filters[documentId][$eq]=${d}&populate[links][populate]=page&sort=locale`);
    expect(all.body.data.map((p: { title: string; links: { page: { title: string } }[] }) => [p.title, p.links[0]!.page.title])).toEqual([
      ['D en', 'A en'],
      ['D fr', 'A fr'],
    ]);
    const viaEn = await t.get(`/api/pages/${d}?locale=en&populate[localizations][populate][links][populate]=page`);
    expect(viaEn.body.data.localizations.map((p: { links: { page: { title: string } }[] }) => p.links[0]!.page.title)).toEqual(['A fr']);
  });
});
