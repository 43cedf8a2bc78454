// Shapes found in public Strapi 5 projects that Strapi 5.54 starts with and serves: hyphens in a
// table name, a relation whose partner names nothing, and extensions restating Strapi's own attributes
// of the built-in types.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { connect } from '../../src/database/connect.js';
import { syncSchema } from '../../src/database/sync.js';
import { MAX_INDEX_NAME, modelTables } from '../../src/database/tables.js';
import { providerSettings } from '../../src/plugins/users-permissions/providers/settings.js';
import { loadModel } from '../../src/schema/load-model.js';
import { SECRETS } from '../config/helpers.js';
import { EXAMPLE_DIR, startTestApp, type TestApp } from '../support/app.js';
import { createTestDatabase } from '../support/database.js';
import { filePart, form, startUploadApp } from '../upload/helpers.js';
import { writeFiles } from './write-files.js';

const GADGET = 'src/api/gadget/content-types/gadget/schema.json';
const PART = 'src/components/kit/logo-part.json';
const OWNER = 'src/api/owner/content-types/owner/schema.json';
const ROLE_EXT = 'src/extensions/users-permissions/content-types/role/schema.json';
const FILE_EXT = 'src/extensions/upload/content-types/file/schema.json';
const GUIDE = 'src/api/guide/content-types/guide/schema.json';
const at = (name: string): string => `src/api/${name}/content-types/${name}/schema.json`;
const type = (single: string, plural: string, attributes: Record<string, unknown>): string =>
  JSON.stringify({
    kind: 'collectionType',
    info: { singularName: single, pluralName: plural },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, ...attributes },
  });
const rel = (relation: string, target: string, more: Record<string, string> = {}): Record<string, string> => ({ type: 'relation', relation, target, ...more });
/** pairs as public projects write them (freelancer-strapi, serwisLigowyStrapi, civicship-cms) */
const PAIRS = {
  // two relations claim one partner, which names the second
  [at('post')]: type('post', 'posts', {
    writer: rel('manyToOne', 'api::writer.writer', { inversedBy: 'posts' }),
    bio: rel('manyToOne', 'api::writer.writer', { inversedBy: 'posts' }),
  }),
  [at('writer')]: type('writer', 'writers', { posts: rel('oneToMany', 'api::post.post', { mappedBy: 'bio' }) }),
  // a oneToOne pair whose both sides say inversedBy
  [at('badge')]: type('badge', 'badges', { holder: rel('oneToOne', 'api::holder.holder', { inversedBy: 'badge' }) }),
  [at('holder')]: type('holder', 'holders', { badge: rel('oneToOne', 'api::badge.badge', { inversedBy: 'holder' }) }),
  // one side says both
  [at('member')]: type('member', 'members', { club: rel('manyToOne', 'api::club.club', { inversedBy: 'members', mappedBy: 'members' }) }),
  [at('club')]: type('club', 'clubs', { members: rel('oneToMany', 'api::member.member', { mappedBy: 'club' }) }),
  // relations to a third-party plugin's type and to the admin panel's users
  [at('device')]: type('device', 'devices', { token: rel('oneToOne', 'plugin::refresh-token.token'), reviewer: rel('manyToOne', 'admin::user') }),
  // a project's own `users` collection (civicship-cms)
  [at('user')]: type('user', 'users', {}),
  // mappedBy a relation that says no inversedBy (zenithus-my: a prize's spins, and the spin's one-way result)
  [at('prize')]: type('prize', 'prizes', { spins: rel('oneToMany', 'api::spin.spin', { mappedBy: 'result' }) }),
  [at('spin')]: type('spin', 'spins', { result: rel('manyToOne', 'api::prize.prize') }),
  // inversedBy a relation that says no mappedBy (Gaodafeiyan/strapi-backend-skeleton: an order's plan, and
  // the plan's one-way orders)
  [at('plan')]: type('plan', 'plans', { orders: rel('oneToMany', 'api::order.order') }),
  [at('order')]: type('order', 'orders', { plan: rel('manyToOne', 'api::plan.plan', { inversedBy: 'orders' }) }),
  // a self pair whose both sides say inversedBy (MaksZhukov/strapi-v5's tags)
  [at('topic')]: type('topic', 'topics', {
    parents: rel('manyToMany', 'api::topic.topic', { inversedBy: 'children' }),
    children: rel('manyToMany', 'api::topic.topic', { inversedBy: 'parents' }),
  }),
  // no "kind", an attribute named meta (PEPE2414/strapi-backend), and createdBy declared as a relation
  // to users (DesumovJP/restaraunt-OS)
  [at('note')]: JSON.stringify({
    info: { singularName: 'note', pluralName: 'notes' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      meta: { type: 'json' },
      createdBy: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user' },
    },
  }),
};

const FILES = {
  // a required component and a required zone of at least one entry, on a type with draft & publish
  [GUIDE]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'guide', pluralName: 'guides' },
    options: { draftAndPublish: true },
    attributes: {
      title: { type: 'string' },
      hero: { type: 'component', component: 'kit.logo-part', repeatable: false, required: true },
      body: { type: 'dynamiczone', components: ['kit.logo-part'], required: true, min: 1 },
      // a zone not given any component yet, and the system timestamps written out
      later: { type: 'dynamiczone', components: [] },
      createdAt: { type: 'datetime' },
      updatedAt: { type: 'datetime' },
      // as local-law-cms writes it
      publishedAt: { type: 'date' },
    },
  }),
  [PART]: JSON.stringify({ collectionName: 'components_kit_logo-parts', info: { displayName: 'Logo part' }, attributes: { label: { type: 'string' } } }),
  [GADGET]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'gadget-items',
    info: { singularName: 'gadget', pluralName: 'gadgets' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      part: { type: 'component', component: 'kit.logo-part', repeatable: false, pluginOptions: { i18n: { localized: true } } },
      zone: { type: 'dynamiczone', components: ['kit.logo-part'], pluginOptions: { i18n: { localized: true } } },
      picture: { type: 'media', allowedTypes: ['images', 'files'], multiple: false },
      tags: { type: 'relation', relation: 'manyToMany', target: 'api::tag.tag' },
      // one way to Strapi: the owner side of a pair whose partner was never written
      keeper: { type: 'relation', relation: 'manyToOne', target: 'api::owner.owner', inversedBy: 'nothing' },
    },
  }),
  [OWNER]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'owner', pluralName: 'owners' },
    options: { draftAndPublish: false },
    attributes: {
      name: { type: 'string' },
      // mappedBy an attribute the gadget doesn't have: Strapi shows it empty, always
      gadgets: { type: 'relation', relation: 'oneToMany', target: 'api::gadget.gadget', mappedBy: 'owner' },
    },
  }),
  // as Strapi's own schema files have them
  [ROLE_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'up_roles',
    info: { singularName: 'role', pluralName: 'roles' },
    attributes: {
      name: { type: 'string', minLength: 3, required: true },
      permissions: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.permission', mappedBy: 'role', configurable: false },
      users: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role', configurable: false },
    },
  }),
  [FILE_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files' },
    attributes: {
      related: { type: 'relation', relation: 'morphToMany', configurable: false },
      folder: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.folder', inversedBy: 'files', private: true },
      credit: { type: 'string' },
    },
  }),
};

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** the example app with `files` written over it */
function exampleWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-shapes-'));
  made.push(dir);
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, files);
  return dir;
}

