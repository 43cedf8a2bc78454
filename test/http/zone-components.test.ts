// A dynamic zone holds only the components its schema lists. Strapi 5.54 takes any registered
// component and then leaves the unlisted entries out of every read; Folio refuses the write, with the
// body Strapi gives for a component it doesn't know (the zone's own list, then Strapi's root error).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const HERO_LIST = 'shared.rich-text, shared.media, shared.quote';

describe('dynamic zone components', () => {
  it("a component the zone doesn't list is a 400 naming the ones it does", async () => {
    const data = {
      headline: 'Home',
      hero: [
        { __component: 'shared.rich-text', body: 'ok' },
        { __component: 'shared.slider', files: [] },
      ],
    };
    const r = await t.request('PUT', '/api/homepage', { body: { data } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: '2 errors occurred',
        details: {
          errors: [
            {
              path: ['hero', '1', '__component'],
              message: `hero[1].__component must be one of the following values: ${HERO_LIST}`,
              name: 'ValidationError',
              value: 'shared.slider',
            },
            { path: [], message: 'Invalid relations', name: 'ValidationError', value: { ...data, publishedAt: null, locale: 'en' } },
          ],
        },
      },
    });
    expect((await t.get('/api/homepage')).status).toBe(404);
  });

  it("an unknown component on create: Strapi's body, the data echoed with the defaults a create fills in", async () => {
    const data = { title: 'zz', blocks: [{ __component: 'shared.nope' }] };
    const r = await t.request('POST', '/api/articles?status=draft&locale=fr', { body: { data } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '2 errors occurred',
      details: {
        errors: [
          {
            path: ['blocks', '0', '__component'],
            message: 'blocks[0].__component must be one of the following values: shared.rich-text, shared.quote, shared.media, shared.slider',
            name: 'ValidationError',
            value: 'shared.nope',
          },
          { path: [], message: 'Invalid relations', name: 'ValidationError', value: { ...data, kind: 'news', isFeatured: false, views: 0, publishedAt: null, locale: 'fr' } },
        ],
      },
    });
  });

  it('an entry without __component: the required error, then the root error Strapi adds', async () => {
    const data = { hero: [{ __component: 'shared.quote', title: 'q' }, { body: 'x' }] };
    const r = await t.request('PUT', '/api/homepage', { body: { data } });
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '2 errors occurred',
      details: {
        errors: [
          { path: ['hero', '1', '__component'], message: 'hero[1].__component is a required field', name: 'ValidationError' },
          {
            path: [],
            message: 'Cannot build relations store from dynamiczone, component identifier is undefined',
            name: 'ValidationError',
            value: { ...data, publishedAt: null, locale: 'en' },
          },
        ],
      },
    });
  });

  it("an unlisted component's keys are checked first, as Strapi checks them before the zone's list", async () => {
    const r = await t.request('PUT', '/api/homepage', { body: { data: { hero: [{ __component: 'shared.slider', nope: 1 }] } } });
    expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid key nope at hero', details: { key: 'nope', path: 'hero', source: 'body' } });
  });

  it('an entry that is no object is cast to null, then refused with the root error', async () => {
    const r = await t.request('PUT', '/api/homepage', { body: { data: { hero: ['x'] } } });
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '2 errors occurred',
      details: {
        errors: [
          { path: ['hero', '0'], message: 'hero[0] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).', name: 'ValidationError', value: null },
          { path: [], message: 'Invalid relations', name: 'ValidationError', value: { hero: [null], publishedAt: null, locale: 'en' } },
        ],
      },
    });
  });

  it("an entry id not attached to the document: Strapi's body for zones, name Error and no details", async () => {
    const put = await t.request('PUT', '/api/homepage', { body: { data: { headline: 'H', hero: [{ __component: 'shared.quote', title: 'q' }] } } });
    expect(put.status, put.text).toBe(200);
    const r = await t.request('PUT', '/api/homepage', { body: { data: { hero: [{ __component: 'shared.quote', id: 999999, title: 'q' }] } } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({ data: null, error: { status: 400, name: 'Error', message: 'Some of the provided components in hero are not related to the entity' } });
  });

  it('a component id sent with a create is ignored and the component created, as Strapi 5.54 does (no "not related" error)', async () => {
    const data = { title: 'ids on create', seo: { id: 999999, metaTitle: 'm' }, blocks: [{ __component: 'shared.quote', id: 999998, title: 'q' }] };
    const r = await t.request('POST', '/api/articles?populate[seo]=true&populate[blocks]=true', { body: { data } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.seo).toMatchObject({ metaTitle: 'm' });
    expect(r.body.data.blocks).toMatchObject([{ __component: 'shared.quote', title: 'q' }]);
    expect(r.body.data.seo.id).not.toBe(999999);
    expect(r.body.data.blocks[0].id).not.toBe(999998);
    const author = await t.request('POST', '/api/authors', { body: { data: { name: 'linked by id', links: [{ id: 999997, label: 'l', url: 'u' }] } } });
    expect(author.status, author.text).toBe(201);
  });

  it('a component id named twice in one list is one entry, at its first place, holding what the last one sent (as Strapi 5.54 keeps it)', async () => {
    const made = await t.request('POST', '/api/articles?status=draft', {
      body: {
        data: {
          title: 'twice',
          blocks: [
            { __component: 'shared.quote', title: 'q1' },
            { __component: 'shared.quote', title: 'q2' },
          ],
        },
      },
    });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.documentId as string;
    const read = async () => (await t.get(`/api/articles/${id}?status=draft&populate[blocks]=true`)).body.data.blocks as { id: number; title: string }[];
    const [a, b] = await read();
    const r = await t.request('PUT', `/api/articles/${id}?status=draft`, {
      body: {
        data: {
          blocks: [
            { __component: 'shared.quote', id: b!.id, title: 'y1' },
            { __component: 'shared.quote', title: 'new' },
            { __component: 'shared.quote', id: b!.id, title: 'y2' },
          ],
        },
      },
    });
    expect(r.status, r.text).toBe(200);
    const after = await read();
    expect(after.map((e) => [e.id === b!.id ? 'b' : e.id === a!.id ? 'a' : 'new', e.title])).toEqual([
      ['b', 'y2'],
      ['new', 'new'],
    ]);

    const author = await t.request('POST', '/api/authors', {
      body: {
        data: {
          name: 'twice linked',
          links: [
            { label: 'a', url: 'u' },
            { label: 'b', url: 'u' },
          ],
        },
      },
    });
    const links = (await t.get(`/api/authors/${author.body.data.documentId}?populate=links`)).body.data.links as { id: number }[];
    const put = await t.request('PUT', `/api/authors/${author.body.data.documentId}`, {
      body: {
        data: {
          links: [
            { id: links[0]!.id, label: 'x1', url: 'u' },
            { label: 'n', url: 'u' },
            { id: links[0]!.id, label: 'x2', url: 'u' },
            { id: links[1]!.id, label: 'b2', url: 'u' },
          ],
        },
      },
    });
    expect(put.status, put.text).toBe(200);
    const kept = (await t.get(`/api/authors/${author.body.data.documentId}?populate=links`)).body.data.links as { id: number; label: string }[];
    expect(kept.map((l) => [l.id === links[0]!.id ? 'a' : l.id === links[1]!.id ? 'b' : 'new', l.label])).toEqual([
      ['a', 'x2'],
      ['new', 'n'],
      ['b', 'b2'],
    ]);
  });

  it("a component id naming none of the entry's components, whatever its type, is Strapi 5.54's not-related error on an update and ignored on a create", async () => {
    const made = await t.request('POST', '/api/authors', { body: { data: { name: 'ids of any type', links: [{ label: 'a', url: 'u' }] } } });
    expect(made.status, made.text).toBe(201);
    const id = made.body.data.documentId as string;
    for (const given of [null, 'abc', 1.5, true, {}, [1]]) {
      const created = await t.request('POST', '/api/authors', { body: { data: { name: `created with ${JSON.stringify(given)}`, links: [{ id: given, label: 'l', url: 'u' }] } } });
      expect(created.status, created.text).toBe(201);
      const links = await t.request('PUT', `/api/authors/${id}`, { body: { data: { links: [{ id: given, label: 'l', url: 'u' }] } } });
      expect(links.status, links.text).toBe(400);
      expect(links.body.error).toEqual({ status: 400, name: 'ApplicationError', message: 'Some of the provided components in links are not related to the entity', details: {} });
      const zone = await t.request('PUT', '/api/homepage', { body: { data: { hero: [{ __component: 'shared.quote', id: given, title: 'q' }] } } });
      expect(zone.status, zone.text).toBe(400);
      expect(zone.body.error).toEqual({ status: 400, name: 'Error', message: 'Some of the provided components in hero are not related to the entity' });
    }
    // nothing was changed by the refused updates
    const read = await t.get(`/api/authors/${id}?populate=links`);
    expect(read.body.data.links.map((l: { label: string }) => l.label)).toEqual(['a']);
  });

  it('a draft & publish update: an id naming none of the draft’s components is refused before the publish rules, as Strapi 5.54 writes the draft first', async () => {
    expect((await t.request('PUT', '/api/homepage', { body: { data: { headline: 'H' } } })).status).toBe(200);
    const zone = await t.request('PUT', '/api/homepage', { body: { data: { headline: null, hero: [{ __component: 'shared.rich-text', body: 'x', id: 999999 }] } } });
    expect(zone.body).toEqual({ data: null, error: { status: 400, name: 'Error', message: 'Some of the provided components in hero are not related to the entity' } });
    const article = await t.request('POST', '/api/articles', { body: { data: { title: 'unrelated seo' } } });
    const seo = await t.request('PUT', `/api/articles/${article.body.data.documentId as string}`, { body: { data: { title: null, seo: { id: 999999, metaTitle: 'x' } } } });
    expect(seo.body.error).toEqual({ status: 400, name: 'ApplicationError', message: 'Some of the provided components in seo are not related to the entity', details: {} });
    // a draft write has no publish rules to meet; without draft & publish the values are checked first
    const author = await t.request('POST', '/api/authors', { body: { data: { name: 'unrelated links' } } });
    const links = await t.request('PUT', `/api/authors/${author.body.data.documentId as string}`, {
      body: { data: { name: null, links: [{ id: 999999, label: 'x', url: 'u' }] } },
    });
    expect(links.body.error.message).toBe('name must be a `string` type, but the final value was: `null`.');
    expect((await t.get('/api/homepage')).body.data.headline).toBe('H');
  });

  it('a component sent with an id on a create is new, so its required fields must be given, as Strapi 5.54 answers', async () => {
    const error = (message: string, path: string[], value?: null) => {
      const item = value === undefined ? { path, message, name: 'ValidationError' } : { path, message, name: 'ValidationError', value };
      return { status: 400, name: 'ValidationError', message, details: { errors: [item] } };
    };
    // an id used to let the component skip its required fields: the document was stored with links[0].url null
    for (const given of [999999, null]) {
      const r = await t.request('POST', '/api/authors', { body: { data: { name: `fresh id ${String(given)}`, links: [{ id: given, label: 'x' }] } } });
      expect(r.body.error).toEqual(error('links[0].url must be defined.', ['links', '0', 'url']));
    }
    const seo = await t.request('POST', '/api/articles', { body: { data: { title: 'seo id on create', seo: { id: 999999 } } } });
    expect(seo.body.error).toEqual(error('seo.metaTitle must be a `string` type, but the final value was: `null`.', ['seo', 'metaTitle'], null));
    // beside a type error, in one pass
    const both = await t.request('POST', '/api/authors', { body: { data: { name: 'fresh id beside', age: 'abc', links: [{ id: 5, label: 'x' }] } } });
    expect((both.body.error.details.errors as { path: string[] }[]).map((e) => e.path.join('.'))).toEqual(['age', 'links.0.url']);
    expect((await t.get('/api/authors?filters[name][$startsWith]=fresh')).body.data).toEqual([]);
    // given whole, it is created as any new component (the id is not the row's)
    const ok = await t.request('POST', '/api/authors?populate=links', { body: { data: { name: 'id whole', links: [{ id: 999999, label: 'x', url: 'u' }] } } });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body.data.links).toMatchObject([{ label: 'x', url: 'u' }]);
    expect(ok.body.data.links[0].id).not.toBe(999999);
  });

  it('so is one sent with an id to a new locale version, with or without draft & publish, as Strapi 5.54 answers', async () => {
    const article = await t.request('POST', '/api/articles', { body: { data: { title: 'en only' } } });
    const doc = article.body.data.documentId as string;
    const published = await t.request('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { title: 'fr', seo: { id: 999999 } } } });
    const metaTitle = 'seo.metaTitle must be a `string` type, but the final value was: `null`.';
    expect(published.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: metaTitle,
      details: { errors: [{ path: ['seo', 'metaTitle'], message: metaTitle, name: 'ValidationError', value: null }] },
    });
    // a draft has no required fields to meet: the id is ignored and the component made anew
    const draft = await t.request('PUT', `/api/articles/${doc}?locale=fr&status=draft&populate=seo`, { body: { data: { title: 'fr', seo: { id: 999999, keywords: 'k' } } } });
    expect(draft.status, draft.text).toBe(200);
    expect(draft.body.data.seo).toMatchObject({ metaTitle: null, keywords: 'k' });
    expect((await t.request('PUT', '/api/global', { body: { data: { siteName: 'en site' } } })).status).toBe(200);
    const global = await t.request('PUT', '/api/global?locale=fr', { body: { data: { defaultSeo: { id: 999999 } } } });
    expect(global.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: '2 errors occurred',
      details: {
        errors: [
          { path: ['siteName'], message: 'siteName must be defined.', name: 'ValidationError' },
          { path: ['defaultSeo', 'metaTitle'], message: 'defaultSeo.metaTitle must be defined.', name: 'ValidationError' },
        ],
      },
    });
    expect((await t.get('/api/global?locale=fr')).status).toBe(404);
  });

  it("listed components are written and read; a fragment or path through an unlisted one reads as Strapi's", async () => {
    const put = await t.request('PUT', '/api/homepage', { body: { data: { headline: 'Home', hero: [{ __component: 'shared.quote', title: 'HQ' }] } } });
    expect(put.status, put.text).toBe(200);
    // Strapi takes any registered component in `on` (it can match no entry here)
    const on = await t.get('/api/homepage?populate[hero][on][shared.slider]=true');
    expect(on.status).toBe(200);
    expect(on.body.data.hero).toEqual([]);
    expect((await t.get('/api/homepage?populate[hero][on][shared.nope]=true')).body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key shared.nope at hero.on.shared.nope',
      details: { key: 'shared.nope', path: 'hero.on.shared.nope', source: 'query', param: 'populate' },
    });
    // a slider's `files` is no attribute of any component hero lists
    expect((await t.get('/api/homepage?populate=hero.files')).body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Invalid key files at hero.files',
      details: { key: 'files', path: 'hero.files', source: 'query', param: 'populate' },
    });
  });

  it('an entry of a component with nothing but media to show costs no read of its table: its id comes from the zone link', async () => {
    const post = async (blocks: unknown[]): Promise<string> => {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: 'zone-id-only', blocks } } });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return (r.body as { data: { documentId: string } }).data.documentId;
    };
    const mediaOnly = await post([{ __component: 'shared.media' }, { __component: 'shared.slider', files: [] }]);
    const withText = await post([{ __component: 'shared.rich-text', body: 'words' }]);
    const read = await t.get(`/api/articles/${mediaOnly}?populate[blocks][populate]=*`);
    expect(read.status).toBe(200);
    const blocks = (read.body as { data: { blocks: { id: unknown; __component: string }[] } }).data.blocks;
    expect(blocks.map((b) => b.__component)).toEqual(['shared.media', 'shared.slider']);
    expect(blocks[0]).toEqual({ __component: 'shared.media', id: expect.any(Number), file: null });
    expect(blocks[1]).toEqual({ __component: 'shared.slider', id: expect.any(Number), files: [] });
    // the zone's link rows, and nothing more, for media-only entries; a table read more for text
    const [none, idOnly, none2, text] = await statementCosts(t, [
      `/api/articles/${mediaOnly}`,
      `/api/articles/${mediaOnly}?populate[blocks]=true`,
      `/api/articles/${withText}`,
      `/api/articles/${withText}?populate[blocks]=true`,
    ]);
    expect([idOnly! - none!, text! - none2!]).toEqual([1, 2]);
  });
});
