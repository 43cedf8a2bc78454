// Relations to the admin panel's users (`target: admin::user`), as public Strapi 5 projects declare them
// (a note's owner and editors). Folio has no admin users and never reads Strapi's admin tables, so such
// a relation never holds a link; every answer below is the one Strapi 5.54 gives with no admin linked
// (checked side by side with the reference, full-access token).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeDocument, type TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const NOTE = 'src/api/note/content-types/note/schema.json';
const ROUTING = 'src/api/routing/content-types/routing/schema.json';
const rel = (relation: string, target: string): Record<string, string> => ({ type: 'relation', relation, target });

const FILES = {
  [NOTE]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'notes',
    info: { singularName: 'note', pluralName: 'notes' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      owner: rel('manyToOne', 'admin::user'),
      body: { type: 'text' },
      editors: rel('manyToMany', 'admin::user'),
      author: rel('manyToOne', 'api::author.author'),
      stamp: { type: 'component', component: 'shared.stamp' },
      secret: { ...rel('manyToOne', 'admin::user'), private: true },
      blocks: { type: 'dynamiczone', components: ['shared.stamp'] },
    },
  }),
  // arda-e/netas-academy routes notifications to admin roles
  [ROUTING]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'routings',
    info: { singularName: 'routing', pluralName: 'routings' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, adminRoles: rel('manyToMany', 'admin::role') },
  }),
  'src/components/shared/stamp.json': JSON.stringify({
    collectionName: 'components_shared_stamps',
    info: { displayName: 'stamp' },
    attributes: { label: { type: 'string' }, approver: rel('oneToOne', 'admin::user') },
  }),
};

const invalidKey = (key: string, path: string | null, param: string) => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: path && path !== key ? `Invalid key ${key} at ${path}` : `Invalid key ${key}`,
    details: { key, path, source: 'query', param },
  },
});

let t: TestApp;
let titles: string[];

beforeAll(async () => {
  t = await startExampleWith(FILES);
  await writeDocument(t, 'POST', '/api/notes', { title: 'a', body: 'x', stamp: { label: 'ok' }, blocks: [{ __component: 'shared.stamp', label: 'z' }] });
  await writeDocument(t, 'POST', '/api/notes', { title: 'b', body: 'y' });
  titles = ['a', 'b'];
});

afterAll(async () => {
  await t?.close();
});