describe('the model', () => {
  it('takes hyphens in table names, as Strapi does', () => {
    const model = loadModel(exampleWith(FILES));
    expect(model.contentTypes.get('api::gadget.gadget')!.table).toBe('gadget-items');
    expect(model.components.get('kit.logo-part')!.table).toBe('components_kit_logo-parts');
    expect(() => loadModel(exampleWith({ ...FILES, [PART]: JSON.stringify({ collectionName: 'parts;drop', attributes: {} }) }))).toThrow(
      `${PART}: collectionName "parts;drop" is not a valid table name`,
    );
  });

  it('serves an owner side whose partner names nothing one way, leaves out a mappedBy side, and says both', () => {
    const model = loadModel(exampleWith(FILES));
    expect(model.contentTypes.get('api::gadget.gadget')!.attributes.get('keeper')).toMatchObject({
      kind: 'relation',
      owner: true,
      inverse: undefined,
      linkTable: 'gadget_items_keeper_lnk',
    });
    const owner = model.contentTypes.get('api::owner.owner')!;
    expect(owner.attributes.has('gadgets')).toBe(false);
    expect(owner.order).toEqual(['name']);
    expect(model.notices).toEqual([
      // a localized type's media written without i18n options: shared by the locales
      `${GADGET}: "picture" has no pluginOptions.i18n.localized: shared by the locales, as in Strapi 5`,
      `${GUIDE}: attribute "createdAt" is the system timestamp every entry has; its declaration is left out`,
      `${GUIDE}: attribute "updatedAt" is the system timestamp every entry has; its declaration is left out`,
      `${GUIDE}: attribute "publishedAt" is the system timestamp every entry has; its declaration is left out`,
      `${GADGET}: attribute "keeper": "inversedBy: nothing" names no attribute of api::owner.owner; it is served as a one-way relation`,
      `${OWNER}: attribute "gadgets": "mappedBy: owner" names no attribute of api::gadget.gadget; it can never hold a link: a populate of it answers no key and a write to it is ignored, as in Strapi`,
    ]);
  });

  it("keeps Folio's own definition of Strapi's built-in attributes an extension restates", () => {
    const model = loadModel(exampleWith(FILES));
    const role = model.contentTypes.get('plugin::users-permissions.role')!;
    expect(role.attributes.has('permissions')).toBe(false);
    expect(role.attributes.get('users')).toMatchObject({ kind: 'relation', owner: false, inverse: 'role' });
    const file = model.contentTypes.get('plugin::upload.file')!;
    expect([file.attributes.has('related'), file.attributes.has('folder'), file.attributes.has('credit')]).toEqual([false, false, true]);
  });

  it('a partner that exists but does not point back is still an error', () => {
    const tag = JSON.stringify({
      kind: 'collectionType',
      info: { singularName: 'owner', pluralName: 'owners' },
      attributes: { name: { type: 'string' }, gadgets: { type: 'relation', relation: 'oneToMany', target: 'api::gadget.gadget', mappedBy: 'name' } },
    });
    expect(() => loadModel(exampleWith({ ...FILES, [OWNER]: tag }))).toThrow(/attribute "gadgets": "mappedBy: name" needs a matching relation "name" on api::gadget.gadget/);
  });
});

