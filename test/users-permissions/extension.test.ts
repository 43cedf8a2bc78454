// src/extensions/users-permissions/content-types/user/schema.json adds attributes to the user type.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { exampleWith } from '../support/example-with.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';
import { expectNoSecrets } from './auth-support.js';

/** The example app with a user extension declaring `attributes`. */
function withUserExtension(attributes: Record<string, unknown>): ReturnType<typeof exampleWith> {
  return exampleWith({
    'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      attributes,
    }),
  });
}

let t: TestApp;
let project: ReturnType<typeof exampleWith>;
beforeAll(async () => {
  project = withUserExtension({
    bio: { type: 'text', maxLength: 200 },
    active: { type: 'boolean' },
    // required with a default (aienergy-backend's account_status): a new user takes the default
    accountStatus: { type: 'enumeration', enum: ['PENDING', 'ACTIVE'], required: true, default: 'PENDING' },
    favoriteTag: { type: 'relation', relation: 'manyToOne', target: 'api::tag.tag' },
    // an extension can't make the password public
    password: { type: 'string', private: false },
  });
  t = await startTestApp({ dir: project.dir, usersPermissions: usersPermissionsConfig({ 'users-permissions': { config: { register: { allowedFields: ['bio', 'active'] } } } }) });
});
afterAll(async () => {
  await t?.close();
  project?.remove();
});

describe('user type extended by the project', () => {
  it('registers with an extra attribute listed in allowedFields; it is shown, the password never', async () => {
    const r = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'zoe', email: 'zoe@example.com', password: 'secret123', bio: 'Writes.' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.bio).toBe('Writes.');
    expectNoSecrets(r);
    const tooLong = await t.request('POST', '/api/auth/local/register', {
      token: null,
      body: { username: 'zed', email: 'zed@example.com', password: 'secret123', bio: 'x'.repeat(201) },
    });
    expect(tooLong.status).toBe(400);
  });

  it("an extra attribute's type error is listed with the other errors of the body, in attribute order, as Strapi 5.54's one validation pass lists them", async () => {
    const r = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'abd', email: 'abd@example.com', password: '123', active: 'yes' } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toBe('2 errors occurred');
    expect(r.body.error.details.errors.map((e: { path: string[]; message: string }) => [e.path.join('.'), e.message])).toEqual([
      ['password', 'password must be at least 6 characters'],
      ['active', 'active must be a `boolean` type, but the final value was: `"yes"`.'],
    ]);
    const alone = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'abe', email: 'abe@example.com', password: 'secret123', active: 'yes' } });
    expect(alone.status, alone.text).toBe(400);
    expect(alone.body.error.message).toBe('active must be a `boolean` type, but the final value was: `"yes"`.');
  });

  it('a required attribute with a default takes the default on register and on POST /api/users, as in Strapi 5.54', async () => {
    const r = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'pia', email: 'pia@example.com', password: 'secret123' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.accountStatus).toBe('PENDING');
    const role = (await t.get('/api/users-permissions/roles')).body.roles.find((x: { type: string }) => x.type === 'authenticated');
    const made = await t.request('POST', '/api/users', { body: { username: 'pim', email: 'pim@example.com', password: 'secret123', role: role.id } });
    expect(made.status, made.text).toBe(201);
    expect(made.body.accountStatus).toBe('PENDING');
    const active = await t.request('POST', '/api/users', { body: { username: 'pam', email: 'pam@example.com', password: 'secret123', role: role.id, accountStatus: 'ACTIVE' } });
    expect(active.body.accountStatus).toBe('ACTIVE');
  });

  it('a relation added by the extension is written and populated like any other', async () => {
    const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'fav' } } });
    const users = (await t.get('/api/users')).body as { id: number }[];
    const put = await t.request('PUT', `/api/users/${users[0]!.id}`, { body: { favoriteTag: tag.body.data.documentId } });
    expect(put.status, put.text).toBe(200);
    const r = await t.get(`/api/users/${users[0]!.id}?populate=favoriteTag`);
    expect(r.body.favoriteTag).toMatchObject({ label: 'fav' });
    expect((await t.get('/api/users?filters[password][$null]=false')).status).toBe(400);
  });

  it("a relation given the row id of a published document's draft links the document, shown in its published version (akvo's organisation)", async () => {
    const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'by draft id' } } });
    const rows = await t.app.database.db.selectFrom('tags').select(['id', 'published_at']).where('document_id', '=', tag.body.data.documentId).execute();
    const draftRow = rows.find((r) => r.published_at === null)!.id as number;
    const made = await t.request('POST', '/api/users', { body: { username: 'drafty', email: 'drafty@example.com', password: 'secret123', favoriteTag: draftRow } });
    expect(made.status, made.text).toBe(201);
    expect((await t.get(`/api/users/${made.body.id}?populate=favoriteTag`)).body.favoriteTag).toMatchObject({ label: 'by draft id', documentId: tag.body.data.documentId });
    const users = (await t.get('/api/users')).body as { id: number }[];
    const put = await t.request('PUT', `/api/users/${users[0]!.id}`, { body: { favoriteTag: draftRow } });
    expect(put.status, put.text).toBe(200);
    expect((await t.get(`/api/users/${users[0]!.id}?populate=favoriteTag`)).body.favoriteTag).toMatchObject({ label: 'by draft id' });
    const linked = await t.get(`/api/users?filters[favoriteTag][id][$notNull]=true&filters[username][$eq]=drafty`);
    expect(linked.body.map((u: { username: string }) => u.username)).toEqual(['drafty']);
  });

  it('a relation naming a row that does not exist is refused with the data Strapi echoes, the password left out', async () => {
    const users = (await t.get('/api/users')).body as { id: number }[];
    const r = await t.request('PUT', `/api/users/${users[0]!.id}`, { body: { favoriteTag: 999999, password: 'secret123' } });
    expect(r.status).toBe(400);
    const message = '1 relation(s) of type api::tag.tag associated with this entity do not exist';
    expect(r.body.error).toMatchObject({ name: 'ValidationError', message });
    expect(r.body.error.details.errors).toEqual([
      { path: [], message, name: 'ValidationError', value: { favoriteTag: { set: [{ id: 999999 }] }, publishedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) } },
    ]);
    expect(r.text).not.toContain('secret123');
  });

  // Monnet-social/strapi-backend's user extension has required fields; Strapi 5.54 answered these so
  it('POST /api/users counts a role or relation naming no row among the field errors, and refuses a missing documentId first', async () => {
    const create = async (extra: Record<string, unknown>) =>
      (
        await t.request('POST', '/api/users', {
          body: { username: 'counted', email: 'counted@example.com', password: 'secret123', bio: 'x'.repeat(201), accountStatus: 'NOPE', ...extra },
        })
      ).body.error;
    // two field errors and a role that doesn't exist: three errors, as Strapi's one pass counts them
    expect(await create({ role: 999999 })).toMatchObject({ name: 'ApplicationError', message: '3 errors occurred' });
    expect(await create({ role: { connect: [{ id: 999999 }] } })).toMatchObject({ message: '3 errors occurred' });
    expect(await create({ favoriteTag: 999999 })).toMatchObject({ message: '3 errors occurred' });
    // a document named by documentId is looked up before any value is checked
    expect(await create({ role: 'nope' })).toMatchObject({ name: 'ApplicationError', message: 'Document with id "nope", locale "null" not found' });
    expect(await create({ favoriteTag: 'nope' })).toMatchObject({ message: 'Document with id "nope", locale "null" not found' });
    // an existing role leaves the field errors alone
    expect(await create({ role: 1 })).toMatchObject({ message: '2 errors occurred' });
  });
});