const list = async (query: string): Promise<unknown[]> => {
  const r = await t.get(`/api/notes?${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body.data as unknown[];
};

describe('a relation to admin::user', () => {
  it('start-up says how it is served', () => {
    expect(t.app.model.notices).toContain(
      `${NOTE}: attribute "owner": its target admin::user is the admin panel's user, which Folio does not run; the relation never holds a link (populated as empty, and a write naming an admin user is refused, as Strapi answers while none is linked)`,
    );
  });

  it('populates as null, [] or a count of 0, in schema order under populate=*', async () => {
    expect(await list('fields[0]=title&populate=owner')).toEqual(titles.map((title, i) => ({ id: i + 1, documentId: expect.any(String), title, owner: null })));
    const star = (await list('fields[0]=title&populate=*')) as Record<string, unknown>[];
    // a private one is left out, as any private relation
    expect(Object.keys(star[0]!)).toEqual(['id', 'documentId', 'title', 'owner', 'editors', 'author', 'stamp', 'blocks']);
    expect(star[0]).toMatchObject({ owner: null, editors: [], author: null, stamp: { label: 'ok' } });
    expect(star[0]!['stamp']).not.toHaveProperty('approver');
    expect(await list('fields[0]=title&populate[editors][count]=true&populate[owner][count]=true')).toEqual(
      titles.map((title, i) => ({ id: i + 1, documentId: expect.any(String), title, editors: { count: 0 }, owner: { count: 0 } })),
    );
    const v4 = await t.get('/api/notes?fields[0]=title&populate[owner]=true&populate[editors]=true&pagination[pageSize]=1', { headers: { 'Strapi-Response-Format': 'v4' } });
    expect(v4.body.data).toEqual([{ id: 1, documentId: expect.any(String), attributes: { title: 'a', owner: { data: null }, editors: { data: [] } } }]);
    // in a component, and through a dynamic zone's component by a dotted path
    const inZone = (await list('fields[0]=title&populate=blocks.approver')) as Record<string, unknown>[];
    expect(inZone[0]!['blocks']).toEqual([{ __component: 'shared.stamp', id: expect.any(Number), label: 'z', approver: null }]);
    const inComponent = (await list('fields[0]=title&populate[stamp][populate]=approver')) as Record<string, unknown>[];
    expect(inComponent[0]!['stamp']).toEqual({ id: expect.any(Number), label: 'ok', approver: null });
  });

  it('reads nothing to populate it: the statement count is that of the plain list', async () => {
    const before = t.dataStatements();
    await list('fields[0]=title');
    const plain = t.dataStatements() - before;
    const again = t.dataStatements();
    await list('fields[0]=title&populate[owner][fields][0]=firstname&populate[editors][sort]=lastname&populate[owner][filters][username][$eq]=x');
    expect(t.dataStatements() - again).toBe(plain);
  });

  it("checks what is asked of it against the admin user's public and private names", async () => {
    expect(await list('fields[0]=title&populate[owner][fields][0]=firstname&populate[owner][sort]=lastname:desc')).toHaveLength(2);
    expect((await t.get('/api/notes?populate[owner][fields][0]=email')).body).toEqual(invalidKey('email', 'email', 'populate'));
    expect((await t.get('/api/notes?populate[owner][fields][0]=nope')).body).toEqual(invalidKey('nope', null, 'populate'));
    expect((await t.get('/api/notes?populate[owner][fields][0]=locale')).body).toEqual(invalidKey('locale', 'locale', 'populate'));
    expect((await t.get('/api/notes?populate[owner][filters][password][$eq]=1')).body).toEqual(invalidKey('password', 'password', 'populate'));
    expect((await t.get('/api/notes?populate[owner][populate]=roles')).body).toEqual(invalidKey('roles', 'owner.roles', 'populate'));
    expect((await t.get('/api/notes?populate[owner][populate][roles]=true')).body).toEqual(invalidKey('roles', 'owner.roles', 'populate'));
    expect((await t.get('/api/notes?populate[owner][populate][email]=true')).body).toEqual(invalidKey('email', 'owner.populate.email', 'populate'));
    expect((await t.get('/api/notes?populate[owner][populate][nope]=true')).body).toEqual(invalidKey('nope', 'owner', 'populate'));
    expect((await t.get('/api/notes?populate=owner.roles')).body).toEqual(invalidKey('roles', 'owner.roles', 'populate'));
    expect((await t.get('/api/notes?fields[0]=editors')).body).toEqual(invalidKey('editors', 'editors', 'fields'));
    // a private one is refused as any private relation
    expect((await t.get('/api/notes?populate=secret')).body).toEqual(invalidKey('secret', 'secret', 'populate'));
    expect((await t.get('/api/notes?filters[secret][id][$null]=true')).body).toEqual(invalidKey('secret', 'secret', 'filters'));
    expect((await t.get('/api/notes?sort=secret.firstname')).body).toEqual(invalidKey('secret', 'secret', 'sort'));
  });

  it('filters as on a row of NULLs: only what holds with no user linked matches', async () => {
    const matching = async (filters: string): Promise<string[]> => ((await list(`fields[0]=title&${filters}`)) as { title: string }[]).map((d) => d.title);
    expect(await matching('filters[owner][id][$null]=true')).toEqual(titles);
    expect(await matching('filters[owner][$null]=true')).toEqual(titles);
    expect(await matching('filters[editors][id][$null]=true')).toEqual(titles);
    expect(await matching('filters[$or][0][owner][id][$null]=true')).toEqual(titles);
    expect(await matching('filters[owner][id][$notNull]=true')).toEqual([]);
    expect(await matching('filters[owner][firstname][$eq]=x')).toEqual([]);
    expect(await matching('filters[owner][firstname][$ne]=x')).toEqual([]);
    expect(await matching('filters[owner]=1')).toEqual([]);
    expect(await matching('filters[$or][0][owner][id][$eq]=1&filters[$or][1][title][$eq]=a')).toEqual(['a']);
    expect((await t.get('/api/notes?filters[owner][email][$eq]=x')).body).toEqual(invalidKey('email', 'owner.email', 'filters'));
    expect((await t.get('/api/notes?filters[owner][nope][$eq]=x')).body).toEqual(invalidKey('nope', 'owner', 'filters'));
    expect((await t.get('/api/notes?filters[owner][roles][id][$null]=true')).body).toEqual(invalidKey('roles', 'owner.roles', 'filters'));
  });

  it('sorts as a tie on every document, and refuses what Strapi refuses', async () => {
    const order = async (sort: string): Promise<string[]> => ((await list(`fields[0]=title&${sort}`)) as { title: string }[]).map((d) => d.title);
    expect(await order('sort=owner.firstname')).toEqual(['a', 'b']);
    expect(await order('sort=owner.firstname:desc,title:desc')).toEqual(['b', 'a']);
    expect(await order('sort[owner][lastname]=desc')).toEqual(['a', 'b']);
    expect((await t.get('/api/notes?sort=owner')).body).toEqual(invalidKey('owner', 'owner', 'sort'));
    expect((await t.get('/api/notes?sort=owner.email')).body).toEqual(invalidKey('email', 'owner.email', 'sort'));
    expect((await t.get('/api/notes?sort=owner.nope')).body).toEqual(invalidKey('nope', 'owner', 'sort'));
  });

  it('accepts a write that links no user and refuses one that names a user', async () => {
    for (const empty of [{ owner: null }, { editors: [] }, { owner: [] }, { editors: { set: [] } }, { editors: { disconnect: [1] } }]) {
      const r = await t.request('POST', '/api/notes', { body: { data: { title: 'c', ...empty } } });
      expect(r.status, JSON.stringify(empty)).toBe(201);
      await t.request('DELETE', `/api/notes/${r.body.data.documentId as string}`);
    }
    const missing = (n: number, value: Record<string, unknown>) => {
      const message = `${n} relation(s) of type admin::user associated with this entity do not exist`;
      return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [], message, name: 'ValidationError', value }] } } };
    };
    const post = async (data: Record<string, unknown>) => (await t.request('POST', '/api/notes', { body: { data } })).body;
    expect(await post({ title: 'c', owner: 1 })).toEqual(missing(1, { title: 'c', owner: { set: [{ id: 1 }] }, blocks: [], publishedAt: expect.any(String) }));
    expect(await post({ title: 'c', editors: [1, 2] })).toEqual(missing(2, { title: 'c', editors: { set: [{ id: 1 }, { id: 2 }] }, blocks: [], publishedAt: expect.any(String) }));
    expect(await post({ title: 'c', editors: { connect: [1] } })).toEqual(
      missing(1, { title: 'c', editors: { connect: [{ id: 1 }] }, blocks: [], publishedAt: expect.any(String) }),
    );
    // among other missing relations, the first in schema order (owner before author)
    expect((await post({ title: 'c', author: 99, owner: 1 })).error.message).toBe('1 relation(s) of type admin::user associated with this entity do not exist');
    const notFound = { data: null, error: { status: 400, name: 'ValidationError', message: 'Document with id "abc", locale "null" not found', details: {} } };
    expect(await post({ title: 'c', owner: 'abc' })).toEqual(notFound);
    // a documentId is looked up before any row id, as Strapi resolves them first
    expect(await post({ title: 'c', owner: 'abc', author: 99 })).toEqual(notFound);
    expect(await post({ title: 'c', editors: { disconnect: ['abc'] } })).toEqual(notFound);
    const [first] = (await list('fields[0]=title')) as { documentId: string }[];
    const put = await t.request('PUT', `/api/notes/${first!.documentId}`, { body: { data: { owner: 1 } } });
    expect(put.body.error.message).toBe('1 relation(s) of type admin::user associated with this entity do not exist');
    expect(await list('fields[0]=title')).toHaveLength(2);
  });

  it('is left out for a caller who may not read admin users (the Public role)', async () => {
    await t.app.services.roles.grant('public', ['api::note.note.find']);
    const r = await t.get('/api/notes?fields[0]=title&populate=*', { token: null });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body.data[0])).toEqual(['id', 'documentId', 'title', 'stamp', 'blocks']);
    expect((await t.get('/api/notes?populate=owner', { token: null })).body.data[0]).not.toHaveProperty('owner');
    expect((await t.get('/api/notes?filters[owner][id][$null]=true', { token: null })).body).toEqual(invalidKey('owner', 'owner', 'filters'));
  });
});