describe('pairs Strapi reads leniently', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dir: exampleWith(PAIRS) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('start-up says how each is read', () => {
    expect([...(t.app.model.notices ?? [])].sort()).toEqual(
      [
        `${at('member')}: attribute "club" has both "inversedBy" and "mappedBy"; it is read as "inversedBy: members"`,
        `${at('post')}: attribute "writer": "inversedBy: posts" names a relation that pairs with "bio" on api::writer.writer; it is served as a one-way relation`,
        `${at('holder')}: attribute "badge": both sides of its pair say "inversedBy"; it is read as "mappedBy: holder", as Strapi does`,
        `${at('device')}: attribute "token": its target plugin::refresh-token.token is defined by a plugin or the admin panel, which Folio does not run; the relation is left out`,
        `${at('device')}: attribute "reviewer": its target admin::user is the admin panel's user, which Folio does not run; the relation never holds a link (populated as empty, and a write naming an admin user is refused, as Strapi answers while none is linked)`,
        `${at('prize')}: attribute "spins": "mappedBy: result" names a one-way relation on api::spin.spin; it can never hold a link: a populate of it answers no key and a write to it is ignored, as in Strapi`,
        `${at('order')}: attribute "plan": "inversedBy: orders" names a one-way relation on api::plan.plan; it is served as a one-way relation`,
        `${at('topic')}: attribute "children": both sides of its pair say "inversedBy"; it is read as "mappedBy: parents", as Strapi does`,
        `${at('note')}: attribute "createdBy" is Strapi's own admin-user field, which clients can't read or write; its declaration is left out`,
      ].sort(),
    );
  });

  it('each is written and read as Strapi serves it', async () => {
    const create = async (plural: string, data: Record<string, unknown>): Promise<string> => {
      const r = await t.request('POST', `/api/${plural}`, { body: { data } });
      expect(r.status, r.text).toBe(201);
      return r.body.data.documentId as string;
    };
    const ann = await create('writers', { name: 'Ann' });
    const bob = await create('writers', { name: 'Bob' });
    const post = await create('posts', { name: 'P', writer: ann, bio: bob });
    expect((await t.get(`/api/posts/${post}?populate=*`)).body.data).toMatchObject({ writer: { name: 'Ann' }, bio: { name: 'Bob' } });
    // the writer's posts are those whose bio it is
    expect((await t.get(`/api/writers/${bob}?populate=posts`)).body.data.posts.map((p: { name: string }) => p.name)).toEqual(['P']);
    expect((await t.get(`/api/writers/${ann}?populate=posts`)).body.data.posts).toEqual([]);
    const holder = await create('holders', { name: 'H' });
    const badge = await create('badges', { name: 'B', holder });
    expect((await t.get(`/api/holders/${holder}?populate=badge`)).body.data.badge).toMatchObject({ documentId: badge });
    const club = await create('clubs', { name: 'C' });
    await create('members', { name: 'M', club });
    expect((await t.get(`/api/clubs/${club}?populate=members`)).body.data.members.map((m: { name: string }) => m.name)).toEqual(['M']);
    // the one-way side links; the prize serves without spins (Strapi 5.54 lists no spins key, even under populate=*)
    const prize = await create('prizes', { name: 'Car' });
    const spin = await create('spins', { name: 'S', result: prize });
    expect((await t.get(`/api/spins/${spin}?populate=result`)).body.data.result).toMatchObject({ documentId: prize, name: 'Car' });
    for (const q of ['populate=*', 'populate=spins', 'populate[spins][populate]=result']) {
      const r = await t.get(`/api/prizes/${prize}?${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(r.body.data, q).not.toHaveProperty('spins');
    }
    // a write through it is ignored: the spin keeps its result
    const other = await create('prizes', { name: 'Boat', spins: [spin] });
    expect((await t.request('PUT', `/api/prizes/${other}`, { body: { data: { spins: { connect: [spin] } } } })).status).toBe(200);
    expect((await t.get(`/api/spins/${spin}?populate=result`)).body.data.result).toMatchObject({ documentId: prize });
    // but what it names must exist, as Strapi checks it (6531503070/easymiles-server-ts: a user's cars)
    const missing = await t.request('PUT', `/api/prizes/${other}`, { body: { data: { spins: [999999] } } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('1 relation(s) of type api::spin.spin associated with this entity do not exist');
    expect(missing.body.error.details.errors[0].value).toMatchObject({ spins: { set: [{ id: 999999 }] } });
    const noDoc = await t.request('POST', '/api/prizes', { body: { data: { name: 'Kite', spins: { connect: ['nosuchdocument'] } } } });
    expect(noDoc.status).toBe(400);
    expect(noDoc.body.error.message).toMatch(/^Document with id "nosuchdocument", locale "null" not found$/);
    expect((await t.get('/api/prizes?filters[name][$eq]=Kite')).body.data).toEqual([]);
  });

  it('an inversedBy side whose partner is one-way and the partner each keep their own links', async () => {
    const plan = (await t.request('POST', '/api/plans', { body: { data: { name: 'Gold' } } })).body.data.documentId as string;
    const made = await t.request('POST', '/api/orders', { body: { data: { name: 'O1', plan } } });
    expect(made.status, made.text).toBe(201);
    const order = made.body.data.documentId as string;
    expect((await t.get(`/api/orders/${order}?populate=plan`)).body.data.plan).toMatchObject({ documentId: plan, name: 'Gold' });
    // the plan's orders are its own links, not the orders naming it
    expect((await t.get(`/api/plans/${plan}?populate=orders`)).body.data.orders).toEqual([]);
    expect((await t.request('PUT', `/api/plans/${plan}`, { body: { data: { orders: [order] } } })).status).toBe(200);
    expect((await t.get(`/api/plans/${plan}?populate=orders`)).body.data.orders).toEqual([expect.objectContaining({ documentId: order, name: 'O1' })]);
    expect((await t.get(`/api/orders?filters[plan][name][$eq]=Gold`)).body.data.map((o: { name: string }) => o.name)).toEqual(['O1']);
  });

  it('a self pair whose both sides say inversedBy works both ways', async () => {
    const create = async (data: Record<string, unknown>): Promise<string> => {
      const r = await t.request('POST', '/api/topics', { body: { data } });
      expect(r.status, r.text).toBe(201);
      return r.body.data.documentId as string;
    };
    const root = await create({ name: 'Root' });
    const leaf = await create({ name: 'Leaf', parents: [root] });
    const other = await create({ name: 'Other', children: [leaf] });
    const names = (r: { body: { data: Record<string, { name: string }[]> } }, key: string): string[] => r.body.data[key]!.map((x) => x.name).sort();
    expect(names(await t.get(`/api/topics/${root}?populate=children`), 'children')).toEqual(['Leaf']);
    expect(names(await t.get(`/api/topics/${leaf}?populate=parents`), 'parents')).toEqual(['Other', 'Root']);
    expect(names(await t.get(`/api/topics/${other}?populate=*`), 'children')).toEqual(['Leaf']);
  });

  it('a type without "kind" is a collection type, and an attribute may be named meta', async () => {
    const made = await t.request('POST', '/api/notes', { body: { data: { name: 'N', meta: { a: [1] } } } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({ name: 'N', meta: { a: [1] } });
    // createdBy is Strapi's own field there, closed to clients
    for (const [method, path, body] of [
      ['POST', '/api/notes', { data: { name: 'M', createdBy: 1 } }],
      ['GET', '/api/notes?populate=createdBy', undefined],
      ['GET', '/api/notes?filters[createdBy][id][$eq]=1', undefined],
    ] as const) {
      const r = await t.request(method, path, body === undefined ? {} : { body });
      expect(r.status, path).toBe(400);
      expect(r.body.error.message, path).toBe('Invalid key createdBy');
    }
    const list = await t.get('/api/notes?fields[0]=meta&filters[meta][$notNull]=true');
    expect(list.status, list.text).toBe(200);
    expect(list.body).toEqual({
      data: [{ id: made.body.data.id, documentId: made.body.data.documentId, meta: { a: [1] } }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    });
  });

  it('a relation to a type Folio does not run is left out: the type serves without it', async () => {
    const made = await t.request('POST', '/api/devices', { body: { data: { name: 'D' } } });
    expect(made.status, made.text).toBe(201);
    expect(Object.keys(made.body.data).sort()).toEqual(['createdAt', 'documentId', 'id', 'name', 'publishedAt', 'updatedAt']);
    const populated = await t.get('/api/devices?populate=*');
    expect(populated.body.data).toEqual([expect.objectContaining({ name: 'D' })]);
    expect(populated.body.data[0]).not.toHaveProperty('token');
    // the admin panel's users: never linked (see http/admin-user-relations.test.ts)
    expect(populated.body.data[0]).toHaveProperty('reviewer', null);
    const written = await t.request('POST', '/api/devices', { body: { data: { name: 'E', token: 1 } } });
    expect(written.status).toBe(400);
    expect(written.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key token' });
  });

  it("a project's own users collection answers /api/users, as in Strapi; /api/users/me stays the account's", async () => {
    const made = await t.request('POST', '/api/users', { body: { data: { name: 'Own' } } });
    expect(made.status, made.text).toBe(201);
    const list = await t.get('/api/users');
    expect(list.body).toMatchObject({ data: [{ name: 'Own' }], meta: { pagination: { total: 1 } } });
    expect((await t.get(`/api/users/${made.body.data.documentId}`)).body.data).toMatchObject({ name: 'Own' });
    // the account route: an API token is no user (a content read of id "me" would be a 404)
    expect((await t.get('/api/users/me')).status).toBe(401);
  });
});

describe('over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ dir: exampleWith(FILES) });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a type and a component in hyphenated tables: written, read, populated, filtered, published, localized, cached', async () => {
    const up = await t.request('POST', '/api/upload', { raw: form([filePart('x', 'x.txt', 'text/plain')]) });
    expect(up.status, up.text).toBe(201);
    const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'Red' } } });
    const owner = await t.request('POST', '/api/owners', { body: { data: { name: 'Olga' } } });
    const body = {
      data: {
        name: 'Lamp',
        part: { label: 'base' },
        zone: [{ __component: 'kit.logo-part', label: 'z' }],
        picture: up.body[0].id,
        tags: [tag.body.data.documentId],
        keeper: owner.body.data.documentId,
      },
    };
    const created = await t.request('POST', '/api/gadgets?status=published', { body });
    expect(created.status, created.text).toBe(201);
    const id = created.body.data.documentId as string;
    const read = async (): Promise<Record<string, unknown>> => {
      const r = await t.get(`/api/gadgets/${id}?populate=*`);
      expect(r.status, r.text).toBe(200);
      return r.body.data;
    };
    expect(await read()).toMatchObject({
      name: 'Lamp',
      part: { label: 'base' },
      zone: [{ __component: 'kit.logo-part', label: 'z' }],
      picture: { name: 'x.txt' },
      tags: [{ label: 'Red' }],
      keeper: { name: 'Olga' },
    });
    const put = await t.request('PUT', `/api/gadgets/${id}`, { body: { data: { name: 'Lamp 2', part: { label: 'top' } } } });
    expect(put.status, put.text).toBe(200);
    // the cached read above is retired by the write to the hyphenated tables
    expect(await read()).toMatchObject({ name: 'Lamp 2', part: { label: 'top' } });
    const found = await t.get('/api/gadgets?filters[part][label][$eq]=top&filters[keeper][name][$eq]=Olga&sort=part.label');
    expect(found.body.data.map((g: { documentId: string }) => g.documentId)).toEqual([id]);
    const fr = await t.request('PUT', `/api/gadgets/${id}?locale=fr`, { body: { data: { name: 'Lampe', part: { label: 'haut' } } } });
    expect(fr.status, fr.text).toBe(200);
    expect((await t.get(`/api/gadgets/${id}?locale=fr&populate=part`)).body.data).toMatchObject({ name: 'Lampe', part: { label: 'haut' } });
    expect((await t.request('DELETE', `/api/gadgets/${id}`)).status).toBe(204);
  });

  it('an update or publish that leaves out a required component or zone keeps them, as in Strapi; a create still needs them', async () => {
    const missing = await t.request('POST', '/api/guides', { body: { data: { title: 'no hero' } } });
    expect(missing.status).toBe(400);
    const made = await t.request('POST', '/api/guides', { body: { data: { title: 'a', hero: { label: 'h' }, body: [{ __component: 'kit.logo-part', label: 'b' }] } } });
    expect(made.status, made.text).toBe(201);
    // publishedAt, declared as a date there, is the system timestamp: set on publish, a body's value ignored, as in Strapi
    expect(made.body.data.publishedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const dated = await t.request('POST', '/api/guides?status=draft', { body: { data: { title: 'd', hero: { label: 'h' }, body: [], publishedAt: '2024-05-01' } } });
    expect(dated.status, dated.text).toBe(201);
    expect(dated.body.data.publishedAt).toBeNull();
    const id = made.body.data.documentId as string;
    for (const [query, data] of [
      ['', { title: 'b' }],
      ['?status=draft', { title: 'c' }],
      ['?status=published', {}],
    ] as const) {
      const r = await t.request('PUT', `/api/guides/${id}${query}`, { body: { data } });
      expect(r.status, `${query} ${r.text}`).toBe(200);
    }
    const published = await t.get(`/api/guides/${id}?populate=*`);
    expect(published.body.data).toMatchObject({ title: 'c', hero: { label: 'h' }, body: [{ __component: 'kit.logo-part', label: 'b' }] });
    // the empty zone reads as [] and takes []; the timestamps are the system's (not writable)
    expect(published.body.data.later).toEqual([]);
    expect(published.body.data.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect((await t.request('PUT', `/api/guides/${id}`, { body: { data: { later: [] } } })).status).toBe(200);
    const stamped = await t.request('PUT', `/api/guides/${id}`, { body: { data: { createdAt: '2020-01-01T00:00:00.000Z' } } });
    expect(stamped.body.error).toMatchObject({ status: 400, message: 'Invalid key createdAt' });
    // sent empty, they are still refused
    const emptied = await t.request('PUT', `/api/guides/${id}`, { body: { data: { body: [] } } });
    expect(emptied.status).toBe(400);
  });

  it('a mappedBy side that can hold no link is populated with no key and its writes are ignored, as Strapi 5.54 serves it', async () => {
    const owner = await t.request('POST', '/api/owners', { body: { data: { name: 'Paul' } } });
    expect(owner.status, owner.text).toBe(201);
    const id = owner.body.data.documentId as string;
    for (const q of [
      'populate=gadgets',
      'populate[gadgets]=true',
      'populate[gadgets][fields][0]=name',
      'populate[gadgets][populate]=tags',
      'populate=gadgets.tags',
      'populate=*',
    ]) {
      const r = await t.get(`/api/owners/${id}?${q}`);
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(r.body.data, q).toEqual(expect.objectContaining({ documentId: id, name: 'Paul' }));
      expect(r.body.data, q).not.toHaveProperty('gadgets');
    }
    // what is below it is checked against the target, as Strapi does
    expect((await t.get('/api/owners?populate[gadgets][populate]=nope')).body.error).toMatchObject({ status: 400, message: 'Invalid key nope' });
    expect((await t.get('/api/owners?populate[gadgets]=nope')).body.error).toMatchObject({ status: 400, message: 'Invalid key nope at gadgets' });
    // it is no field, and is named at its own path as a relation is
    expect((await t.get('/api/owners?fields[0]=gadgets')).body.error).toMatchObject({
      message: 'Invalid key gadgets',
      details: { key: 'gadgets', path: 'gadgets', param: 'fields' },
    });
    // a write to it is read as a relation value, then ignored
    const gadget = await t.request('POST', '/api/gadgets?status=published', {
      body: { data: { name: 'Fan', part: { label: 'p' }, zone: [{ __component: 'kit.logo-part', label: 'z' }] } },
    });
    expect(gadget.status, gadget.text).toBe(201);
    for (const gadgets of [[gadget.body.data.documentId], { connect: [gadget.body.data.documentId] }, [], null]) {
      const put = await t.request('PUT', `/api/owners/${id}`, { body: { data: { name: 'Paul', gadgets } } });
      expect(put.status, put.text).toBe(200);
      expect(put.body.data).not.toHaveProperty('gadgets');
    }
    const made = await t.request('POST', '/api/owners', { body: { data: { name: 'Rita', gadgets: [gadget.body.data.documentId] } } });
    expect(made.status, made.text).toBe(201);
    const bad = await t.request('PUT', `/api/owners/${id}`, { body: { data: { gadgets: { connect: [{ documentId: 'x', nope: 1 }] } } } });
    expect(bad.body.error).toMatchObject({ status: 400, message: 'Invalid key nope at gadgets' });
    // the one-way side can't be populated from the owner either way: the gadget has no such attribute
    expect((await t.get(`/api/gadgets/${gadget.body.data.documentId}?populate=owner`)).body.error).toMatchObject({ status: 400, message: 'Invalid key owner' });
  });

  it('roles and files with the restated stock attributes serve as usual', async () => {
    const roles = await t.get('/api/users-permissions/roles');
    expect(roles.status, roles.text).toBe(200);
    const up = await t.request('POST', '/api/upload', { raw: form([filePart('y', 'y.txt', 'text/plain')]) });
    expect(up.status, up.text).toBe(201);
    expect(up.body[0]).toHaveProperty('credit', null);
    expect(up.body[0]).not.toHaveProperty('folder');
    const related = await t.get(`/api/upload/files/${up.body[0].id}?populate=related`);
    expect(related.body.related).toEqual([]);
  });
});

describe('config Strapi reads leniently', () => {
  it("a provider entry Strapi never reads (CanchaLibreStrapi's google with clientId, no enabled) starts, left off with a notice", async () => {
    const plugins = `export default ({ env }) => ({
  'users-permissions': {
    enabled: true,
    config: {
      jwtSecret: env('JWT_SECRET'),
      providers: {
        google: { clientId: env('GOOGLE_CLIENT_ID'), clientSecret: env('GOOGLE_CLIENT_SECRET'), callbackUrl: 'https://cms.test/api/connect/google/callback', scope: ['email', 'profile'] },
        gitlab: { clientId: 'x' },
      },
    },
  },
});
`;
    const dir = exampleWith({ 'config/plugins.ts': plugins });
    rmSync(join(dir, 'config/plugins.json'));
    const loaded = await loadConfig(dir, { ...SECRETS, NODE_ENV: 'production' }, { writeEnvFile: false });
    expect(loaded.warnings.filter((w) => w.includes('providers'))).toEqual([
      'plugins.users-permissions.config.providers.google: not enabled, so clientId, clientSecret, callbackUrl (no setting Folio reads) left off; known: enabled, icon, key, secret, scope, subdomain, callback, jwksurl, authorize_url, access_url, api_url',
      'plugins.users-permissions.config.providers.gitlab: not a provider Folio knows, and not enabled: left off',
    ]);
    expect(providerSettings(loaded.config.usersPermissions.raw, (n) => `http://cms.test/api/auth/${n}/callback`).size).toBe(0);
    // enabled, the same keys are still a start-up error naming the first
    const on = exampleWith({ 'config/plugins.ts': plugins.replace('google: { clientId', 'google: { enabled: true, clientId') });
    rmSync(join(on, 'config/plugins.json'));
    const strict = await loadConfig(on, { ...SECRETS, NODE_ENV: 'production' }, { writeEnvFile: false });
    expect(() => providerSettings(strict.config.usersPermissions.raw, (n) => n)).toThrow('plugins.users-permissions.config.providers.google.clientId is not a setting');
  });
});

// api-v2.mip.institute: a component whose table name (49 characters) makes index names past 63
const LONG = {
  'src/components/vacancies/repeatable-quote-with-title.json': JSON.stringify({
    collectionName: 'components_vacancies_repeatable_quote_with_titles',
    info: { displayName: 'Repeatable quote with title' },
    attributes: {
      title: { type: 'string' },
      quote: { type: 'component', component: 'kit.logo-part', repeatable: true },
      people: { type: 'relation', relation: 'oneToMany', target: 'api::owner.owner' },
    },
  }),
  [PART]: FILES[PART],
  [OWNER]: type('owner', 'owners', {}),
  [at('vacancy')]: type('vacancy', 'vacancies', { blocks: { type: 'dynamiczone', components: ['vacancies.repeatable-quote-with-title'] } }),
};

describe('long names', () => {
  it('index names fit PostgreSQL and MySQL, stay unique, and a restart (a second sync) finds them', async () => {
    const dir = exampleWith(LONG);
    const model = loadModel(dir);
    const names = modelTables(model).flatMap((t) => t.indexes.map((i) => i.name));
    expect(names.filter((n) => n.length > MAX_INDEX_NAME)).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
    const cmps = modelTables(model).find((t) => t.name === 'components_vacancies_repeatable_quote_with_titles_cmps')!;
    expect(cmps.indexes.map((i) => i.name)).toEqual([
      expect.stringMatching(/^components_vacancies_repeatable_quote_with_titles_cmps_[0-9a-f]{8}$/),
      'components_vacancies_repeatable_quote_with_titles_cmps_cmp_idx',
    ]);
    const db = await createTestDatabase();
    const database = await connect(db.config);
    try {
      await syncSchema(database, model);
      // PostgreSQL cut the old long name, and the next start's sync tried to create it again ("already exists")
      await syncSchema(database, model);
      if (database.dialect.name !== 'mysql') {
        // an index an earlier version made under the whole name (SQLite keeps it, PostgreSQL cuts it) is dropped
        const long = 'components_vacancies_repeatable_quote_with_titles_cmps_entity_idx';
        await database.db.schema.createIndex(long).on('components_vacancies_repeatable_quote_with_titles_cmps').columns(['entity_id']).execute();
        const before = (await database.dialect.indexNames.execute(database.db)).rows.map((r) => r.name);
        expect(before.some((n) => long.startsWith(n) && n.length >= MAX_INDEX_NAME)).toBe(true);
        await syncSchema(database, model);
        const after = (await database.dialect.indexNames.execute(database.db)).rows.map((r) => r.name);
        expect(after.filter((n) => long.startsWith(n) && n.length >= MAX_INDEX_NAME)).toEqual([]);
      }
    } finally {
      await database.db.destroy();
      await db.drop();
    }
  });

  it('an entry with the long-named component is written and read', async () => {
    const t = await startTestApp({ dir: exampleWith(LONG) });
    try {
      const owner = await t.request('POST', '/api/owners', { body: { data: { name: 'O' } } });
      const data = { name: 'V', blocks: [{ __component: 'vacancies.repeatable-quote-with-title', title: 'T', quote: [{ label: 'q' }], people: [owner.body.data.documentId] }] };
      const made = await t.request('POST', '/api/vacancies', { body: { data } });
      expect(made.status, made.text).toBe(201);
      const read = await t.get(`/api/vacancies/${made.body.data.documentId}?populate[blocks][populate]=*`);
      expect(read.body.data.blocks).toMatchObject([{ title: 'T', quote: [{ label: 'q' }], people: [{ name: 'O' }] }]);
    } finally {
      await t.close();
    }
  });
});

// goodasyouare-cms: a localized type whose text attribute was written without pluginOptions
const PRIVACY = {
  [at('privacy')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'privacy', pluralName: 'privacies' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      privacyPolicyText: { type: 'text' },
      disclaimerText: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    },
  }),
};

