import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { statementCosts } from '../support/statements.js';
import { refuseInsertsInto } from '../support/refuse-statements.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

async function create(plural: string, data: Record<string, unknown>, query = ''): Promise<string> {
  const r = await t.request('POST', `/api/${plural}${query}`, { body: { data } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.documentId;
}

const ids = (list: { documentId: string }[]): string[] => list.map((x) => x.documentId);

describe('relation writes and populate', () => {
  it('many-to-many: an array of documentIds sets the relation in order, visible from both sides', async () => {
    const a = await create('tags', { label: 'a' });
    const b = await create('tags', { label: 'b' });
    const c = await create('tags', { label: 'c' });
    const art = await create('articles', { title: 'm2m', tags: [c, a, b] });
    const r = await t.get(`/api/articles/${art}?populate=tags`);
    expect(ids(r.body.data.tags)).toEqual([c, a, b]);
    const back = await t.get(`/api/tags/${a}?populate=articles`);
    expect(ids(back.body.data.articles)).toEqual([art]);
  });

  it('connect with positions applies in array order; disconnect removes', async () => {
    const [x, y, z, w] = [await create('tags', { label: 'x' }), await create('tags', { label: 'y' }), await create('tags', { label: 'z' }), await create('tags', { label: 'w' })];
    const art = await create('articles', { title: 'pos', tags: [x, y] });
    const u = await t.request('PUT', `/api/articles/${art}`, {
      body: {
        data: {
          tags: {
            connect: [
              { documentId: z, position: { start: true } },
              { documentId: w, position: { after: x } },
            ],
            disconnect: [y],
          },
        },
      },
    });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    const r = await t.get(`/api/articles/${art}?populate=tags`);
    expect(ids(r.body.data.tags)).toEqual([z, x, w]);
  });

  it('order survives publishing again', async () => {
    const [p, q] = [await create('tags', { label: 'p' }), await create('tags', { label: 'q' })];
    const art = await create('articles', { title: 'order', tags: [q, p] });
    await t.request('PUT', `/api/articles/${art}`, { body: { data: { title: 'order 2' } } });
    const r = await t.get(`/api/articles/${art}?populate=tags`);
    expect(ids(r.body.data.tags)).toEqual([q, p]);
  });

  it('many-to-one written from the owner side shows on the inverse one-to-many, and vice versa', async () => {
    const author = await create('authors', { name: 'Owner side' });
    const a1 = await create('articles', { title: 'a1', author });
    const a2 = await create('articles', { title: 'a2' });
    await t.request('PUT', `/api/authors/${author}`, { body: { data: { articles: { connect: [a2] } } } });
    const r = await t.get(`/api/authors/${author}?populate=articles`);
    expect(ids(r.body.data.articles)).toEqual([a1, a2]);
    const art2 = await t.get(`/api/articles/${a2}?populate=author`);
    expect(art2.body.data.author.documentId).toBe(author);
  });

  it('one-to-one bidirectional: connecting a taken profile moves it', async () => {
    const profile = await create('profiles', { handle: '@p' });
    const first = await create('authors', { name: 'First', profile });
    const second = await create('authors', { name: 'Second', profile });
    expect((await t.get(`/api/authors/${first}?populate=profile`)).body.data.profile).toBeNull();
    expect((await t.get(`/api/authors/${second}?populate=profile`)).body.data.profile.documentId).toBe(profile);
    expect((await t.get(`/api/profiles/${profile}?populate=author`)).body.data.author.documentId).toBe(second);
  });

  it('to-one relations keep only the last entry', async () => {
    const [a, b] = [await create('authors', { name: 'LastA' }), await create('authors', { name: 'LastB' })];
    const art = await create('articles', { title: 'last', author: { connect: [a, b] } });
    expect((await t.get(`/api/articles/${art}?populate=author`)).body.data.author.documentId).toBe(b);
    // a relation holding one target has no order: a position there is ignored, as Strapi 5.54 ignores it
    const c = await create('authors', { name: 'LastC' });
    const placed = await t.request('PUT', `/api/articles/${art}`, { body: { data: { author: { connect: [{ documentId: c, position: { before: a } }] } } } });
    expect(placed.status, placed.text).toBe(200);
    expect((await t.get(`/api/articles/${art}?populate=author`)).body.data.author.documentId).toBe(c);
  });

  it('empty to-many is [] and empty to-one is null', async () => {
    const art = await create('articles', { title: 'empty' });
    const r = await t.get(`/api/articles/${art}?populate[0]=tags&populate[1]=author&populate[2]=gallery&populate[3]=cover`);
    expect(r.body.data.tags).toEqual([]);
    expect(r.body.data.author).toBeNull();
    expect(r.body.data.gallery).toEqual([]);
    expect(r.body.data.cover).toBeNull();
  });

  it('null in a PUT body clears a to-one relation, a to-many relation and a single component; what the body leaves out stays', async () => {
    const [tag, author] = [await create('tags', { label: 'cleared-tag' }), await create('authors', { name: 'cleared-author' })];
    const art = await create('articles', {
      title: 'to clear',
      author,
      tags: [tag],
      seo: { metaTitle: 'm', metaDescription: 'd' },
      blocks: [{ __component: 'shared.quote', title: 'Q' }],
    });
    const u = await t.request('PUT', `/api/articles/${art}`, { body: { data: { author: null, tags: null, seo: null } } });
    expect(u.status, u.text).toBe(200);
    const q = 'fields[0]=title&populate[author][fields][0]=name&populate[tags][fields][0]=label&populate[seo]=true&populate[blocks]=true';
    for (const status of ['published', 'draft']) {
      const r = await t.get(`/api/articles/${art}?status=${status}&${q}`);
      expect(r.body, status).toEqual({
        data: {
          id: expect.any(Number),
          documentId: art,
          title: 'to clear',
          author: null,
          tags: [],
          seo: null,
          blocks: [{ id: expect.any(Number), __component: 'shared.quote', title: 'Q', body: null }],
        },
        meta: {},
      });
    }
  });

  it('a set, connect or disconnect holding null is no operation, as in Strapi 5.54: {set: null} leaves the relation, and beside another operation it is not "combined"', async () => {
    const [a, b] = [await create('tags', { label: 'null-a' }), await create('tags', { label: 'null-b' })];
    const [p, q] = [await create('authors', { name: 'null-p' }), await create('authors', { name: 'null-q' })];
    const art = await create('articles', { title: 'null ops', tags: [a, b], author: p });
    const put = async (data: Record<string, unknown>) => {
      const u = await t.request('PUT', `/api/articles/${art}`, { body: { data } });
      expect(u.status, JSON.stringify(u.body)).toBe(200);
      const r = await t.get(`/api/articles/${art}?populate[0]=tags&populate[1]=author`);
      return { tags: ids(r.body.data.tags), author: r.body.data.author?.documentId ?? null };
    };
    expect(await put({ tags: { set: null } })).toEqual({ tags: [a, b], author: p });
    expect(await put({ tags: { set: null, disconnect: [a] } })).toEqual({ tags: [b], author: p });
    expect(await put({ author: { set: null, connect: [q] } })).toEqual({ tags: [b], author: q });
    expect(await put({ tags: { set: [a], connect: null, disconnect: null } })).toEqual({ tags: [a], author: q });
  });

  it('errors: unknown documentId, set with connect, connecting twice, position not in the relation — nothing written', async () => {
    const tag = await create('tags', { label: 'err' });
    const before = (await t.get('/api/articles?status=draft')).body.meta.pagination.total;
    const bad: [unknown, RegExp][] = [
      [['missingdoc'], /^Document with id "missingdoc", locale "null" not found$/],
      [{ set: [tag], connect: [tag] }, /set/],
      [{ connect: [tag, tag] }, /already connected/],
      [{ connect: [{ documentId: tag, position: { before: 'nothere' } }] }, /^Document with id "nothere", locale "null" not found$/],
    ];
    for (const [tags, message] of bad) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: 'bad', tags } } });
      expect(r.status, JSON.stringify(tags)).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
      expect(r.body.error.message).toMatch(message);
    }
    expect((await t.get('/api/articles?status=draft')).body.meta.pagination.total).toBe(before);
  });

  it('a relation given directly takes documentId, id and locale per item; status and position only under set, connect or disconnect, as in Strapi 5.54', async () => {
    const tag = await create('tags', { label: 'shorthand' });
    for (const [tags, key] of [
      [[{ documentId: tag, status: 'published' }], 'status'],
      [{ documentId: tag, status: 'draft' }, 'status'],
      [[{ documentId: tag, position: { end: true } }], 'position'],
      [[{ id: 1, locale: 'en', status: 'draft' }], 'status'],
    ] as const) {
      const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'shorthand', tags } } });
      expect(r.body.error, JSON.stringify(tags)).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `Invalid key ${key} at tags`,
        details: { key, path: 'tags', source: 'body' },
      });
    }
    for (const tags of [
      { set: [{ documentId: tag, status: 'published' }] },
      { connect: [{ documentId: tag, status: 'published', position: { end: true } }] },
      [{ documentId: tag, locale: 'en' }],
    ]) {
      const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'longhand', tags } } });
      expect(r.status, JSON.stringify(tags)).toBe(201);
    }
  });

  it('a row id of 0 or below names no row: Strapi 5.54\'s "do not exist" 400; a null in a list of relations or files names nothing', async () => {
    const missing = (type: string) => `1 relation(s) of type ${type} associated with this entity do not exist`;
    for (const [data, type] of [
      [{ tags: [0] }, 'api::tag.tag'],
      [{ tags: { connect: [-1] } }, 'api::tag.tag'],
      [{ author: 0 }, 'api::author.author'],
      [{ cover: 0 }, 'plugin::upload.file'],
      [{ gallery: ['0'] }, 'plugin::upload.file'],
    ] as const) {
      const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'zero', ...data } } });
      expect(r.status, JSON.stringify(data)).toBe(400);
      expect(r.body.error.message).toBe(missing(type));
    }
    // the data Strapi echoes in the error holds each reference in its object form, nulls left out
    const echo = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'zero', tags: { connect: [-1, null], disconnect: [null] } } } });
    expect(echo.body.error.details.errors[0].value.tags).toEqual({ connect: [{ id: -1 }], disconnect: [] });
    const tag = await create('tags', { label: 'with-nulls' });
    const r = await t.request('POST', '/api/articles?status=draft&populate[tags]=true&populate[gallery]=true&populate[cover]=true', {
      body: { data: { title: 'nulls', tags: [tag, null], gallery: [null], cover: [null] } },
    });
    expect(r.status, r.text).toBe(201);
    expect(ids(r.body.data.tags)).toEqual([tag]);
    expect(r.body.data.gallery).toEqual([]);
    expect(r.body.data.cover).toBeNull();
  });

  it('disconnect: a documentId naming no document is a 400 and nothing changes, a row id naming no row is ignored, as in Strapi 5.54', async () => {
    const kept = await create('tags', { label: 'kept-on-disconnect' });
    const article = await create('articles', { title: 'disconnects', tags: [kept] });
    for (const disconnect of [['nope'], [{ documentId: 'nope' }], [kept, 'nope']]) {
      const r = await t.request('PUT', `/api/articles/${article}`, { body: { data: { tags: { disconnect } } } });
      expect(r.status, JSON.stringify(disconnect)).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Document with id "nope", locale "null" not found', details: {} });
    }
    expect(ids((await t.get(`/api/articles/${article}?populate=tags`)).body.data.tags)).toEqual([kept]);
    const ignored = await t.request('PUT', `/api/articles/${article}?populate=tags`, { body: { data: { tags: { disconnect: [99999] } } } });
    expect(ignored.status, ignored.text).toBe(200);
    expect(ids(ignored.body.data.tags)).toEqual([kept]);
    const byId = (await t.get(`/api/tags/${kept}`)).body.data.id as number;
    const gone = await t.request('PUT', `/api/articles/${article}?populate=tags`, { body: { data: { tags: { disconnect: [99999, byId] } } } });
    expect(gone.status, gone.text).toBe(200);
    expect(gone.body.data.tags).toEqual([]);
    // from the mappedBy side, as Strapi answers it (the article's locale is the default one)
    const inverse = await t.request('PUT', `/api/tags/${kept}`, { body: { data: { articles: { disconnect: ['nope'] } } } });
    expect(inverse.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Document with id "nope", locale "en" not found', details: {} });
    expect((await t.request('PUT', `/api/tags/${kept}`, { body: { data: { articles: { disconnect: [99999] } } } })).status).toBe(200);
  });

  it('connect and disconnect both naming missing documents: the disconnect one is named, as Strapi 5.54 looks it up first, from either side and beside a value error', async () => {
    const tag = await create('tags', { label: 'disconnect first' });
    const article = await create('articles', { title: 'disconnect first' });
    const refused = async (path: string, data: Record<string, unknown>, locale: string) => {
      const r = await t.request('PUT', path, { body: { data } });
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: `Document with id "gone2", locale "${locale}" not found`, details: {} });
    };
    const both = { connect: ['gone1'], disconnect: ['gone2'] };
    await refused(`/api/articles/${article}`, { tags: both }, 'null');
    await refused(`/api/articles/${article}`, { views: 'abc', tags: both }, 'null');
    await refused(`/api/tags/${tag}`, { articles: both }, 'en');
    expect((await t.get(`/api/articles/${article}?populate=tags`)).body.data.tags).toEqual([]);
  });

  it('a linked document must exist in the version the link shows: each missing one is a 400 naming it and its locale, the first in the order sent; nothing is written', async () => {
    const cat = await create('categories', { name: 'only in en' });
    const author = await create('authors', { name: 'Exists' });
    const [tagA] = [await create('tags', { label: 'exists' })];
    const before = (await t.get('/api/articles?status=draft&locale=*')).body.meta.pagination.total;
    const bad: [string, Record<string, unknown>, string][] = [
      ['?locale=fr', { title: 'fr', categories: [cat] }, `Document with id "${cat}", locale "fr" not found`],
      // before the values are checked, as Strapi maps ids per locale first: not the missing title's error
      ['?locale=fr', { categories: [cat] }, `Document with id "${cat}", locale "fr" not found`],
      ['?locale=fr', { title: null, summary: 5, categories: [cat] }, `Document with id "${cat}", locale "fr" not found`],
      ['', { title: 'no author', author: 'noauthor' }, 'Document with id "noauthor", locale "null" not found'],
      ['', { title: 'second tag', tags: [tagA, 'notag1', 'notag2'] }, 'Document with id "notag1", locale "null" not found'],
      // the author found for the quote is not taken for the missing one
      ['', { title: 'twice', blocks: [{ __component: 'shared.quote', title: 'q', person: author }], author: 'noauthor2' }, 'Document with id "noauthor2", locale "null" not found'],
    ];
    for (const [query, data, message] of bad) {
      const r = await t.request('POST', `/api/articles${query}`, { body: { data } });
      expect(r.status, JSON.stringify(data)).toBe(400);
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message });
    }
    expect((await t.get('/api/articles?status=draft&locale=*')).body.meta.pagination.total).toBe(before);
    // one document named twice in one write, and found: both links are made
    const ok = await t.request('POST', '/api/articles', { body: { data: { title: 'twice ok', author, blocks: [{ __component: 'shared.quote', title: 'q', person: author }] } } });
    expect(ok.status, JSON.stringify(ok.body)).toBe(201);
    const got = (await t.get(`/api/articles/${ok.body.data.documentId}?populate[author]=true&populate[blocks][populate]=*`)).body.data;
    expect(got.author.documentId).toBe(author);
    expect(got.blocks[0].person.documentId).toBe(author);
  });

  it('with draft & publish, a position error comes before the publish rules, as Strapi 5.54 writes the draft before it checks the version it publishes', async () => {
    const [a, b] = [await create('tags', { label: 'pf-a' }), await create('tags', { label: 'pf-b' })];
    const positioned = { connect: [{ documentId: a, position: { after: b } }] };
    const message = `There was a problem connecting relation with id ${a} at position {"after":"${b}"}. The relation with id ${b} needs to be connected first.`;
    const refused = { data: null, error: { status: 400, name: 'ValidationError', message, details: {} } };
    // a publish rule (minimum, email format) broken beside it: the position is named, on create and update
    expect((await t.request('POST', '/api/articles', { body: { data: { title: 'pf', views: -1, tags: positioned } } })).body).toEqual(refused);
    expect((await t.request('POST', '/api/articles', { body: { data: { title: 'pf', contactEmail: 'nope', tags: positioned } } })).body).toEqual(refused);
    const art = await create('articles', { title: 'pf update' });
    expect((await t.request('PUT', `/api/articles/${art}`, { body: { data: { title: null, tags: positioned } } })).body).toEqual(refused);
    // alone, the publish rule is still refused, and nothing was written
    const alone = await t.request('PUT', `/api/articles/${art}`, { body: { data: { views: -1, tags: [a] } } });
    expect(alone.body.error.message).toBe('views must be greater than or equal to 0');
    const read = (await t.get(`/api/articles/${art}?status=draft&populate=tags`)).body.data;
    expect([read.views, read.tags]).toEqual([0, []]);
  });

  it('on update too a position naming an unconnected document is refused as in Strapi 5.54; options.strict false lets it pass', async () => {
    const [a, b, c, d] = [
      await create('tags', { label: 'ns-a' }),
      await create('tags', { label: 'ns-b' }),
      await create('tags', { label: 'ns-c' }),
      await create('tags', { label: 'ns-d' }),
    ];
    const art = await create('articles', { title: 'strict', tags: [a, b] });
    const put = (tags: unknown, query = '') => t.request('PUT', `/api/articles/${art}${query}`, { body: { data: { tags } } });
    const error = (message: string) => ({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    // Strapi names the row ids of both tags; Folio names their documentIds (README)
    for (const query of ['', '?status=draft']) {
      expect((await put({ connect: [{ documentId: c, position: { before: d } }] }, query)).body).toEqual(
        error(`There was a problem connecting relation with id ${c} at position {"before":"${d}"}. The relation with id ${d} needs to be connected first.`),
      );
    }
    // a position naming no document at all: that document is not found, before anything else
    expect((await put({ connect: [{ documentId: d, position: { after: 'nothere' } }] })).body).toEqual(error('Document with id "nothere", locale "null" not found'));
    expect((await put({ connect: [{ documentId: d, position: { after: 'nothere' } }], options: { strict: false } })).body).toEqual(
      error('Document with id "nothere", locale "null" not found'),
    );
    expect(ids((await t.get(`/api/articles/${art}?populate=tags&status=draft`)).body.data.tags)).toEqual([a, b]);
    // a connected neighbour, or one connected earlier in the same list, is fine
    expect(
      (
        await put({
          connect: [
            { documentId: c, position: { before: b } },
            { documentId: d, position: { after: c } },
          ],
        })
      ).status,
    ).toBe(200);
    expect(ids((await t.get(`/api/articles/${art}?populate=tags`)).body.data.tags)).toEqual([a, c, d, b]);
    // options.strict false: a position that can't be met keeps a connected document where it is, and appends a new one
    const loose = await put({ connect: [{ documentId: c, position: { before: d } }], disconnect: [d], options: { strict: false } });
    expect(loose.status, loose.text).toBe(200);
    expect(ids((await t.get(`/api/articles/${art}?populate=tags`)).body.data.tags)).toEqual([a, c, b]);
    // a document disconnected in the same request still marks its place: d takes c's
    expect((await put({ connect: [{ documentId: d, position: { before: c } }], disconnect: [c] })).status).toBe(200);
    expect(ids((await t.get(`/api/articles/${art}?populate=tags`)).body.data.tags)).toEqual([a, d, b]);
    expect((await put({ connect: [{ documentId: c, position: { after: 'x' } }], options: { strict: false } })).body.error.message).toBe(
      'Document with id "x", locale "null" not found',
    );
    const onCreate = await t.request('POST', '/api/articles', {
      body: { data: { title: 'strict create', tags: { connect: [{ documentId: d, position: { before: a } }], options: { strict: false } } } },
    });
    expect(onCreate.status).toBe(201);
  });

  it('a draft-only target is invisible from the published parent until it is published', async () => {
    const draftTag = await create('tags', { label: 'later' }, '?status=draft');
    const art = await create('articles', { title: 'waits', tags: [draftTag] });
    expect((await t.get(`/api/articles/${art}?populate=tags`)).body.data.tags).toEqual([]);
    expect(ids((await t.get(`/api/articles/${art}?populate=tags&status=draft`)).body.data.tags)).toEqual([draftTag]);
    await t.request('PUT', `/api/tags/${draftTag}`, { body: { data: {} } });
    expect(ids((await t.get(`/api/articles/${art}?populate=tags`)).body.data.tags)).toEqual([draftTag]);
  });
});

