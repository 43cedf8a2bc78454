// `populate=related` on the media library lists what each file is linked to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, filePart, png, startUploadApp, type UploadApp } from './helpers.js';
import { statementCosts } from '../support/statements.js';

let u: UploadApp;
let fileId: number;
let otherId: number;
let unusedId: number;
let secondId: number;
let articleDoc: string;

beforeAll(async () => {
  u = await startUploadApp();
  const up = await u.upload([
    filePart(await png(20, 20), 'a.png', 'image/png'),
    filePart(await png(30, 30), 'b.png', 'image/png'),
    filePart(await png(10, 10), 'c.png', 'image/png'),
    filePart(await png(12, 12), 'd.png', 'image/png'),
  ]);
  expect(up.status).toBe(201);
  const byName = new Map<string, number>(up.body.map((f: { name: string; id: number }) => [f.name, f.id]));
  fileId = byName.get('a.png')!;
  otherId = byName.get('b.png')!;
  unusedId = byName.get('c.png')!;
  secondId = byName.get('d.png')!;
  const a = await u.t.request('POST', '/api/articles', {
    body: { data: { title: 'Has a cover', internalNotes: 'secret', cover: fileId, blocks: [{ __component: 'shared.media', file: otherId }] } },
  });
  expect(a.status).toBe(201);
  articleDoc = a.body.data.documentId;
  expect((await u.t.request('POST', '/api/articles', { body: { data: { title: 'Another cover', cover: secondId } } })).status).toBe(201);
});
afterAll(async () => {
  await u.close();
});