describe('an attribute without pluginOptions in a localized type', () => {
  it('is shared by the locales, as Strapi 5 reads it (localized only when it says true)', async () => {
    const t = await startTestApp({ dir: exampleWith(PRIVACY) });
    try {
      expect(t.app.model.contentTypes.get('api::privacy.privacy')!.attributes.get('privacyPolicyText')!.localized).toBe(false);
      const made = await t.request('POST', '/api/privacies', { body: { data: { privacyPolicyText: 'policy', disclaimerText: 'disclaimer' } } });
      expect(made.status, made.text).toBe(201);
      const id = made.body.data.documentId as string;
      // a new locale's body holds the localized fields only (contract rule 3): the shared text comes with it
      const fr = await t.request('PUT', `/api/privacies/${id}?locale=fr`, { body: { data: { disclaimerText: 'avertissement' } } });
      expect(fr.status, fr.text).toBe(200);
      expect(fr.body.data).toMatchObject({ locale: 'fr', privacyPolicyText: 'policy', disclaimerText: 'avertissement' });
      // written in French, the shared text changes in English too, which keeps its own disclaimer (as the reference Strapi 5.54 answered)
      const edit = await t.request('PUT', `/api/privacies/${id}?locale=fr`, { body: { data: { privacyPolicyText: 'politique' } } });
      expect(edit.status, edit.text).toBe(200);
      const en = await t.get(`/api/privacies/${id}`);
      expect(en.body.data).toMatchObject({ locale: 'en', privacyPolicyText: 'politique', disclaimerText: 'disclaimer' });
      const read = await t.get(`/api/privacies/${id}?locale=fr&populate=*`);
      expect(read.body.data.localizations).toMatchObject([{ locale: 'en', privacyPolicyText: 'politique', disclaimerText: 'disclaimer' }]);
    } finally {
      await t.close();
    }
  });
});

