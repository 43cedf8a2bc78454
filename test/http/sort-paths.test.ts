// `sort` through media, and what a direction means after something that is no field: the reference
// Strapi 5.54 answered each of these URLs with the bodies pinned here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from '../upload/helpers.js';

let u: UploadApp;

beforeAll(async () => {
  u = await startUploadApp();
  const files: number[] = [];
  for (const name of ['b.png', 'a.png', 'c.png']) {
    const r = await u.upload([filePart(await png(4, 4), name, 'image/png')]);
    if (r.status !== 201) throw new Error(r.text);
    files.push(r.body[0].id);
  }
  const [b, a, c] = files;
  const articles: [string, Record<string, unknown>][] = [
    ['First', { cover: b }],
    ['Second', { cover: a }],
    ['Third', { cover: c }],
    ['Fourth', {}],
    ['Fifth', { seo: { metaTitle: 'm', shareImage: c } }],
  ];
  for (const [title, data] of articles) {
    const r = await u.t.request('POST', '/api/articles', { body: { data: { title, ...data } } });
    if (r.status !== 201) throw new Error(r.text);
  }
});
afterAll(async () => {
  await u.close();
});

const titles = async (q: string): Promise<string[]> => {
  const r = await u.t.get(`/api/articles?fields[0]=title&${q}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data.map((d: { title: string }) => d.title);
};

const invalidKey = (key: string, path: string | null, param = 'sort'): unknown => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: path === null || path === key ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
    details: { key, path, source: 'query', param },
  },
});

describe('sort through media', () => {
  it('orders by a field of the linked file; documents without one come first ascending, last descending', async () => {
    expect(await titles('sort=cover.name:asc,title')).toEqual(['Fifth', 'Fourth', 'Second', 'First', 'Third']);
    expect(await titles('sort[0][cover][name]=desc&sort[1][title]=asc')).toEqual(['Third', 'First', 'Second', 'Fifth', 'Fourth']);
  });

  it('through a component to its media', async () => {
    expect((await titles('sort=seo.shareImage.name:desc,title'))[0]).toBe('Fifth');
  });

  it('refuses what a file has no field for, at the path Strapi names', async () => {
    expect((await u.t.get('/api/articles?sort=cover.nope:asc')).body).toEqual(invalidKey('nope', 'cover'));
    expect((await u.t.get('/api/articles?sort=cover.related:asc')).body).toEqual(invalidKey('related', 'cover.related'));
    expect((await u.t.get('/api/articles?sort=cover.folder:asc')).body).toEqual(invalidKey('asc', 'cover.folder'));
  });
});

describe('a direction after a relation, component or media is read as a key one level deeper', () => {
  it('is "Invalid key <direction> at <attribute>", in every form', async () => {
    for (const q of ['sort=author:asc', 'sort[0]=author:asc', 'sort[author]=asc', 'sort=author:asc:x', 'sort=author.name:asc,author:asc']) {
      expect((await u.t.get(`/api/articles?${q}`)).body, q).toEqual(invalidKey('asc', 'author'));
    }
    expect((await u.t.get('/api/articles?sort=author:DESC')).body).toEqual(invalidKey('DESC', 'author'));
    expect((await u.t.get('/api/articles?sort[author]=1')).body).toEqual(invalidKey('1', 'author'));
    expect((await u.t.get('/api/articles?sort=seo:desc')).body).toEqual(invalidKey('desc', 'seo'));
    expect((await u.t.get('/api/articles?sort=cover:desc')).body).toEqual(invalidKey('desc', 'cover'));
    expect((await u.t.get('/api/articles?sort=author:sideways')).body).toEqual(invalidKey('sideways', 'author'));
  });

  it('also after a relation the caller may not find: the sort is read before the permission, as in Strapi 5.54', async () => {
    const token = await u.t.tokenOf('custom', ['api::article.article.find']);
    for (const q of ['sort=author:asc', 'sort[author]=asc', 'sort=title,author:desc']) {
      const key = q.endsWith('desc') ? 'desc' : 'asc';
      expect((await u.t.get(`/api/articles?${q}`, { token })).body, q).toEqual(invalidKey(key, 'author'));
    }
    // with nothing after it, or below it, the relation itself is the bad key
    expect((await u.t.get('/api/articles?sort=author', { token })).body).toEqual(invalidKey('author', 'author'));
    expect((await u.t.get('/api/articles?sort=author.name:asc', { token })).body).toEqual(invalidKey('author', 'author'));
  });

  it('without one (or an empty one) the attribute itself is the bad key', async () => {
    for (const q of ['sort=author', 'sort=author:', 'sort[author]=', 'sort=author,title']) {
      expect((await u.t.get(`/api/articles?${q}`)).body, q).toEqual(invalidKey('author', 'author'));
    }
  });

  it('a bad direction on a field is still the order error; an unknown name is named before its direction', async () => {
    const order = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} } };
    for (const q of ['sort=title:sideways', 'sort[title]=sideways', 'sort=title:', 'sort=author.name:sideways']) {
      expect((await u.t.get(`/api/articles?${q}`)).body, q).toEqual(order);
    }
    expect((await u.t.get('/api/articles?sort=nope:sideways')).body).toEqual(invalidKey('nope', null));
  });
});

describe("attributes Strapi's model has and Folio's queries don't are refused at their own path", () => {
  it('createdBy and updatedBy on every content type, localizations on every one (filters, sort, fields)', async () => {
    expect((await u.t.get('/api/articles?filters[createdBy][id]=1')).body).toEqual(invalidKey('createdBy', 'createdBy', 'filters'));
    expect((await u.t.get('/api/articles?sort=updatedBy')).body).toEqual(invalidKey('updatedBy', 'updatedBy'));
    expect((await u.t.get('/api/articles?sort=createdBy:asc')).body).toEqual(invalidKey('asc', 'createdBy'));
    expect((await u.t.get('/api/articles?fields=createdBy')).body).toEqual(invalidKey('createdBy', 'createdBy', 'fields'));
    expect((await u.t.get('/api/authors?fields=localizations')).body).toEqual(invalidKey('localizations', 'localizations', 'fields'));
    expect((await u.t.get('/api/authors?sort[localizations]=asc')).body).toEqual(invalidKey('asc', 'localizations'));
    expect((await u.t.get('/api/users?sort=createdBy')).body).toEqual(invalidKey('createdBy', 'createdBy'));
  });

  it('related and folder on the media library', async () => {
    expect((await u.t.get('/api/upload/files?filters[related][id]=1')).body).toEqual(invalidKey('related', 'related', 'filters'));
    expect((await u.t.get('/api/upload/files?fields=related')).body).toEqual(invalidKey('related', 'related', 'fields'));
    expect((await u.t.get('/api/upload/files?sort=related:asc')).body).toEqual(invalidKey('related', 'related'));
    expect((await u.t.get('/api/upload/files?sort=folder:asc')).body).toEqual(invalidKey('asc', 'folder'));
    expect((await u.t.get('/api/upload/files?filters[folder][id]=1')).body).toEqual(invalidKey('folder', 'folder', 'filters'));
  });

  it('a name no model has is still reported at its parent', async () => {
    expect((await u.t.get('/api/articles?filters[nope]=1')).body).toEqual(invalidKey('nope', null, 'filters'));
    expect((await u.t.get('/api/upload/files?sort=nope')).body).toEqual(invalidKey('nope', null));
    expect((await u.t.get('/api/articles?filters[seo][createdBy]=1')).body).toEqual(invalidKey('createdBy', 'seo', 'filters'));
  });
});

describe('a sort with several problems names the one Strapi names', () => {
  const order = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid order. order can only be one of asc|desc|ASC|DESC', details: {} } };
  // Strapi checks the whole sort once for unknown names, then dynamic zones, polymorphic and private
  // attributes, names with nothing after them, and reads directions and keys past a field last; the
  // entries of a list are walked side by side (the shallowest problem first), an object's keys in turn
  const cases: [string, unknown][] = [
    ['sort[0]=author:desc&sort[1]=nope', invalidKey('nope', null)],
    ['sort=author:desc,nope', invalidKey('nope', null)],
    ['sort[0]=author.nope&sort[1]=nope2', invalidKey('nope2', null)],
    ['sort[0]=author.name.x&sort[1]=author.nope', invalidKey('nope', 'author')],
    ['sort[0]=author.nope1&sort[1]=author.nope2', invalidKey('nope1', 'author')],
    ['sort[author]=desc&sort[nope]=asc', invalidKey('desc', 'author')],
    ['sort[title][x]=desc&sort[nope]=asc', invalidKey('nope', null)],
    ['sort[title]=sideways&sort[nope]=asc', invalidKey('nope', null)],
    ['sort=title:sideways,nope', invalidKey('nope', null)],
    ['sort[0]=title:sideways&sort[1]=author.nope', invalidKey('nope', 'author')],
    ['sort[0]=internalNotes&sort[1]=author.nope', invalidKey('nope', 'author')],
    ['sort[0]=internalNotes&sort[1]=blocks', invalidKey('blocks', 'blocks')],
    ['sort[0]=seo&sort[1]=internalNotes', invalidKey('internalNotes', 'internalNotes')],
    ['sort[0]=createdBy&sort[1]=internalNotes', invalidKey('createdBy', 'createdBy')],
    ['sort=localizations,internalNotes', invalidKey('internalNotes', 'internalNotes')],
    ['sort[0]=title.x&sort[1]=internalNotes', invalidKey('internalNotes', 'internalNotes')],
    ['sort[0]=title:up&sort[1]=internalNotes', invalidKey('internalNotes', 'internalNotes')],
    ['sort[0]=views.x&sort[1]=title:up', order],
    ['sort[0]=title:up&sort[1]=views.x', order],
    // a list mixing strings and objects is read as an object keyed by index
    ['sort[0][author]=desc&sort[1]=nope', invalidKey('0', null)],
    ['sort[0]=title&sort[1]', invalidKey('0', null)],
  ];
  it.each(cases)('%s', async (q, body) => {
    expect((await u.t.get(`/api/articles?${q}`)).body).toEqual(body);
  });

  it('a list of nothing is no sort', async () => {
    expect(await titles('sort[]&filters[title][$eq]=First')).toEqual(['First']);
  });

  it('on the media library, a polymorphic attribute before a private one', async () => {
    expect((await u.t.get('/api/upload/files?sort=folder,related')).body).toEqual(invalidKey('related', 'related'));
  });
});

describe('a sort path through more than one to-many relation', () => {
  // from one article, tags.articles reaches every article sharing a tag, and one more to-many step whole
  // tables: the key costs that for every row sorted (four such steps ran 25 s on PostgreSQL)
  it.each([
    ['tags.articles.tags.articles.tags.articles.tags.articles.title', 8],
    ['tags.articles.title', 2],
    ['categories.articles.tags.label:desc', 3],
  ])('%s is a 400 naming the path (Strapi 5.54 sorts by it)', async (key, n) => {
    const r = await u.t.get(`/api/articles?fields[0]=title&sort[0]=${key}`);
    expect(r.status).toBe(400);
    const path = key.split(':')[0]!.split('.').slice(0, -1).join('.');
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: `sort may go through at most one to-many relation per key (${path} goes through ${n})`,
      details: { source: 'query', param: 'sort', limit: 1 },
    });
  });

  it('inside a populate too', async () => {
    const r = await u.t.get('/api/articles?populate[tags][sort][0]=articles.categories.name');
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('sort may go through at most one to-many relation per key (articles.categories goes through 2)');
  });

  it('one to-many relation among to-one steps and components is sorted by', async () => {
    expect((await u.t.get('/api/articles?fields[0]=title&sort=author.articles.title')).status).toBe(200);
    expect((await u.t.get('/api/categories?fields[0]=name&sort=articles.author.name:desc')).status).toBe(200);
  });
});

describe('sort keys through relations, in all', () => {
  it('a key named again is left out: the answer is the same as with it once', async () => {
    const once = await u.t.get('/api/articles?fields[0]=title&sort[0]=tags.label&sort[1]=title');
    // 30 copies: counted each, they would pass the 25 steps a request's sorts may take
    const repeated = await u.t.get(`/api/articles?fields[0]=title&${Array.from({ length: 30 }, (_, i) => `sort[${i}]=tags.label`).join('&')}&sort[30]=title`);
    expect(repeated.status).toBe(200);
    expect(repeated.body).toEqual(once.body);
  });

  it('more than 25 relation, component and media steps in one request are a 400', async () => {
    const file = ['name', 'url', 'mime', 'size', 'width', 'height', 'hash', 'ext', 'caption', 'alternativeText'].map((f) => `seo.shareImage.${f}`);
    const keys = [...file, 'author.name', 'author.bio', 'author.email', 'tags.label', 'tags.color', 'categories.name', 'categories.slug'];
    const r = await u.t.get(`/api/articles?fields[0]=title&${keys.map((k, i) => `sort[${i}]=${k}`).join('&')}`);
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'sort may go through relations, components and media at most 25 times in all (these go 27 times)',
      details: { source: 'query', param: 'sort', limit: 25 },
    });
  });
});

describe('a sort through a to-many relation whose linked rows hold NULL', () => {
  beforeAll(async () => {
    const tag = async (label: string, color?: string): Promise<string> =>
      (await u.t.request('POST', '/api/tags', { body: { data: { label, ...(color ? { color } : {}) } } })).body.data.documentId;
    const none = await tag('nul-none');
    const white = await tag('nul-white', '#ffffff');
    const black = await tag('nul-black', '#000000');
    for (const [title, tags] of [
      ['nul-a', [none, white]],
      ['nul-b', [black]],
      ['nul-c', []],
      ['nul-d', [none]],
      ['nul-e', [white, black]],
    ] as const) {
      const r = await u.t.request('POST', '/api/articles', { body: { data: { title, tags } } });
      if (r.status !== 201) throw new Error(r.text);
    }
  });

  // the orders the reference Strapi 5.54 gave for the same data
  it('ascending, a NULL among the values is the smallest key, as no link is', async () => {
    expect(await titles('filters[title][$startsWith]=nul-&sort[0]=tags.color&sort[1]=title')).toEqual(['nul-a', 'nul-c', 'nul-d', 'nul-b', 'nul-e']);
  });

  it('descending, the largest value that is not NULL', async () => {
    expect(await titles('filters[title][$startsWith]=nul-&sort[0]=tags.color:desc&sort[1]=title')).toEqual(['nul-a', 'nul-e', 'nul-b', 'nul-c', 'nul-d']);
  });
});