describe('components and dynamic zones', () => {
  it('creates, reads and partially updates components with ids sent back', async () => {
    const author = await create('authors', {
      name: 'Linker',
      links: [
        { label: 'one', url: 'https://1.test' },
        { label: 'two', url: 'https://2.test', newTab: true },
      ],
    });
    const r = await t.get(`/api/authors/${author}?populate=links`);
    expect(r.body.data.links.map((l: { label: string }) => l.label)).toEqual(['one', 'two']);
    expect(r.body.data.links[0]).toEqual({ id: expect.any(Number), label: 'one', url: 'https://1.test', newTab: false });
    const [l1, l2] = r.body.data.links;
    const u = await t.request('PUT', `/api/authors/${author}`, { body: { data: { links: [{ id: l2.id, label: 'two!' }, { id: l1.id }] } } });
    expect(u.status, JSON.stringify(u.body)).toBe(200);
    const after = (await t.get(`/api/authors/${author}?populate=links`)).body.data.links;
    expect(after.map((l: { id: number; label: string }) => [l.id, l.label])).toEqual([
      [l2.id, 'two!'],
      [l1.id, 'one'],
    ]);
  });

  it('nested components and dynamic zones round-trip with populate', async () => {
    const person = await create('authors', { name: 'Quoted' });
    const art = await create('articles', {
      title: 'dz',
      seo: { metaTitle: 'SEO', openGraph: { ogTitle: 'OG' } },
      blocks: [
        { __component: 'shared.rich-text', body: 'text' },
        { __component: 'shared.quote', title: 'Q', person },
      ],
    });
    const r = await t.get(
      `/api/articles/${art}?populate[seo][populate]=*&populate[blocks][on][shared.quote][populate][person][fields][0]=name&populate[blocks][on][shared.rich-text]=true`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(r.body.data.seo).toMatchObject({ metaTitle: 'SEO', openGraph: { ogTitle: 'OG' }, shareImage: null });
    expect(r.body.data.blocks).toEqual([
      { id: expect.any(Number), body: 'text', __component: 'shared.rich-text' },
      { id: expect.any(Number), title: 'Q', body: null, person: { id: expect.any(Number), documentId: person, name: 'Quoted' }, __component: 'shared.quote' },
    ]);
  });

  it('a dynamic-zone entry without __component is a 400', async () => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'x', blocks: [{ body: 'no type' }] } } });
    expect(r.status).toBe(400);
    expect(r.body.error.details.errors[0].path).toEqual(['blocks', '0', '__component']);
  });

  it('a failure after the component rows leaves nothing behind', async () => {
    // the author's component links are written after its row and its component rows
    const failing = await startTestApp({}, { databasePlugins: [refuseInsertsInto('authors_cmps', () => new Error('forced failure'))] });
    try {
      const r = await failing.request('POST', '/api/authors', { body: { data: { name: 'Half', links: [{ label: 'l', url: 'u' }] } } });
      expect(r.status).toBe(500);
      const db = failing.app.database.db;
      expect(await db.selectFrom('authors').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('components_shared_links').selectAll().execute()).toEqual([]);
      expect(await db.selectFrom('authors_cmps').selectAll().execute()).toEqual([]);
    } finally {
      await failing.close();
    }
  });
});