// elankosan/digity-strapi: a localized page declaring its own `locale` string
const PAGE_WITH_LOCALE = {
  [at('page')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'page', pluralName: 'pages' },
    options: { draftAndPublish: false },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      locale: { type: 'string' },
      path: { type: 'string', pluginOptions: { i18n: { localized: true } } },
    },
  }),
};

// xkeeper-net-cms: a relation naming itself as its partner; harbour-air-backend: a mappedBy whose partner is a
// relation to a third type
const ODD_PARTNERS = {
  [at('service')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'service', pluralName: 'services' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, relatedServices: { type: 'relation', relation: 'manyToMany', target: 'api::service.service', inversedBy: 'relatedServices' } },
  }),
  [at('country')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'country', pluralName: 'countries' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, dealsDepartures: { type: 'relation', relation: 'oneToMany', target: 'api::deal.deal', mappedBy: 'departureLocation' } },
  }),
  [at('destination')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'destination', pluralName: 'destinations' },
    options: { draftAndPublish: false },
    attributes: { name: { type: 'string' }, dealsDeparture: { type: 'relation', relation: 'oneToMany', target: 'api::deal.deal', mappedBy: 'departureLocation' } },
  }),
  [at('deal')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'deal', pluralName: 'deals' },
    options: { draftAndPublish: false },
    attributes: {
      title: { type: 'string' },
      departureLocation: { type: 'relation', relation: 'manyToOne', target: 'api::destination.destination', inversedBy: 'dealsDeparture' },
    },
  }),
};

