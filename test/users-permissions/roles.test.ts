import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { register } from './helpers.js';
import { errorOf } from './auth-support.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

interface RoleEntry {
  id: number;
  documentId: string;
  name: string;
  description: string | null;
  type: string;
  nb_users: number;
}
const roles = async (): Promise<RoleEntry[]> => (await t.get('/api/users-permissions/roles')).body.roles as RoleEntry[];
const byType = async (type: string): Promise<RoleEntry> => (await roles()).find((r) => r.type === type)!;

describe('roles', () => {
  it('lists the built-in roles by name with their user counts', async () => {
    await register(t);
    const r = await t.get('/api/users-permissions/roles');
    expect(r.status).toBe(200);
    expect(r.body.roles.map((x: RoleEntry) => [x.name, x.type, x.nb_users])).toEqual([
      ['Authenticated', 'authenticated', 1],
      ['Public', 'public', 0],
    ]);
    expect(Object.keys(r.body.roles[0])).toEqual(['id', 'documentId', 'name', 'description', 'type', 'createdAt', 'updatedAt', 'publishedAt', 'nb_users']);
  });

  it('one role comes with its permission tree', async () => {
    const pub = await byType('public');
    const r = await t.get(`/api/users-permissions/roles/${pub.id}`);
    expect(r.status).toBe(200);
    expect(r.body.role).toMatchObject({ id: pub.id, name: 'Public', type: 'public' });
    const up = r.body.role.permissions['plugin::users-permissions'].controllers;
    expect(up.auth.register).toEqual({ enabled: true, policy: '' });
    expect(up.user.me).toEqual({ enabled: false, policy: '' });
    expect(r.body.role.permissions['api::article'].controllers.article.find).toEqual({ enabled: false, policy: '' });
    expect((await t.get('/api/users-permissions/roles/424242')).body).toEqual(errorOf(404, 'NotFoundError', 'Role not found'));
  });

  it('the permissions tree lists every content-type, upload, i18n and users-permissions action, all off', async () => {
    const r = await t.get('/api/users-permissions/permissions');
    expect(r.status).toBe(200);
    const p = r.body.permissions;
    // article is localized: adding a locale version is its own action
    expect(Object.keys(p['api::article'].controllers.article)).toEqual(['find', 'findOne', 'create', 'update', 'delete', 'createLocalization']);
    expect(Object.keys(p['api::tag'].controllers.tag)).toEqual(['find', 'findOne', 'create', 'update', 'delete']);
    expect(Object.keys(p['api::global'].controllers.global).slice(0, 3)).toEqual(['find', 'update', 'delete']);
    expect(Object.keys(p['plugin::upload'].controllers['content-api'])).toEqual(['find', 'findPage', 'findOne', 'destroy', 'upload']);
    expect(Object.keys(p['plugin::i18n'].controllers.locales)).toEqual(['listLocales']);
    expect(Object.keys(p['plugin::users-permissions'].controllers.role)).toEqual(['createRole', 'findOne', 'find', 'updateRole', 'deleteRole']);
    const leaves = JSON.stringify(p).match(/"enabled":(true|false)/g)!;
    expect(leaves.every((l) => l === '"enabled":false')).toBe(true);
  });

  it('create: empty body refused; type from the name; permissions from the tree; {ok:true}', async () => {
    expect((await t.request('POST', '/api/users-permissions/roles', { body: {} })).body).toEqual(errorOf(400, 'ValidationError', 'Request body cannot be empty'));
    const tree = { 'api::tag': { controllers: { tag: { find: { enabled: true }, findOne: { enabled: false } } } } };
    const r = await t.request('POST', '/api/users-permissions/roles', { body: { name: 'Éditeurs Team', description: 'writers', permissions: tree } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ ok: true });
    const role = await byType('editeurs_team');
    expect(role).toMatchObject({ name: 'Éditeurs Team', description: 'writers', nb_users: 0 });
    const one = await t.get(`/api/users-permissions/roles/${role.id}`);
    expect(one.body.role.permissions['api::tag'].controllers.tag.find.enabled).toBe(true);
    expect(one.body.role.permissions['api::tag'].controllers.tag.findOne.enabled).toBe(false);
  });

  it("a new role's type is the lower-cased name in snake case, digits and other scripts as Strapi 5.54 writes them", async () => {
    for (const [name, type] of [
      ['web3Devs', 'web_3_devs'],
      ['v2.0 beta', 'v_2_0_beta'],
      ['日本語ロール', '日本語ロール'],
      ['Редакторы', 'редакторы'],
    ]) {
      const r = await t.request('POST', '/api/users-permissions/roles', { body: { name } });
      expect(r.status, r.text).toBe(200);
      expect(await byType(type!)).toMatchObject({ name });
    }
  });

  it('create refuses a taken type, a short name and an unknown action (Strapi accepts them)', async () => {
    const dup = await t.request('POST', '/api/users-permissions/roles', { body: { name: 'Public', type: 'public' } });
    expect(dup.status).toBe(400);
    expect(dup.body.error.message).toBe('This attribute must be unique');
    const short = await t.request('POST', '/api/users-permissions/roles', { body: { name: 'ab' } });
    expect(short.status).toBe(400);
    const unknown = await t.request('POST', '/api/users-permissions/roles', {
      body: { name: 'Strange', permissions: { 'api::nope': { controllers: { nope: { find: { enabled: true } } } } } },
    });
    expect(unknown.body.error.message).toBe('Unknown action api::nope.nope.find');
    expect((await roles()).map((r) => r.type)).not.toContain('strange');
  });

  it('eight creates of one role name at once: one {ok:true}, seven "This attribute must be unique", one role', async () => {
    const rs = await Promise.all(Array.from({ length: 8 }, () => t.request('POST', '/api/users-permissions/roles', { body: { name: 'Racers' } })));
    expect(rs.map((r) => r.status).sort(), rs.map((r) => r.text).join('\n')).toEqual([200, 400, 400, 400, 400, 400, 400, 400]);
    for (const r of rs) {
      if (r.status === 200) expect(r.body).toEqual({ ok: true });
      else
        expect(r.body).toEqual(
          errorOf(400, 'ValidationError', 'This attribute must be unique', {
            errors: [{ path: ['type'], message: 'This attribute must be unique', name: 'ValidationError', value: 'racers' }],
          }),
        );
    }
    expect((await roles()).filter((r) => r.type === 'racers')).toHaveLength(1);
  });

  it('a role created without description has null there; description null clears it; name null is refused and changes nothing', async () => {
    expect((await t.request('POST', '/api/users-permissions/roles', { body: { name: 'No words' } })).body).toEqual({ ok: true });
    const role = await byType('no_words');
    expect(role.description).toBeNull();
    await t.request('PUT', `/api/users-permissions/roles/${role.id}`, { body: { description: 'some' } });
    expect((await byType('no_words')).description).toBe('some');
    expect((await t.request('PUT', `/api/users-permissions/roles/${role.id}`, { body: { description: null } })).body).toEqual({ ok: true });
    expect((await byType('no_words')).description).toBeNull();
    const r = await t.request('PUT', `/api/users-permissions/roles/${role.id}`, { body: { name: null, description: 'not written' } });
    expect(r.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'name must be a `string` type',
        details: { errors: [{ path: ['name'], message: 'name must be a `string` type', name: 'ValidationError', value: null }] },
      },
    });
    expect(await byType('no_words')).toMatchObject({ name: 'No words', description: null });
    expect((await t.request('DELETE', `/api/users-permissions/roles/${role.id}`)).body).toEqual({ ok: true });
  });

  it('update without permissions keeps them; with permissions replaces them; the change counts at once', async () => {
    const u = await register(t);
    const auth = await byType('authenticated');
    expect((await t.get('/api/categories', { token: u.jwt })).status).toBe(403);
    const grant = { 'api::category': { controllers: { category: { find: { enabled: true } } } } };
    expect((await t.request('PUT', `/api/users-permissions/roles/${auth.id}`, { body: { permissions: grant } })).body).toEqual({ ok: true });
    expect((await t.get('/api/categories', { token: u.jwt })).status).toBe(200);
    // the tree replaced the defaults: users.me is gone
    expect((await t.get('/api/users/me', { token: u.jwt })).status).toBe(403);
    expect((await t.request('PUT', `/api/users-permissions/roles/${auth.id}`, { body: { description: 'changed' } })).status).toBe(200);
    expect((await t.get('/api/categories', { token: u.jwt })).status).toBe(200);
    expect((await byType('authenticated')).description).toBe('changed');
    await t.request('PUT', `/api/users-permissions/roles/${auth.id}`, { body: { permissions: {} } });
    expect((await t.get('/api/categories', { token: u.jwt })).status).toBe(403);
    expect((await t.request('PUT', '/api/users-permissions/roles/424242', { body: { name: 'xyz' } })).body).toEqual(errorOf(404, 'NotFoundError', 'Role not found'));
    // the empty body is refused before the role is looked up (seen on Strapi 5.54)
    for (const empty of [{}, []]) {
      expect((await t.request('PUT', '/api/users-permissions/roles/424242', { body: empty })).body).toEqual(errorOf(400, 'ValidationError', 'Request body cannot be empty'));
    }
  });

  it('delete: Public refused; users of a deleted role move to Public', async () => {
    const pub = await byType('public');
    expect((await t.request('DELETE', `/api/users-permissions/roles/${pub.id}`)).body).toEqual(errorOf(400, 'ApplicationError', 'Cannot delete public role'));
    await t.request('POST', '/api/users-permissions/roles', { body: { name: 'Temporary' } });
    const temp = await byType('temporary');
    const u = await register(t);
    await t.request('PUT', `/api/users/${u.id}`, { body: { role: temp.id } });
    expect((await byType('temporary')).nb_users).toBe(1);
    expect((await t.request('DELETE', `/api/users-permissions/roles/${temp.id}`)).body).toEqual({ ok: true });
    expect((await roles()).map((r) => r.type)).not.toContain('temporary');
    expect((await t.get(`/api/users/${u.id}?populate=role`)).body.role).toMatchObject({ type: 'public' });
    expect((await t.request('DELETE', `/api/users-permissions/roles/${temp.id}`)).body).toEqual(errorOf(404, 'NotFoundError', 'Role not found'));
  });

  it('a role deleted while users are being given it leaves every user with a role that exists (3 rounds of 16)', async () => {
    for (let round = 0; round < 3; round++) {
      await t.request('POST', '/api/users-permissions/roles', { body: { name: `Fleeting ${round}` } });
      const fleeting = await byType(`fleeting_${round}`);
      const users = await Promise.all(Array.from({ length: 16 }, () => register(t)));
      const puts = users.map((u) => t.request('PUT', `/api/users/${u.id}`, { body: { role: fleeting.id } }));
      const del = t.request('DELETE', `/api/users-permissions/roles/${fleeting.id}`);
      const answers = await Promise.all([...puts, del]);
      expect(answers.every((a) => a.status < 500)).toBe(true);
      for (const u of users) {
        const role = (await t.get(`/api/users/${u.id}?populate=role`)).body.role as { type: string } | null;
        expect(role?.type, `user ${u.id}`).toMatch(/^(public|authenticated)$/);
      }
    }
  });

  // different roles wait for no one's lock; on MariaDB their inserts and deletes (permissions, links)
  // took gap locks at REPEATABLE READ and deadlocked, and the loser was a 500
  it('twenty different roles created, given new permissions and deleted, each step at once: every write succeeds', async () => {
    const tree = (on: boolean) => ({
      'api::article': { controllers: { article: { find: { enabled: on }, findOne: { enabled: on }, create: { enabled: !on } } } },
      'api::tag': { controllers: { tag: { find: { enabled: !on } } } },
    });
    const ok = (rs: { status: number; text: string }[]): void =>
      expect(
        rs.map((r) => r.status),
        rs.find((r) => r.status !== 200)?.text,
      ).toEqual(rs.map(() => 200));
    ok(
      await Promise.all(Array.from({ length: 20 }, (_, i) => t.request('POST', '/api/users-permissions/roles', { body: { name: `Crowd ${i}`, permissions: tree(i % 2 === 0) } }))),
    );
    const crowd = (await roles()).filter((r) => r.name.startsWith('Crowd '));
    expect(crowd).toHaveLength(20);
    for (let round = 1; round <= 2; round++)
      ok(await Promise.all(crowd.map((r, i) => t.request('PUT', `/api/users-permissions/roles/${r.id}`, { body: { permissions: tree((i + round) % 2 === 0) } }))));
    ok(await Promise.all(crowd.map((r) => t.request('DELETE', `/api/users-permissions/roles/${r.id}`))));
    expect((await roles()).filter((r) => r.name.startsWith('Crowd '))).toEqual([]);
  });

  it('every roles route needs its action: a user of the Authenticated role gets 403', async () => {
    const u = await register(t);
    for (const [m, p] of [
      ['GET', '/api/users-permissions/roles'],
      ['GET', '/api/users-permissions/permissions'],
      ['POST', '/api/users-permissions/roles'],
    ] as const) {
      expect((await t.request(m, p, { token: u.jwt, body: m === 'POST' ? { name: 'Hacker' } : undefined })).body, `${m} ${p}`).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    }
  });
});