// aienergy-backend restates the whole user schema with its own field among the built-in ones
describe('a user extension restating the schema', () => {
  it("answers a user's keys in the extension's order, as Strapi 5.54 does", async () => {
    const str = { type: 'string' };
    const restated = withUserExtension({
      username: { type: 'string', minLength: 3, unique: true, required: true },
      email: { type: 'email', minLength: 6, required: true },
      provider: str,
      password: { type: 'password', minLength: 6, private: true },
      resetPasswordToken: { type: 'string', private: true },
      confirmationToken: { type: 'string', private: true },
      blocked: { type: 'boolean', default: false },
      accountStatus: { type: 'enumeration', enum: ['PENDING', 'ACTIVE'], default: 'PENDING' },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      confirmed: { type: 'boolean', default: false },
    });
    const app = await startTestApp({ dir: restated.dir });
    try {
      const r = await app.request('POST', '/api/auth/local/register', { token: null, body: { username: 'ord', email: 'ord@example.com', password: 'secret123' } });
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body.user)).toEqual([
        'id',
        'documentId',
        'username',
        'email',
        'provider',
        'blocked',
        'accountStatus',
        'confirmed',
        'createdAt',
        'updatedAt',
        'publishedAt',
      ]);
    } finally {
      await app.close();
      restated.remove();
    }
  });

  it('a built-in attribute it leaves out is not answered, filtered or sorted on, as Strapi 5.54 has no such attribute (AI-Energy-Shop/server has no confirmed)', async () => {
    const restated = withUserExtension({
      username: { type: 'string', minLength: 3, unique: true, required: true },
      email: { type: 'email', minLength: 6, required: true },
      provider: { type: 'string' },
      password: { type: 'password', minLength: 6, private: true },
      resetPasswordToken: { type: 'string', private: true },
      confirmationToken: { type: 'string', private: true },
      blocked: { type: 'boolean', default: false },
      role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
    });
    const app = await startTestApp({ dir: restated.dir });
    try {
      const r = await app.request('POST', '/api/auth/local/register', { token: null, body: { username: 'noconf', email: 'noconf@example.com', password: 'secret123' } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.user).not.toHaveProperty('confirmed');
      const one = await app.get(`/api/users/${r.body.user.id as number}`);
      expect(Object.keys(one.body)).toEqual(['id', 'documentId', 'username', 'email', 'provider', 'blocked', 'createdAt', 'updatedAt', 'publishedAt']);
      for (const q of ['filters[confirmed][$eq]=false', 'sort=confirmed']) {
        const bad = await app.get(`/api/users?${q}`);
        expect(bad.status, q).toBe(400);
        expect(bad.body.error.message).toBe('Invalid key confirmed');
      }
      const login = await app.request('POST', '/api/auth/local', { token: null, body: { identifier: 'noconf', password: 'secret123' } });
      expect(login.status, login.text).toBe(200);
    } finally {
      await app.close();
      restated.remove();
    }
  });
});