describe('relations whose partner is themselves or a relation to another type', () => {
  it('start with a notice and serve as Strapi 5.54 does: the self-named one one way, the other without links', async () => {
    const dir = exampleWith(ODD_PARTNERS);
    const model = loadModel(dir);
    expect(model.notices).toEqual(
      expect.arrayContaining([
        `${at('service')}: attribute "relatedServices": "inversedBy: relatedServices" names itself on api::service.service; it is served as a one-way relation`,
        `${at('country')}: attribute "dealsDepartures": "mappedBy: departureLocation" names a relation to api::destination.destination on api::deal.deal; it can never hold a link: a populate of it answers no key and a write to it is ignored, as in Strapi`,
      ]),
    );
    const t = await startTestApp({ dir });
    try {
      const b = await t.request('POST', '/api/services', { body: { data: { name: 'B' } } });
      const a = await t.request('POST', '/api/services', { body: { data: { name: 'A', relatedServices: { connect: [b.body.data.documentId] } } } });
      expect(a.status, a.text).toBe(201);
      const list = await t.get('/api/services?populate[relatedServices][fields][0]=name&fields[0]=name&sort=name');
      expect(list.body.data.map((s: { name: string; relatedServices: { name: string }[] }) => [s.name, s.relatedServices.map((r) => r.name)])).toEqual([
        ['A', ['B']],
        ['B', []],
      ]);
      const filtered = await t.get('/api/services?filters[relatedServices][name][$eq]=B&fields[0]=name');
      expect(filtered.body.data.map((s: { name: string }) => s.name)).toEqual(['A']);
      // the deals' own relation to destinations works both ways
      const dest = await t.request('POST', '/api/destinations', { body: { data: { name: 'YVR' } } });
      const deal = await t.request('POST', '/api/deals', { body: { data: { title: 'Deal', departureLocation: dest.body.data.documentId } } });
      expect(deal.status, deal.text).toBe(201);
      expect((await t.get(`/api/destinations/${dest.body.data.documentId}?populate=dealsDeparture`)).body.data.dealsDeparture.map((d: { title: string }) => d.title)).toEqual([
        'Deal',
      ]);
      const country = await t.request('POST', '/api/countries', { body: { data: { name: 'CA', dealsDepartures: { connect: [deal.body.data.documentId] } } } });
      expect(country.status, country.text).toBe(201);
      const read = await t.get(`/api/countries/${country.body.data.documentId}?populate=*`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data).not.toHaveProperty('dealsDepartures');
    } finally {
      await t.close();
    }
  });
});

// omgg-backend: a gallery without locales owns a one-to-one link to a localized game, both with draft & publish
const GALLERY_GAME = {
  [at('gallery')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'gallery', pluralName: 'galleries' },
    options: { draftAndPublish: true },
    attributes: { title: { type: 'string' }, game: { type: 'relation', relation: 'oneToOne', target: 'api::game.game', inversedBy: 'gallery' } },
  }),
  [at('game')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'game', pluralName: 'games' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      name: { type: 'string', pluginOptions: { i18n: { localized: true } } },
      gallery: { type: 'relation', relation: 'oneToOne', target: 'api::gallery.gallery', mappedBy: 'game' },
    },
  }),
};

describe('a one-to-one owner without locales linked from two locales of one document', () => {
  it('keeps both locales linked, as Strapi 5.54 does (linking the fr version dropped the en link)', async () => {
    const t = await startTestApp({ dir: exampleWith(GALLERY_GAME) });
    try {
      const ga = (await t.request('POST', '/api/galleries', { body: { data: { title: 'GA' } } })).body.data.documentId as string;
      const g = await t.request('POST', '/api/games', { body: { data: { name: 'G en', gallery: { connect: [ga] } } } });
      expect(g.status, g.text).toBe(201);
      const id = g.body.data.documentId as string;
      const fr = await t.request('PUT', `/api/games/${id}?locale=fr`, { body: { data: { name: 'G fr', gallery: { connect: [ga] } } } });
      expect(fr.status, fr.text).toBe(200);
      for (const q of ['', '?status=draft', '?locale=fr', '?locale=fr&status=draft']) {
        const r = await t.get(`/api/games/${id}${q}${q ? '&' : '?'}populate=gallery`);
        expect(r.body.data.gallery?.documentId, q).toBe(ga);
      }
      // another game taking the gallery takes it from G
      const h = await t.request('POST', '/api/games', { body: { data: { name: 'H en', gallery: { connect: [ga] } } } });
      expect(h.status, h.text).toBe(201);
      expect((await t.get(`/api/games/${id}?populate=gallery`)).body.data.gallery).toBeNull();
      expect((await t.get(`/api/games/${h.body.data.documentId}?populate=gallery`)).body.data.gallery.documentId).toBe(ga);
    } finally {
      await t.close();
    }
  });
});

