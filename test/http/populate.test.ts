import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { newDocumentId } from '../../src/documents/document-id.js';

let t: TestApp;
const doc: Record<string, string> = {};

async function create(plural: string, data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', `/api/${plural}`, { body: { data } });
  if (r.status !== 201) throw new Error(`${plural}: ${r.status} ${r.text}`);
  return r.body.data.documentId;
}

const ids = (list: { documentId: string }[]): string[] => list.map((x) => x.documentId);

beforeAll(async () => {
  t = await startTestApp();
  doc['root'] = await create('categories', { name: 'Root' });
  doc['child1'] = await create('categories', { name: 'Child 1', parent: doc['root'] });
  doc['child2'] = await create('categories', { name: 'Child 2', parent: doc['root'] });
  doc['t1'] = await create('tags', { label: 'one' });
  doc['t2'] = await create('tags', { label: 'two' });
  doc['t3'] = await create('tags', { label: 'three' });
  doc['author'] = await create('authors', { name: 'Writer', links: [{ label: 'site', url: 'https://w.test' }] });
  doc['base'] = await create('articles', { title: 'Base' });
  const now = t.app.database.dialect.toDatetime(new Date());
  doc['user'] = newDocumentId();
  await t.app.database.db
    .insertInto('up_users')
    .values({
      document_id: doc['user'],
      username: 'editor1',
      email: 'e@x.test',
      password: '$2a$10$secret',
      reset_password_token: 'tok',
      confirmed: t.app.database.dialect.toBoolean(true),
      blocked: t.app.database.dialect.toBoolean(false),
      provider: 'local',
      created_at: now,
      updated_at: now,
      published_at: now,
    })
    .execute();
  doc['article'] = await create('articles', {
    title: 'Full',
    author: doc['author'],
    categories: [doc['child1'], doc['root']],
    tags: [doc['t3'], doc['t1'], doc['t2']],
    related: [doc['base']],
    editor: doc['user'],
    seo: { metaTitle: 'Meta', openGraph: { ogTitle: 'OG' } },
    blocks: [
      { __component: 'shared.rich-text', body: 'rt' },
      { __component: 'shared.quote', title: 'Q', person: doc['author'] },
    ],
  });
});
afterAll(async () => {
  await t.close();
});