describe('a relation to admin::role', () => {
  it('starts with a notice, populates as [] (under populate=* too), filters as on no role, and takes a write that names none', async () => {
    expect(t.app.model.notices).toContain(
      `${ROUTING}: attribute "adminRoles": its target admin::role is the admin panel's role, which Folio does not run; the relation never holds a link (populated as empty, and a write naming an admin role is refused, as Strapi answers while none is linked)`,
    );
    const made = await t.request('POST', '/api/routings', { body: { data: { name: 'alerts', adminRoles: [] } } });
    expect(made.status, made.text).toBe(201);
    const all = await t.get('/api/routings?populate=*');
    expect(all.body.data[0]).toMatchObject({ name: 'alerts', adminRoles: [] });
    expect((await t.get('/api/routings?populate[adminRoles]=true')).body.data[0].adminRoles).toEqual([]);
    expect((await t.get('/api/routings?filters[adminRoles][id][$null]=true')).body.data).toHaveLength(1);
    expect((await t.get('/api/routings?filters[adminRoles][name][$eq]=Editor')).body.data).toHaveLength(0);
    expect((await t.get('/api/routings?filters[adminRoles][users][id][$null]=true')).status).toBe(400);
    const naming = await t.request('POST', '/api/routings', { body: { data: { name: 'x', adminRoles: [1] } } });
    expect(naming.status).toBe(400);
    expect(naming.body.error.message).toBe('1 relation(s) of type admin::role associated with this entity do not exist');
  });
});