describe('a localized type declaring a locale attribute', () => {
  it('starts with a notice and serves the locale every entry has, as Strapi 5.54 does: ?locale= picks it, a body locale is ignored, filters and sort read it', async () => {
    const dir = exampleWith(PAGE_WITH_LOCALE);
    const model = loadModel(dir);
    expect(model.notices).toContain(
      'src/api/page/content-types/page/schema.json: attribute "locale" is the locale every entry of a localized type has; its declaration is left out',
    );
    const t = await startTestApp({ dir });
    try {
      const de = await t.request('POST', '/api/pages?locale=de', { body: { data: { title: 'Hi', path: '/hi' } } });
      expect(de.status, de.text).toBe(201);
      expect(de.body.data).toMatchObject({ title: 'Hi', path: '/hi', locale: 'de' });
      const inBody = await t.request('POST', '/api/pages', { body: { data: { title: 'Hello', locale: 'fr' } } });
      expect(inBody.status, inBody.text).toBe(201);
      expect(inBody.body.data.locale).toBe('en');
      const filtered = await t.get('/api/pages?locale=*&filters[locale][$eq]=de&fields[0]=title');
      expect(filtered.body.data.map((p: { title: string }) => p.title)).toEqual(['Hi']);
      const sorted = await t.get('/api/pages?locale=*&sort=locale:asc&fields[0]=title');
      expect(sorted.body.data.map((p: { title: string }) => p.title)).toEqual(['Hi', 'Hello']);
    } finally {
      await t.close();
    }
  });

  it('a localized type declaring localizations (an exported schema) starts with a notice and populates the other locales, as Strapi 5.54 does', async () => {
    const dir = exampleWith({
      [at('fleet-page')]: JSON.stringify({
        kind: 'singleType',
        info: { singularName: 'fleet-page', pluralName: 'fleet-pages' },
        options: { draftAndPublish: false },
        pluginOptions: { i18n: { localized: true } },
        attributes: {
          title: { type: 'string', pluginOptions: { i18n: { localized: true } } },
          // as UmarSidiki/meetswiss_website declares it
          localizations: {
            writable: false,
            private: false,
            configurable: false,
            visible: false,
            useJoinTable: false,
            type: 'relation',
            relation: 'oneToMany',
            target: 'api::fleet-page.fleet-page',
          },
        },
      }),
    });
    expect(loadModel(dir).notices).toContain(
      `${at('fleet-page')}: attribute "localizations" is the list of other locales every entry of a localized type has; its declaration is left out`,
    );
    const t = await startTestApp({ dir });
    try {
      expect((await t.request('PUT', '/api/fleet-page', { body: { data: { title: 'Fleet' } } })).status).toBe(200);
      expect((await t.request('PUT', '/api/fleet-page?locale=fr', { body: { data: { title: 'Flotte' } } })).status).toBe(200);
      const r = await t.get('/api/fleet-page?populate=localizations');
      expect(r.status, r.text).toBe(200);
      expect(r.body.data.title).toBe('Fleet');
      expect(r.body.data.localizations.map((l: { title: string; locale: string }) => [l.title, l.locale])).toEqual([['Flotte', 'fr']]);
    } finally {
      await t.close();
    }
  });

  it('a type without i18n declaring locale starts without it, as Strapi 5.54 serves no such field (leqta_strapi): a body locale is ignored, filters and sort are Invalid key locale', async () => {
    const dir = exampleWith({
      [at('memo')]: JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'memo', pluralName: 'memos' },
        options: { draftAndPublish: false },
        attributes: { text: { type: 'string' }, locale: { type: 'string' } },
      }),
    });
    expect(loadModel(dir).notices).toContain(
      `${at('memo')}: attribute "locale" is a name Strapi keeps for locales and serves no field under on a type without i18n; its declaration is left out`,
    );
    const t = await startTestApp({ dir });
    try {
      const created = await t.request('POST', '/api/memos', { body: { data: { text: 'hi', locale: 'fr' } } });
      expect(created.status, created.text).toBe(201);
      expect(Object.keys(created.body.data)).toEqual(['id', 'documentId', 'text', 'createdAt', 'updatedAt', 'publishedAt']);
      for (const q of ['filters[locale][$eq]=fr', 'sort=locale']) {
        const r = await t.get(`/api/memos?${q}`);
        expect(r.status).toBe(400);
        expect(r.body.error).toMatchObject({ message: 'Invalid key locale', details: { key: 'locale', path: 'locale', source: 'query' } });
      }
    } finally {
      await t.close();
    }
  });
});