describe('no N+1', () => {
  it('a list of 25 and of 100 articles with the deep populate run the same number of statements', async () => {
    const author = await create('authors', { name: 'Prolific', profile: await create('profiles', { handle: '@pro' }) });
    const cat = await create('categories', { name: 'Cat' });
    const tag = await create('tags', { label: 'n1' });
    for (let i = 0; i < 100; i++) {
      await create('articles', {
        title: `n+1 ${i}`,
        author,
        categories: [cat],
        tags: [tag],
        seo: { metaTitle: `s${i}`, openGraph: { ogTitle: 'o' } },
        blocks: [
          { __component: 'shared.quote', title: 'q', person: author },
          { __component: 'shared.rich-text', body: 'b' },
        ],
      });
    }
    const q = 'populate[author][populate][0]=profile&populate[categories][fields][0]=name&populate[seo][populate]=*&populate[blocks][populate]=*';
    const page = (size: number): string => `/api/articles?${q}&pagination[pageSize]=${size}&filters[title][$startsWith]=n%2B1`;
    const r = await t.get(page(100));
    expect(r.body.data).toHaveLength(100);
    expect(r.body.data[0].author.profile.handle).toBe('@pro');
    const [small, large] = await statementCosts(t, [page(25), page(100)]);
    expect(large).toBe(small);
  });
});

describe('components without scalar attributes', () => {
  it('a dynamic-zone entry holding only media is stored and read back', async () => {
    const art = await create('articles', { title: 'slider', blocks: [{ __component: 'shared.slider', files: [] }] });
    const r = await t.get(`/api/articles/${art}?populate[blocks][populate]=*`);
    expect(r.body.data.blocks).toEqual([{ id: expect.any(Number), files: [], __component: 'shared.slider' }]);
  });
});