describe('files populate=related', () => {
  it('lists the entries a file is linked to, the published row of a draft & publish type, with __type and without private fields', async () => {
    const r = await u.t.get(`/api/upload/files/${fileId}?populate=related`);
    expect(r.status).toBe(200);
    const related = r.body.related as Record<string, unknown>[];
    // the draft row links the file too: the file routes show published content only
    expect(related).toHaveLength(1);
    expect(related[0]).toMatchObject({ documentId: articleDoc, title: 'Has a cover', __type: 'api::article.article', publishedAt: expect.any(String) });
    expect(related[0]).not.toHaveProperty('internalNotes');
    expect(related[0]).not.toHaveProperty('cover');
  });

  it('names a component as the __type when a component holds the file (the one of the published row)', async () => {
    const r = await u.t.get(`/api/upload/files/${otherId}?populate=related`);
    expect(r.status).toBe(200);
    expect(r.body.related).toEqual([{ id: expect.any(Number), __type: 'shared.media' }]);
  });

  it("lists the entries by the file's place in each entry's field, as Strapi 5.54 orders them, not by when they linked it", async () => {
    const up = await u.upload([filePart(await png(8, 8), 'first.png', 'image/png'), filePart(await png(9, 9), 'shared.png', 'image/png')]);
    const [first, sharedFile] = (up.body as { id: number }[]).map((f) => f.id);
    // linked first, as the second file of a gallery; then as an author's only avatar
    const gallery = await u.t.request('POST', '/api/articles', { body: { data: { title: 'Gallery second', gallery: [first, sharedFile] } } });
    expect(gallery.status, gallery.text).toBe(201);
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Avatar owner', avatar: sharedFile } } });
    expect(author.status, author.text).toBe(201);
    const r = await u.t.get(`/api/upload/files/${sharedFile}?populate=related`);
    expect((r.body.related as { __type: string }[]).map((x) => x.__type)).toEqual(['api::author.author', 'api::article.article']);
  });

  it('gives an unlinked file an empty list, and no related key without populate', async () => {
    expect((await u.t.get(`/api/upload/files/${unusedId}?populate=related`)).body.related).toEqual([]);
    expect((await u.t.get(`/api/upload/files/${fileId}`)).body).not.toHaveProperty('related');
  });

  it('works on the flat list and the page, in every populate form', async () => {
    for (const q of ['populate=related', 'populate=*', 'populate[0]=related', 'populate[related]=true']) {
      const flat = await u.t.get(`/api/upload/files?${q}`);
      expect(flat.status, q).toBe(200);
      const byId = new Map(flat.body.map((f: { id: number; related: unknown[] }) => [f.id, f.related.length]));
      expect([byId.get(fileId), byId.get(otherId), byId.get(unusedId)], q).toEqual([1, 1, 0]);
      const page = await u.t.get(`/api/upload/files/page?${q}`);
      expect(page.status, q).toBe(200);
      expect(
        page.body.data.every((f: Record<string, unknown>) => Array.isArray(f['related'])),
        q,
      ).toBe(true);
    }
  });

  it('reads the links of a whole list in a fixed number of statements', async () => {
    const [one, two] = await statementCosts(u.t, [
      `/api/upload/files?populate=related&filters[id][$eq]=${fileId}`,
      `/api/upload/files?populate=related&filters[id][$in][0]=${fileId}&filters[id][$in][1]=${secondId}`,
    ]);
    expect(two).toBe(one);
  });

  it('a draft-only document never appears, nor its components, also for a full-access token', async () => {
    const img = await u.upload([filePart(await png(14, 14), 'draft-only.png', 'image/png')]);
    const id = img.body[0].id as number;
    const draft = await u.t.request('POST', '/api/articles?status=draft', {
      body: { data: { title: 'Only a draft', cover: id, blocks: [{ __component: 'shared.media', file: id }], seo: { metaTitle: 'd', openGraph: { ogTitle: 'd', ogImage: id } } } },
    });
    expect(draft.status, JSON.stringify(draft.body)).toBe(201);
    const linked = await u.t.app.database.db.selectFrom('files_related_mph').select('related_type').where('file_id', '=', id).execute();
    expect(linked.map((l) => l.related_type).sort()).toEqual(['api::article.article', 'shared.media', 'shared.open-graph']);
    for (const path of [`/api/upload/files/${id}?populate=related`, `/api/upload/files?populate=related&filters[id][$eq]=${id}`]) {
      const r = await u.t.get(path);
      expect(r.status).toBe(200);
      expect(JSON.stringify(r.body), path).not.toContain('Only a draft');
      expect((Array.isArray(r.body) ? r.body[0] : r.body).related, path).toEqual([]);
    }
  });

  it('shows an entry of a type without draft & publish, and nested components of a published document', async () => {
    const img = await u.upload([filePart(await png(16, 16), 'nested.png', 'image/png')]);
    const id = img.body[0].id as number;
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Related author', avatar: id } } });
    expect(author.status, JSON.stringify(author.body)).toBe(201);
    const a = await u.t.request('POST', '/api/articles', { body: { data: { title: 'Nested og', seo: { metaTitle: 'n', openGraph: { ogTitle: 'n', ogImage: id } } } } });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const r = await u.t.get(`/api/upload/files/${id}?populate=related`);
    expect(r.body.related).toEqual([
      expect.objectContaining({ documentId: author.body.data.documentId, name: 'Related author', __type: 'api::author.author' }),
      expect.objectContaining({ ogTitle: 'n', __type: 'shared.open-graph' }),
    ]);
    // without find on articles, the component inside an article goes too; the author stays
    const authorsOnly = await u.t.tokenOf('custom', ['plugin::upload.content-api.findOne', 'api::author.author.find']);
    const limited = await u.t.get(`/api/upload/files/${id}?populate=related`, { token: authorsOnly });
    expect(limited.body.related).toEqual([expect.objectContaining({ name: 'Related author', __type: 'api::author.author' })]);
  });

  it('leaves out every entry of a type the caller may not find: upload findOne alone gets no related key (Strapi 5.54)', async () => {
    const uploadOnly = await u.t.tokenOf('custom', ['plugin::upload.content-api.findOne', 'plugin::upload.content-api.find', 'plugin::upload.content-api.findPage']);
    for (const q of ['populate=related', 'populate=*', 'populate[related][count]=true']) {
      for (const id of [fileId, otherId]) {
        const r = await u.t.get(`/api/upload/files/${id}?${q}`, { token: uploadOnly });
        expect(r.status).toBe(200);
        expect(r.body, q).not.toHaveProperty('related');
        expect(JSON.stringify(r.body)).not.toContain('Has a cover');
      }
    }
    expect((await u.t.get(`/api/articles/${articleDoc}`, { token: uploadOnly })).status).toBe(403);
    const flat = await u.t.get(`/api/upload/files?populate=related&filters[id][$eq]=${fileId}`, { token: uploadOnly });
    expect(flat.body[0]).not.toHaveProperty('related');
    const page = await u.t.get(`/api/upload/files/page?populate=related&filters[id][$eq]=${fileId}`, { token: uploadOnly });
    expect(page.body.data[0]).not.toHaveProperty('related');
    // one readable type is enough for the list, empty where nothing of it links the file
    const authorsOnly = await u.t.tokenOf('custom', ['plugin::upload.content-api.findOne', 'api::author.author.find']);
    expect((await u.t.get(`/api/upload/files/${otherId}?populate=related`, { token: authorsOnly })).body.related).toEqual([]);
    // with find on articles the published article appears
    const withArticles = await u.t.tokenOf('custom', ['plugin::upload.content-api.findOne', 'api::article.article.find']);
    const r = await u.t.get(`/api/upload/files/${fileId}?populate=related`, { token: withArticles });
    expect(r.body.related).toEqual([expect.objectContaining({ documentId: articleDoc, title: 'Has a cover', publishedAt: expect.any(String), __type: 'api::article.article' })]);
  });

  it('an `on` fragment naming a kind the caller may not find is left out, and with nothing left so is the related key (Strapi 5.54)', async () => {
    const token = await u.t.tokenOf('custom', [
      'plugin::upload.content-api.findOne',
      'plugin::upload.content-api.find',
      'api::article.article.find',
      'api::article.article.findOne',
    ]);
    const file = async (q: string) => (await u.t.get(`/api/upload/files/${otherId}?${q}`, { token })).body as Record<string, unknown>;
    // a component kind is found only by tokens that find everything; authors are not granted
    for (const q of ['populate[related][on][shared.media]=true', 'populate[related][on][api::author.author]=true']) {
      const body = await file(q);
      expect(body['id'], q).toBe(otherId);
      expect(Object.hasOwn(body, 'related'), q).toBe(false);
    }
    expect(Object.hasOwn((await u.t.get(`/api/upload/files/${otherId}?populate[related][on][shared.media]=true`)).body, 'related')).toBe(true);
    const mixed = await file('populate[related][on][shared.media]=true&populate[related][on][api::article.article][fields][0]=title');
    expect(mixed['related']).toEqual([]);
    const cover = await u.t.get(
      `/api/articles/${articleDoc}?populate[cover][populate][related][on][shared.media]=true&populate[cover][populate][related][on][api::author.author]=true`,
      { token },
    );
    expect(cover.status, cover.text).toBe(200);
    expect(cover.body.data.cover.id).toBe(fileId);
    expect(Object.hasOwn(cover.body.data.cover, 'related')).toBe(false);
    const flat = await u.t.get(`/api/upload/files?filters[id][$eq]=${otherId}&populate[related][on][shared.media]=true`, { token });
    expect(Object.hasOwn(flat.body[0], 'related')).toBe(false);
  });

  it('takes Strapi 5.54 morph forms: `on` fragments keep the types they name (with their fields), `count` counts', async () => {
    const img = await u.upload([filePart(await png(18, 18), 'morph.png', 'image/png')]);
    const id = img.body[0].id as number;
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Morph author', avatar: id } } });
    const a = await u.t.request('POST', '/api/articles', { body: { data: { title: 'Morph og', seo: { metaTitle: 'm', openGraph: { ogTitle: 'm', ogImage: id } } } } });
    expect([author.status, a.status]).toEqual([201, 201]);
    const related = async (q: string): Promise<unknown> => {
      const r = await u.t.get(`/api/upload/files/${id}?${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      const flat = await u.t.get(`/api/upload/files?filters[id][$eq]=${id}&${q}`);
      expect(flat.body[0].related, q).toEqual(r.body.related);
      return r.body.related;
    };
    const authorDoc = author.body.data.documentId as string;
    expect(await related('populate[related][on][api::author.author][fields][0]=name')).toEqual([
      { id: expect.any(Number), documentId: authorDoc, name: 'Morph author', __type: 'api::author.author' },
    ]);
    expect(await related('populate[related][on][api::author.author][fields]=name&populate[related][on][api::author.author][sort]=name:desc')).toEqual([
      { id: expect.any(Number), documentId: authorDoc, name: 'Morph author', __type: 'api::author.author' },
    ]);
    const full = (await related('populate[related][on][api::author.author]=true')) as Record<string, unknown>[];
    expect(full.map((e) => Object.keys(e))).toEqual([['id', 'documentId', 'name', 'email', 'bio', 'age', 'createdAt', 'updatedAt', 'publishedAt', '__type']]);
    // as in Strapi, `false` still names the type
    expect(await related('populate[related][on][api::author.author]=false')).toEqual(full);
    expect(await related('populate[related][on][shared.open-graph][fields][0]=ogTitle')).toEqual([{ id: expect.any(Number), ogTitle: 'm', __type: 'shared.open-graph' }]);
    expect(await related('populate[related][on][api::tag.tag]=true')).toEqual([]);
    expect(await related('populate[related][count]=true')).toEqual({ count: 2 });
    expect(await related('populate[related][count]=true&populate[related][on][api::author.author]=true')).toEqual({ count: 1 });
    const none = await u.t.get(`/api/upload/files/${id}?populate[related][count]=false`);
    expect(none.body).not.toHaveProperty('related');

    const bad = (q: string) => u.t.get(`/api/upload/files?${q}`).then((r) => r.body);
    expect(await bad('populate[related][on][api::nope.nope]=true')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key api::nope.nope at related.on.api::nope.nope', {
        key: 'api::nope.nope',
        path: 'related.on.api::nope.nope',
        source: 'query',
        param: 'populate',
      }),
    );
    expect(await bad('populate[related][on][api::author.author][nope]=1')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key nope at related', { key: 'nope', path: 'related', source: 'query', param: 'populate' }),
    );
    expect(await bad('populate[related][on][api::author.author]=abc')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key abc at related', { key: 'abc', path: 'related', source: 'query', param: 'populate' }),
    );
    expect(await bad('populate[related][on][api::author.author][fields][0]=nope')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'populate' }),
    );
    expect(await bad('populate[related][on][api::author.author][fields][0]=name&populate[related][fields][0]=x')).toEqual(
      errorOf(
        400,
        'ValidationError',
        'Invalid nested populate for file.related (plugin::upload.file). Expected a fragment ("on") or "count" but found {"on":{"api::author.author":{"fields":["name"]}},"fields":["x"]}',
      ),
    );
    expect(await bad('populate[related][on][api::author.author][filters][name][$eq]=x')).toEqual(
      errorOf(400, 'ValidationError', 'filters is not supported in a populate[related][on] fragment', { source: 'query', param: 'populate' }),
    );
  });

  it('rejects anything else to populate on a file, naming it', async () => {
    const bad = await u.t.get('/api/upload/files?populate[related]=sometimes');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorOf(400, 'ValidationError', 'Invalid key related', { key: 'related', path: 'related', source: 'query', param: 'populate' }));
    const priv = await u.t.get('/api/upload/files?populate=folder');
    expect(priv.status).toBe(400);
    expect(priv.body.error.message).toBe('Invalid key folder');
  });

  it('a file read by id checks filters, sort and fields as a list does, honours only populate, and lets the rest pass (Strapi 5.54)', async () => {
    for (const [q, param, key] of [
      ['fields=nope', 'fields', 'nope'],
      ['filters[x]=1', 'filters', 'x'],
      ['sort=nope', 'sort', 'nope'],
    ] as const) {
      expect((await u.t.get(`/api/upload/files/${fileId}?${q}`)).body, q).toEqual(
        errorOf(400, 'ValidationError', `Invalid key ${key}`, { key, path: null, source: 'query', param }),
      );
    }
    for (const q of ['fields=name', 'pagination[page]=abc', 'start=abc', '_q=x', 'foo=bar']) {
      const r = await u.t.get(`/api/upload/files/${fileId}?${q}`);
      expect(r.status, q).toBe(200);
      // fields are checked, not applied
      expect(r.body, q).toHaveProperty('url');
    }
  });
});

describe("a media attribute's related inside a content populate", () => {
  it('populate[cover][populate]=related (and its other forms) gives the cover its related list, as the media library does', async () => {
    const library = (await u.t.get(`/api/upload/files/${fileId}?populate=related`)).body.related;
    for (const q of ['populate[cover][populate]=related', 'populate[cover][populate][related]=true', 'populate[cover][populate][0]=related', 'populate[cover][populate]=*']) {
      const r = await u.t.get(`/api/articles/${articleDoc}?${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(r.body.data.cover, q).toMatchObject({ id: fileId, name: 'a.png' });
      expect(r.body.data.cover.related, q).toEqual(library);
      expect(Object.keys(r.body.data.cover).at(-1), q).toBe('related');
    }
    // the published row only, without private fields
    expect(library).toEqual([expect.objectContaining({ documentId: articleDoc, publishedAt: expect.any(String), __type: 'api::article.article' })]);
    expect(library[0]).not.toHaveProperty('internalNotes');
    // a plain populate, or `*` at the root, gives no related
    for (const q of ['populate=cover', 'populate=*', 'populate[cover]=true', 'populate[cover][populate][related]=false']) {
      const r = await u.t.get(`/api/articles/${articleDoc}?${q}`);
      expect(r.status, q).toBe(200);
      expect(r.body.data.cover, q).not.toHaveProperty('related');
    }
  });

  it("takes fields beside it, the morph forms, and works deeper down (an author's article's cover, a zone entry's file)", async () => {
    const withFields = await u.t.get(`/api/articles/${articleDoc}?populate[cover][fields][0]=name&populate[cover][populate]=related`);
    expect(withFields.body.data.cover).toEqual({ id: fileId, documentId: expect.any(String), name: 'a.png', related: [expect.objectContaining({ documentId: articleDoc })] });
    const counted = await u.t.get(`/api/articles/${articleDoc}?populate[cover][populate][related][count]=true`);
    expect(counted.body.data.cover.related).toEqual({ count: 1 });
    const on = await u.t.get(`/api/articles/${articleDoc}?populate[cover][populate][related][on][api::article.article][fields][0]=title`);
    expect(on.body.data.cover.related).toEqual([{ id: expect.any(Number), documentId: articleDoc, title: 'Has a cover', __type: 'api::article.article' }]);
    const zone = await u.t.get(`/api/articles/${articleDoc}?populate[blocks][on][shared.media][populate][file][populate]=related`);
    expect(zone.status, zone.text).toBe(200);
    expect(zone.body.data.blocks[0].file.related).toEqual([{ id: expect.any(Number), __type: 'shared.media' }]);
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Deep author', articles: [articleDoc] } } });
    expect(author.status, JSON.stringify(author.body)).toBe(201);
    const deep = await u.t.get(`/api/authors/${author.body.data.documentId}?populate[articles][populate][cover][populate]=related`);
    expect(deep.status, deep.text).toBe(200);
    expect(deep.body.data.articles[0].cover.related).toEqual([expect.objectContaining({ documentId: articleDoc, __type: 'api::article.article' })]);
  });

  it('lists only entries the caller may find: a token that may read articles only sees no author, and no draft', async () => {
    const img = await u.upload([filePart(await png(22, 22), 'shared-avatar.png', 'image/png')]);
    const id = img.body[0].id as number;
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Hidden author', avatar: id } } });
    const published = await u.t.request('POST', '/api/articles', { body: { data: { title: 'Seen article', cover: id } } });
    const draft = await u.t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'Draft article', cover: id } } });
    expect([author.status, published.status, draft.status]).toEqual([201, 201, 201]);
    const q = `/api/articles/${published.body.data.documentId}?populate[cover][populate]=related`;
    const full = await u.t.get(q);
    expect(full.body.data.cover.related.map((e: { __type: string }) => e.__type)).toEqual(['api::author.author', 'api::article.article']);
    const articlesOnly = await u.t.tokenOf('custom', ['api::article.article.find', 'api::article.article.findOne']);
    const limited = await u.t.get(q, { token: articlesOnly });
    expect(limited.status, limited.text).toBe(200);
    expect(limited.body.data.cover.related).toEqual([expect.objectContaining({ documentId: published.body.data.documentId, __type: 'api::article.article' })]);
    expect(limited.text).not.toContain('Hidden author');
    expect(full.text).not.toContain('Draft article');
    // a draft read shows the draft's cover, and still only published entries under it
    const drafts = await u.t.get(`/api/articles/${draft.body.data.documentId}?status=draft&populate[cover][populate]=related`);
    expect(drafts.status, drafts.text).toBe(200);
    expect(drafts.body.data.title).toBe('Draft article');
    expect(drafts.body.data.cover.related.map((e: Record<string, unknown>) => e['name'] ?? e['title'])).toEqual(['Hidden author', 'Seen article']);
  });

  it('reads related for a whole list in a fixed number of statements', async () => {
    const [one, two] = await statementCosts(u.t, [
      `/api/articles?populate[cover][populate]=related&filters[title][$eq]=Has a cover`,
      `/api/articles?populate[cover][populate]=related&filters[title][$in][0]=Has a cover&filters[title][$in][1]=Another cover`,
    ]);
    expect(two).toBe(one);
  });

  it('names bad keys as Strapi does, and refuses what the media library refuses', async () => {
    const bad = (q: string) => u.t.get(`/api/articles?${q}`).then((r) => r.body);
    expect(await bad('populate[cover][populate]=related,nope')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: 'nope', source: 'query', param: 'populate' }),
    );
    expect(await bad('populate[cover][populate][related][on][nope]=true')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key nope at cover.populate.related.on.nope', {
        key: 'nope',
        path: 'cover.populate.related.on.nope',
        source: 'query',
        param: 'populate',
      }),
    );
    expect(await bad('populate[cover][populate][related]=sometimes')).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key related at cover.populate.related', { key: 'related', path: 'cover.populate.related', source: 'query', param: 'populate' }),
    );
    expect((await bad('populate[cover][populate][related][populate]=*')).error.message).toMatch(/^Invalid nested populate for file\.related/);
    // a file's folder, and localizations of a type that isn't localized, are named at their whole path, as Strapi names them
    for (const [q, path] of [
      ['populate[cover][populate]=folder', 'cover.folder'],
      ['populate[cover][populate][folder]=true', 'cover.folder'],
      ['populate[author][populate][avatar][populate][0]=folder', 'author.avatar.folder'],
    ] as const) {
      expect(await bad(q), q).toEqual(errorOf(400, 'ValidationError', `Invalid key folder at ${path}`, { key: 'folder', path, source: 'query', param: 'populate' }));
    }
    for (const q of ['populate[author][populate]=localizations', 'populate[author][populate][localizations]=true']) {
      expect(await bad(q), q).toEqual(
        errorOf(400, 'ValidationError', 'Invalid key localizations at author.localizations', {
          key: 'localizations',
          path: 'author.localizations',
          source: 'query',
          param: 'populate',
        }),
      );
    }
    // the dotted form is not read (Strapi: the same 400)
    expect(await bad('populate=cover.related')).toEqual(errorOf(400, 'ValidationError', 'Invalid key cover', { key: 'cover', path: 'cover', source: 'query', param: 'populate' }));
  });
});