// StrapiAlmonte: attributes named in Spanish (`año`); Strapi 5.54 starts and names the column as lodash's
// snakeCase does, accents dropped (`ano`)
describe('an attribute named with letters outside ASCII', () => {
  it('starts, stores it in a column named without accents, and serves it in bodies, filters, fields and sort', async () => {
    const dir = exampleWith({
      [at('edition')]: JSON.stringify({
        kind: 'collectionType',
        collectionName: 'editions',
        info: { singularName: 'edition', pluralName: 'editions' },
        options: { draftAndPublish: false },
        attributes: { año: { type: 'integer' }, größeMaß: { type: 'string' } },
      }),
    });
    const t = await startTestApp({ dir });
    try {
      for (const [año, größeMaß] of [
        [2021, 'klein'],
        [2023, 'groß'],
      ] as const) {
        const r = await t.request('POST', '/api/editions', { body: { data: { año, größeMaß } } });
        expect(r.status, r.text).toBe(201);
        expect(r.body.data).toMatchObject({ año, größeMaß });
      }
      const q = `filters[${encodeURIComponent('año')}][$gt]=2022&fields[0]=${encodeURIComponent('año')}&sort=${encodeURIComponent('año')}:desc`;
      const read = await t.get(`/api/editions?${q}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data.map((e: Record<string, unknown>) => [e['año'], Object.hasOwn(e, 'größeMaß')])).toEqual([[2023, false]]);
      const columns = (await sql<{ ano: number; grosse_mass: string }>`select ano, grosse_mass from editions order by ano`.execute(t.app.database.db)).rows;
      expect(columns).toEqual([
        { ano: 2021, grosse_mass: 'klein' },
        { ano: 2023, grosse_mass: 'groß' },
      ]);
    } finally {
      await t.close();
    }
  });
});

// Audelweiss: reviews (draft & publish) of a user, through a users-permissions extension
const REVIEWS = {
  'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'up_users',
    info: { singularName: 'user', pluralName: 'users' },
    attributes: { reviews: { type: 'relation', relation: 'oneToMany', target: 'api::review.review', mappedBy: 'user' } },
  }),
  [at('review')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'review', pluralName: 'reviews' },
    options: { draftAndPublish: true },
    attributes: { comment: { type: 'text' }, user: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.user', inversedBy: 'reviews' } },
  }),
};

describe("a user's relation to a type with draft & publish", () => {
  it('lists each linked document once, in its published version (Strapi 5.54 lists the draft row too)', async () => {
    const t = await startTestApp({ dir: exampleWith(REVIEWS) });
    try {
      const user = await t.request('POST', '/api/users', { body: { username: 'ann', email: 'ann@example.com', password: 'Password123' } });
      expect(user.status, user.text).toBe(201);
      const review = await t.request('POST', '/api/reviews', { body: { data: { comment: 'Great', user: user.body.id } } });
      expect(review.status, review.text).toBe(201);
      const draft = await t.request('PUT', `/api/reviews/${review.body.data.documentId}?status=draft`, { body: { data: { comment: 'Great, edited' } } });
      expect(draft.status, draft.text).toBe(200);
      const list = await t.get('/api/users?populate[reviews][fields][0]=comment');
      expect(list.body[0].reviews).toEqual([{ id: review.body.data.id, documentId: review.body.data.documentId, comment: 'Great' }]);
    } finally {
      await t.close();
    }
  });
});

// World-Buisness: news with a required list of tags shared by the locales
const NEWS = {
  [at('news')]: JSON.stringify({
    kind: 'collectionType',
    info: { singularName: 'news', pluralName: 'newses' },
    options: { draftAndPublish: true },
    pluginOptions: { i18n: { localized: true } },
    attributes: {
      title: { type: 'string', required: true, pluginOptions: { i18n: { localized: true } } },
      tags: { type: 'component', component: 'kit.news-tag', repeatable: true, required: true, pluginOptions: { i18n: { localized: false } } },
      hero: { type: 'component', component: 'kit.news-tag', repeatable: false, required: true, pluginOptions: { i18n: { localized: true } } },
    },
  }),
  'src/components/kit/news-tag.json': JSON.stringify({
    info: { displayName: 'News tag' },
    attributes: { tag: { type: 'enumeration', enum: ['Investment', 'Startups'], required: true } },
  }),
};

describe('a required component shared by the locales', () => {
  it('counts for a new locale published at once, which copies it, while a required localized one must be sent (as Strapi 5.54 answers)', async () => {
    const t = await startTestApp({ dir: exampleWith(NEWS) });
    try {
      const made = await t.request('POST', '/api/newses?status=draft', { body: { data: { title: 'EN', tags: [{ tag: 'Investment' }] } } });
      expect(made.status, made.text).toBe(201);
      const id = made.body.data.documentId as string;
      // the localized one is still asked for
      const bare = await t.request('PUT', `/api/newses/${id}?locale=fr`, { body: { data: { title: 'FR' } } });
      expect(bare.status).toBe(400);
      expect(bare.body.error.details.errors).toEqual([
        { path: ['hero'], message: 'hero must be a `object` type, but the final value was: `null`.', name: 'ValidationError', value: null },
      ]);
      const fr = await t.request('PUT', `/api/newses/${id}?locale=fr`, { body: { data: { title: 'FR', hero: { tag: 'Startups' } } } });
      expect(fr.status, fr.text).toBe(200);
      expect(fr.body.data).toMatchObject({ locale: 'fr', title: 'FR' });
      expect(fr.body.data.publishedAt).not.toBeNull();
      const read = await t.get(`/api/newses/${id}?locale=fr&populate[tags][fields][0]=tag`);
      expect(read.body.data.tags).toMatchObject([{ tag: 'Investment' }]);
    } finally {
      await t.close();
    }
  });
});

// knowledge-bot-cms: an upload extension adding attributes with defaults (a file's processing state)
const FILE_DEFAULTS = {
  [FILE_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files' },
    attributes: {
      source_type: { type: 'enumeration', enum: ['manual_upload', 'connector'], default: 'manual_upload' },
      notification_sent: { type: 'boolean', default: false },
      processing_metadata: { type: 'json', default: {} },
      retries: { type: 'integer', default: 0 },
      storage_key: { type: 'string' },
    },
  }),
};

describe('an upload extension with defaults', () => {
  it('a new file starts with each default, as Strapi 5.54 gives them', async () => {
    const up = await startUploadApp({}, { dir: exampleWith(FILE_DEFAULTS) });
    try {
      const made = await up.upload([filePart('x', 'x.txt', 'text/plain')]);
      expect(made.status, made.text).toBe(201);
      expect(made.body[0]).toMatchObject({ source_type: 'manual_upload', notification_sent: false, processing_metadata: {}, retries: 0, storage_key: null });
      const id = made.body[0].id as number;
      const read = await up.t.get(`/api/upload/files/${id}`);
      expect(read.body).toMatchObject({ source_type: 'manual_upload', notification_sent: false, processing_metadata: {}, retries: 0 });
    } finally {
      await up.close();
    }
  });
});

// knowledge-bot-cms: files linked to a bot through a relation the upload extension adds
const FILE_RELATION = {
  [FILE_EXT]: JSON.stringify({
    kind: 'collectionType',
    collectionName: 'files',
    info: { singularName: 'file', pluralName: 'files' },
    attributes: { bot: { type: 'relation', relation: 'manyToOne', target: 'api::bot.bot', inversedBy: 'files' } },
  }),
  [at('bot')]: type('bot', 'bots', { files: rel('oneToMany', 'plugin::upload.file', { mappedBy: 'bot' }) }),
};

describe('a relation an upload extension adds', () => {
  it('is populated on the media library routes as Strapi 5.54 populates it (by name, with fields, and with *)', async () => {
    const up = await startUploadApp({}, { dir: exampleWith(FILE_RELATION) });
    try {
      const made = await up.upload([filePart('x', 'x.txt', 'text/plain')]);
      expect(made.status, made.text).toBe(201);
      const fileId = made.body[0].id as number;
      const bot = await up.t.request('POST', '/api/bots', { body: { data: { name: 'Helper', files: [fileId] } } });
      expect(bot.status, bot.text).toBe(201);
      const linked = { id: bot.body.data.id, documentId: bot.body.data.documentId, name: 'Helper' };
      const one = await up.t.get(`/api/upload/files/${fileId}?populate[bot][fields][0]=name`);
      expect(one.status, one.text).toBe(200);
      expect(one.body.bot).toEqual(linked);
      const list = await up.t.get('/api/upload/files?fields[0]=name&populate[bot][fields][0]=name');
      expect(list.body).toEqual([{ id: fileId, documentId: made.body[0].documentId, name: 'x.txt', bot: linked, isUrlSigned: false }]);
      const all = await up.t.get('/api/upload/files?populate=*');
      expect(all.body[0].bot).toMatchObject(linked);
      // `related` lists media-field links only: this relation is not one (Strapi answers [] too)
      expect(all.body[0].related).toEqual([]);
      // without populate, no key
      const bare = await up.t.get(`/api/upload/files/${fileId}`);
      expect(bare.body).not.toHaveProperty('bot');
      const bad = await up.t.get('/api/upload/files?populate[bot][populate][nothing]=true');
      expect(bad.status).toBe(400);
    } finally {
      await up.close();
    }
  });
});