describe('populate', () => {
  it("targets shared across a page appear under every document linking them, in each one's order, drafts left out", async () => {
    const draft = await t.request('POST', '/api/tags?status=draft', { body: { data: { label: 'draft only' } } });
    expect(draft.status).toBe(201);
    const a = await create('articles', { title: 'shared-targets', tags: [doc['t2'], draft.body.data.documentId, doc['t1']], author: doc['author'] });
    const b = await create('articles', { title: 'shared-targets', tags: [doc['t1'], doc['t2']], author: doc['author'] });
    const r = await t.get('/api/articles?filters[title][$eq]=shared-targets&sort=id:asc&populate[tags]=true&populate[author][populate][0]=links');
    expect(r.status).toBe(200);
    expect(ids(r.body.data)).toEqual([a, b]);
    const [x, y] = r.body.data;
    expect(ids(x.tags)).toEqual([doc['t2'], doc['t1']]);
    expect(ids(y.tags)).toEqual([doc['t1'], doc['t2']]);
    expect(y.tags[0]).toEqual(x.tags[1]);
    expect(x.tags[1]).toMatchObject({ label: 'one', publishedAt: expect.any(String) });
    expect(x.author).toMatchObject({ documentId: doc['author'], name: 'Writer', links: [{ label: 'site', url: 'https://w.test' }] });
    expect(y.author).toEqual(x.author);
    const drafts = await t.get(`/api/articles/${a}?status=draft&populate=tags`);
    expect(ids(drafts.body.data.tags)).toEqual([doc['t2'], draft.body.data.documentId, doc['t1']]);
  });

  it("self relations: a category's parent and children", async () => {
    const r = await t.get(`/api/categories/${doc['root']}?populate[0]=children&populate[1]=parent`);
    expect(ids(r.body.data.children)).toEqual([doc['child1'], doc['child2']]);
    expect(r.body.data.parent).toBeNull();
    const c = await t.get(`/api/categories/${doc['child2']}?populate=parent`);
    expect(c.body.data.parent.documentId).toBe(doc['root']);
  });

  it('one-way relations and relations to users; private user fields never appear', async () => {
    const r = await t.get(`/api/articles/${doc['article']}?populate[0]=related&populate[1]=editor`);
    expect(ids(r.body.data.related)).toEqual([doc['base']]);
    expect(r.body.data.editor).toMatchObject({ documentId: doc['user'], username: 'editor1', email: 'e@x.test', confirmed: true, blocked: false });
    expect(r.body.data.editor).not.toHaveProperty('password');
    expect(r.body.data.editor).not.toHaveProperty('resetPasswordToken');
    expect(r.text).not.toContain('$2a$10$secret');
  });

  it('populate=* is one level: components have scalars only, dynamic-zone entries scalars and __component', async () => {
    const r = await t.get(`/api/articles/${doc['article']}?populate=*`);
    const d = r.body.data;
    expect(Object.keys(d)).toEqual(expect.arrayContaining(['cover', 'gallery', 'author', 'categories', 'tags', 'related', 'editor', 'seo', 'blocks', 'localizations']));
    expect(d.seo).toEqual({ id: expect.any(Number), metaTitle: 'Meta', metaDescription: null, keywords: null });
    expect(d.blocks).toEqual([
      { id: expect.any(Number), body: 'rt', __component: 'shared.rich-text' },
      { id: expect.any(Number), title: 'Q', body: null, __component: 'shared.quote' },
    ]);
    expect(d.author).not.toHaveProperty('links');
    expect(d.localizations).toEqual([]);
    expect(d).not.toHaveProperty('internalNotes');
  });

  it('* stands alone: in a list or beside other names it is Invalid key *, at any depth, as Strapi 5.54 answers', async () => {
    const star = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid key *', details: { key: '*', path: '*', source: 'query', param: 'populate' } } };
    for (const q of [
      'populate[0]=*',
      'populate=*,author',
      'populate=author,*',
      'populate[0]=author&populate[1]=*',
      'populate[author][populate][0]=*',
      'populate[author][populate]=*,profile',
    ]) {
      expect((await t.get(`/api/articles?${q}`)).body, q).toEqual(star);
    }
  });

  it('fields, filters and sort inside a populate; populate sort overrides connect order', async () => {
    const r = await t.get(`/api/articles/${doc['article']}?populate[tags][fields][0]=label&populate[tags][sort][0]=label:asc&populate[tags][filters][label][$ne]=two`);
    expect(r.body.data.tags).toEqual([
      { id: expect.any(Number), documentId: doc['t1'], label: 'one' },
      { id: expect.any(Number), documentId: doc['t3'], label: 'three' },
    ]);
    const order = await t.get(`/api/articles/${doc['article']}?populate=tags`);
    expect(ids(order.body.data.tags)).toEqual([doc['t3'], doc['t1'], doc['t2']]);
    const toOne = await t.get(`/api/articles/${doc['article']}?populate[author][filters][name][$eq]=Nobody`);
    expect(toOne.body.data.author).toBeNull();
  });

  it('filters and sort inside a component populate: unmatched entries left out, a single component unmatched is null, each list in the sort order', async () => {
    const author = await create('authors', {
      name: 'Linked',
      links: [
        { label: 'b', url: 'https://b.test/1' },
        { label: 'a', url: 'https://a.test/2' },
        { label: 'c', url: 'https://c.test/1' },
      ],
    });
    const get = async (q: string): Promise<Record<string, unknown>> => {
      const r = await t.get(`/api/authors/${author}?fields[0]=name&${q}`);
      expect(r.status, r.text).toBe(200);
      return r.body.data;
    };
    const labels = (d: Record<string, unknown>): string[] => (d['links'] as { label: string }[]).map((l) => l.label);
    expect(labels(await get('populate[links][filters][url][$endsWith]=1'))).toEqual(['b', 'c']);
    expect(labels(await get('populate[links][sort][0]=label:desc'))).toEqual(['c', 'b', 'a']);
    expect(labels(await get('populate[links][sort][0]=label:asc&populate[links][filters][label][$ne]=b'))).toEqual(['a', 'c']);
    expect(labels(await get('populate[links][filters][label][$eq]=nope'))).toEqual([]);
    // without either, the stored order
    expect(labels(await get('populate=links'))).toEqual(['b', 'a', 'c']);
    const seo = async (q: string): Promise<unknown> => (await t.get(`/api/articles/${doc['article']}?fields[0]=title&${q}`)).body.data.seo;
    expect(await seo('populate[seo][filters][metaTitle][$startsWith]=Nope')).toBeNull();
    expect(await seo('populate[seo][filters][metaTitle][$startsWith]=Me')).toMatchObject({ metaTitle: 'Meta' });
    expect(await seo('populate[seo][populate][openGraph][filters][ogTitle][$eq]=x')).toMatchObject({ metaTitle: 'Meta', openGraph: null });
    expect(await seo('populate[seo][populate][openGraph][filters][ogTitle][$eq]=OG')).toMatchObject({ openGraph: { ogTitle: 'OG' } });
    // a filter on a field the component doesn't have is refused, as before
    const bad = await t.get(`/api/authors/${author}?populate[links][filters][nope][$eq]=1`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toBe('Invalid key nope');
    expect((await t.request('DELETE', `/api/authors/${author}`)).status).toBe(204);
  });

  it('count returns the number of related documents', async () => {
    const r = await t.get(`/api/articles/${doc['article']}?populate[tags][count]=true`);
    expect(r.body.data.tags).toEqual({ count: 3 });
  });

  it('count on a component is the number of its entries, as Strapi 5.54 answers; media and dynamic zones ignore it', async () => {
    const one = await t.get(`/api/articles/${doc['article']}?fields[0]=title&populate[seo][count]=true&populate[blocks][count]=true&populate[cover][count]=true`);
    expect(one.status, one.text).toBe(200);
    expect(one.body.data.seo).toEqual({ count: 1 });
    expect(one.body.data.blocks.map((b: { __component: string }) => b.__component)).toEqual(['shared.rich-text', 'shared.quote']);
    expect(one.body.data.cover).toBeNull();
    const none = await t.get(`/api/articles/${doc['base']}?fields[0]=title&populate[seo][count]=true`);
    expect(none.body.data.seo).toEqual({ count: 0 });
    const repeatable = await t.get(`/api/authors/${doc['author']}?fields[0]=name&populate[links][count]=true`);
    expect(repeatable.body.data.links).toEqual({ count: 1 });
    const list = await t.get(`/api/authors?fields[0]=name&populate[links][count]=true&sort=name`);
    expect(list.body.data.map((a: { links: unknown }) => a.links)).toEqual([{ count: 1 }]);
  });

  it('nested populate through relations and components', async () => {
    const r = await t.get(`/api/articles/${doc['article']}?populate[author][populate][0]=links&populate[0]=seo.openGraph`);
    expect(r.status, r.text).toBe(400);
    const ok = await t.get(`/api/articles/${doc['article']}?populate[author][populate][0]=links&populate[seo][populate][0]=openGraph`);
    expect(ok.body.data.author.links).toEqual([{ id: expect.any(Number), label: 'site', url: 'https://w.test', newTab: false }]);
    expect(ok.body.data.seo.openGraph).toMatchObject({ ogTitle: 'OG' });
    const dotted = await t.get(`/api/articles/${doc['article']}?populate=seo.openGraph`);
    expect(dotted.body.data.seo.openGraph).toMatchObject({ ogTitle: 'OG' });
  });

  it('a relation whose target the caller cannot find is left out silently', async () => {
    const custom = await t.tokenOf('custom', ['api::article.article.findOne', 'api::tag.tag.find']);
    const r = await t.get(`/api/articles/${doc['article']}?populate=*`, { token: custom });
    expect(r.status).toBe(200);
    expect(r.body.data).toHaveProperty('tags');
    expect(r.body.data).not.toHaveProperty('author');
    expect(r.body.data).not.toHaveProperty('categories');
    const f = await t.get(`/api/articles/${doc['article']}?filters[author][name][$eq]=Writer`, { token: custom });
    expect(f.status).toBe(400);
    expect(f.body.error.message).toBe('Invalid key author');
  });

  it('a dotted path through a relation the caller cannot find is left out whole, as in Strapi 5.54', async () => {
    // articles may be found, their categories may not: no `articles` either, unless named on its own
    const custom = await t.tokenOf('custom', ['api::author.author.findOne', 'api::article.article.find']);
    const path = await t.get(`/api/authors/${doc['author']}?fields[0]=name&populate=articles.categories`, { token: custom });
    expect(path.status, path.text).toBe(200);
    expect(path.body.data).toEqual({ id: expect.any(Number), documentId: doc['author'], name: 'Writer' });
    const named = await t.get(`/api/authors/${doc['author']}?fields[0]=name&populate[0]=articles.categories&populate[1]=articles`, { token: custom });
    expect(named.body.data.articles.map((a: { title: string }) => a.title)).toContain('Full');
    expect(named.body.data.articles[0]).not.toHaveProperty('categories');
  });

  it('a populate mixing its forms (as qs reads repeated keys) is refused with the body Strapi 5.54 gives', async () => {
    const mixed = {
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid populate parameter. Expected a string, an array of strings, a populate object', details: {} },
    };
    const nested = { data: null, error: { status: 400, name: 'ValidationError', message: "Invalid nested populate. Expected '*' or an object", details: {} } };
    const key = (k: string, path: string) => ({
      data: null,
      error: { status: 400, name: 'ValidationError', message: `Invalid key ${k} at ${path}`, details: { key: k, path, source: 'query', param: 'populate' } },
    });
    const cases: [string, unknown][] = [
      ['populate=tags&populate[author]=true', mixed],
      ['populate[0]=tags&populate[1][author]=true', mixed],
      ['populate[author][populate]=links&populate[author][populate][avatar]=true', mixed],
      ['populate[tags]=true&populate[tags][count]=true', nested],
      ['populate[tags][0]=false', nested],
      ['populate[tags][0][x]=1', nested],
      ['populate[tags][0]=label', key('label', 'tags.label')],
      ['populate[tags][0]=articles&populate[tags][1]=nope', key('articles', 'tags.articles')],
      ['populate[tags][0]=nope', key('nope', 'tags')],
    ];
    for (const [q, body] of cases) expect((await t.get(`/api/articles?${q}`)).body, q).toEqual(body);
  });

  it('populate errors: unknown key, scalar, status inside, fields on a dynamic zone', async () => {
    const cases: [string, string][] = [
      ['populate=nope', 'Invalid key nope'],
      ['populate=title', 'Invalid key title'],
      ['populate[tags][status]=draft', 'Invalid key status at tags'],
      ['populate[tags][limit]=1', 'Invalid key limit at tags'],
      [
        'populate[blocks][fields][0]=title',
        'Invalid nested populate for article.blocks (api::article.article). Expected a fragment ("on") or "count" but found {"fields":["title"]}',
      ],
      ['populate[blocks][on][shared.nope]=true', 'Invalid key shared.nope at blocks.on.shared.nope'],
      ['populate=cover.related', 'Invalid key cover'],
    ];
    for (const [q, message] of cases) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toBe(message);
    }
  });

  it("a dynamic zone given neither a boolean nor an object is Strapi 5.54's nested-populate error naming the value, `*` included", async () => {
    const message = (found: string): string => `Invalid nested populate for article.blocks (api::article.article). Expected a fragment ("on") or "count" but found ${found}`;
    for (const [q, found] of [
      ['populate[blocks]=*', '"*"'],
      ['populate[blocks]=abc', '"abc"'],
      ['populate[blocks]=TRUE', '"TRUE"'],
      ['populate[blocks]=shared.quote', '"shared.quote"'],
      ['populate[blocks]=%22x%22', '"\\"x\\""'],
      ['populate[blocks][0]=x', '["x"]'],
      ['populate[blocks]=', '""'],
    ] as const) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message: message(found), details: {} } });
    }
    for (const q of ['populate[blocks]=true', 'populate[blocks]=1', 'populate[blocks]=t', 'populate[blocks]=false', 'populate[blocks]=0']) {
      expect((await t.get(`/api/articles?${q}`)).status, q).toBe(200);
    }
  });

  it('populated keys come in the order the populate names them; populate=* in schema order, localizations, then zones', async () => {
    const keys = async (q: string): Promise<string[]> => {
      const r = await t.get(`/api/articles/${doc['article']}?fields[0]=title&${q}`);
      expect(r.status, r.text).toBe(200);
      return Object.keys(r.body.data);
    };
    expect(await keys('populate[tags][fields][0]=label&populate[author][fields][0]=name&populate[seo]=true')).toEqual(['id', 'documentId', 'title', 'tags', 'author', 'seo']);
    expect(await keys('populate[0]=seo&populate[1]=tags&populate[2]=author')).toEqual(['id', 'documentId', 'title', 'seo', 'tags', 'author']);
    expect(await keys('populate[seo]=true&populate[localizations][fields][0]=title&populate[author]=true&populate[blocks]=true')).toEqual([
      'id',
      'documentId',
      'title',
      'seo',
      'localizations',
      'author',
      'blocks',
    ]);
    expect(await keys('populate=*')).toEqual([
      'id',
      'documentId',
      'title',
      'cover',
      'gallery',
      'author',
      'categories',
      'tags',
      'related',
      'editor',
      'seo',
      'localizations',
      'blocks',
    ]);
  });

  it('as Strapi 5.54: populated keys shallowest first (plain, then keys populated one level below, then two…), a dynamic zone after the keys of its depth, each run in the order asked', async () => {
    const keys = async (q: string): Promise<string[]> => {
      const r = await t.get(`/api/articles/${doc['article']}?fields[0]=title&${q}`);
      expect(r.status, r.text).toBe(200);
      return Object.keys(r.body.data).slice(3);
    };
    // each case as the reference Strapi 5.54 answered it
    for (const [q, expected] of [
      ['populate[seo][populate][shareImage]=true&populate[tags]=true', ['tags', 'seo']],
      ['populate[author][populate][avatar]=true&populate[tags]=true', ['tags', 'author']],
      ['populate[blocks][on][shared.quote]=true&populate[tags]=true', ['tags', 'blocks']],
      ['populate[blocks]=true&populate[author][populate][avatar]=true&populate[tags]=true', ['tags', 'blocks', 'author']],
      ['populate[author][populate][avatar]=true&populate[blocks]=true&populate[seo][populate][shareImage]=true&populate[tags]=true', ['tags', 'blocks', 'author', 'seo']],
      ['populate[0]=author.avatar&populate[1]=tags', ['tags', 'author']],
      ['populate[0]=blocks&populate[1]=tags', ['tags', 'blocks']],
      ['populate[tags][populate]=*&populate[author]=true', ['author', 'tags']],
      ['populate[tags][populate][articles]=false&populate[author]=true', ['author', 'tags']],
      ['populate[localizations][populate][0]=tags&populate[author]=true', ['author', 'localizations']],
      ['populate[author][populate][avatar][fields][0]=name&populate[cover]=true&populate[seo]=true', ['cover', 'seo', 'author']],
      ['populate[seo][fields][0]=metaTitle&populate[tags]=true', ['seo', 'tags']],
      ['populate[seo][count]=true&populate[tags]=true', ['seo', 'tags']],
      // a zone that populates below its components comes after every other kind
      ['populate[seo][populate]=*&populate[blocks][populate]=*', ['seo', 'blocks']],
      ['populate[blocks][populate]=*&populate[author][populate]=*&populate[seo][populate]=*', ['author', 'seo', 'blocks']],
      ['populate[blocks][on][shared.quote][populate][person]=true&populate[seo][populate]=*&populate[author][populate]=*', ['seo', 'author', 'blocks']],
      ['populate[blocks][populate]=*&populate[tags]=true&populate[seo]=true&populate[author][populate]=*', ['tags', 'seo', 'author', 'blocks']],
      ['populate[0]=blocks.person&populate[1]=author&populate[2]=cover', ['author', 'cover', 'blocks']],
      ['populate[blocks][on][shared.quote]=true&populate[seo][populate]=*', ['blocks', 'seo']],
      // deeper after shallower: two levels below after one, a zone after the entries of its depth
      ['populate[author][populate][articles][populate][tags]=true&populate[seo][populate][openGraph]=true', ['seo', 'author']],
      ['populate[author][populate][articles][populate][tags]=true&populate[blocks][populate]=*', ['blocks', 'author']],
      ['populate[blocks][on][shared.quote][populate][person][populate][profile]=true&populate[author][populate][articles][populate][tags]=true', ['author', 'blocks']],
      [
        'populate[blocks][on][shared.quote][populate][person][populate][profile]=true&populate[author][populate][articles][populate][tags][populate][articles]=true',
        ['blocks', 'author'],
      ],
      ['populate[0]=author.articles.tags&populate[1]=seo.openGraph', ['seo', 'author']],
      ['populate[author][populate][articles][populate][tags]=false&populate[seo][populate][openGraph]=true', ['seo', 'author']],
      ['populate[tags][populate][articles]=false&populate[seo][populate][openGraph]=true', ['tags', 'seo']],
    ] as const) {
      expect(await keys(q), q).toEqual(expected);
    }
    const r = await t.get(`/api/articles/${doc['article']}?populate[author][populate][articles][populate][tags]=true&populate[author][populate][avatar]=true`);
    expect(Object.keys(r.body.data.author).slice(-2)).toEqual(['avatar', 'articles']);
    expect((await t.get('/api/articles?populate[tags][populate]=&populate[author]=true')).body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid key  at tags', details: { key: '', path: 'tags', source: 'query', param: 'populate' } },
    });
  });

  it('a top-level populate entry holding several names separated by commas populates each, as Strapi 5.54 reads it; empty names are skipped', async () => {
    for (const q of ['populate[0]=author,tags', 'populate[0]=author,%20tags', 'populate[0]=author,&populate[1]=tags', 'populate=author,,tags', 'populate=author,tags,']) {
      const r = await t.get(`/api/articles/${doc['article']}?fields[0]=title&${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(Object.keys(r.body.data).slice(3), q).toEqual(['author', 'tags']);
    }
    await expectInvalidKey('populate[0]=author,nope', 'nope', 'nope');
    // below an entry, a list entry is one name
    await expectInvalidKey('populate[author][populate][0]=profile,avatar', 'profile,avatar', 'author');
  });

  it('a bad key in a dotted populate path is reported at the dotted path up to it, as Strapi 5.54 does', async () => {
    const cases: [string, string, string][] = [
      ['populate=nope.x', 'nope', 'nope'],
      ['populate=author.nope', 'nope', 'author.nope'],
      ['populate=seo.openGraph.nope', 'nope', 'seo.openGraph.nope'],
      ['populate=author.articles.nope', 'nope', 'author.articles.nope'],
      ['populate=author.avatar.x', 'avatar', 'author.avatar'],
      ['populate=localizations.nope', 'nope', 'localizations.nope'],
      ['populate[author][populate]=articles.nope', 'nope', 'articles.nope'],
      // below a dynamic zone, at the zone's next segment
      ['populate=blocks.nope', 'nope', 'blocks.nope'],
      ['populate=blocks.person.nope', 'person', 'blocks.person'],
      ['populate=blocks.files.x', 'files', 'blocks.files'],
    ];
    for (const [q, key, path] of cases) await expectInvalidKey(q, key, path);
  });

  it('a bad key below a dynamic zone fragment is reported at the zone path, and `locale` under a relation, media or localizations entry at its own, as Strapi 5.54 does', async () => {
    const cases: [string, string, string][] = [
      ['populate[blocks][on][shared.quote][nope]=1', 'nope', 'blocks'],
      ['populate[blocks][on][shared.quote][locale]=fr', 'locale', 'blocks'],
      ['populate[blocks][on][shared.quote][populate][nope]=true', 'nope', 'blocks'],
      ['populate[blocks][on][shared.quote][populate][person][nope]=1', 'nope', 'blocks.person'],
      ['populate[blocks][on][shared.quote][populate][person][locale]=fr', 'locale', 'blocks.person.locale'],
      // a component uid the zone can't hold keeps its own path
      ['populate[blocks][on][shared.nope]=true', 'shared.nope', 'blocks.on.shared.nope'],
      ['populate[tags][locale]=fr', 'locale', 'tags.locale'],
      ['populate[author][locale][x]=1', 'locale', 'author.locale'],
      ['populate[cover][locale]=fr', 'locale', 'cover.locale'],
      ['populate[localizations][locale]=fr', 'locale', 'localizations.locale'],
      ['populate[tags][populate][articles][populate][author][locale]=x', 'locale', 'tags.articles.author.locale'],
      // a component entry names it at the entry, as any other key
      ['populate[seo][locale]=fr', 'locale', 'seo'],
      ['populate[tags][nope]=1', 'nope', 'tags'],
      // a key naming one of the target's attributes (its own, or the timestamps and creator fields every
      // content type and file has) is named at its own path; id and documentId are not attributes there
      ['populate[author][name]=true', 'name', 'author.name'],
      ['populate[categories][name]=true', 'name', 'categories.name'],
      ['populate[seo][metaTitle]=true', 'metaTitle', 'seo.metaTitle'],
      ['populate[blocks][on][shared.quote][title]=true', 'title', 'blocks.title'],
      ['populate[cover][name]=true', 'name', 'cover.name'],
      ['populate[cover][createdAt]=true', 'createdAt', 'cover.createdAt'],
      ['populate[author][publishedAt]=true', 'publishedAt', 'author.publishedAt'],
      ['populate[author][createdBy]=true', 'createdBy', 'author.createdBy'],
      ['populate[seo][createdAt]=true', 'createdAt', 'seo'],
      ['populate[author][documentId]=true', 'documentId', 'author'],
    ];
    for (const [q, key, path] of cases) await expectInvalidKey(q, key, path);
  });

  it('an attribute that exists but cannot be populated (a scalar, a private one) is named where the request wrote it, as Strapi 5.54 does', async () => {
    const cases: [string, string, string][] = [
      ['populate[title]=true', 'title', 'title'],
      ['populate[internalNotes][fields][0]=id', 'internalNotes', 'internalNotes'],
      ['populate[author][populate][name]=true', 'name', 'author.populate.name'],
      ['populate[seo][populate][metaTitle]=true', 'metaTitle', 'seo.populate.metaTitle'],
      ['populate[tags][populate][articles][populate][views]=true', 'views', 'tags.populate.articles.populate.views'],
      ['populate[cover][populate][name]=true', 'name', 'cover.populate.name'],
      ['populate[blocks][on][shared.quote][populate][title]=true', 'title', 'blocks.on[shared.quote].populate.title'],
      // the string form names it at its dotted path
      ['populate=author.name', 'name', 'author.name'],
    ];
    for (const [q, key, path] of cases) await expectInvalidKey(q, key, path);
    // an unknown key at the top of the object form has no path
    expect((await t.get('/api/articles?populate[nope]=true')).body.error.details).toEqual({ key: 'nope', path: null, source: 'query', param: 'populate' });
  });
});

async function expectInvalidKey(q: string, key: string, path: string): Promise<void> {
  const r = await t.get(`/api/articles?${q}`);
  expect(r.body, q).toEqual({
    data: null,
    error: {
      status: 400,
      name: 'ValidationError',
      message: key === path ? `Invalid key ${key}` : `Invalid key ${key} at ${path}`,
      details: { key, path, source: 'query', param: 'populate' },
    },
  });
}
