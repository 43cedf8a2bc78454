import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { register, type Account } from './helpers.js';
import { expectNoSecrets, errorOf, fieldErr, validationOf } from './auth-support.js';

let t: TestApp;
let ann: Account;
let bob: Account;
let cid: Account;
beforeAll(async () => {
  t = await startTestApp();
  ann = await register(t, 'ann');
  bob = await register(t, 'bob');
  cid = await register(t, 'cid');
});
afterAll(async () => {
  await t?.close();
});

const USER_KEYS = ['id', 'documentId', 'username', 'email', 'provider', 'confirmed', 'blocked', 'createdAt', 'updatedAt', 'publishedAt'];

describe('GET /api/users', () => {
  it('answers a bare array of users with their public fields only', async () => {
    const r = await t.get('/api/users');
    expect(r.status).toBe(200);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body.map((u: { username: string }) => u.username)).toEqual(['ann', 'bob', 'cid']);
    for (const u of r.body) expect(Object.keys(u)).toEqual(USER_KEYS);
    expectNoSecrets(r);
  });

  it('filters, sorts and pages with the content query language', async () => {
    expect((await t.get('/api/users?filters[username][$eq]=bob')).body.map((u: { id: number }) => u.id)).toEqual([bob.id]);
    expect((await t.get('/api/users?sort=username:desc')).body.map((u: { username: string }) => u.username)).toEqual(['cid', 'bob', 'ann']);
    expect((await t.get('/api/users?pagination[page]=2&pagination[pageSize]=1')).body.map((u: { username: string }) => u.username)).toEqual(['bob']);
    expect((await t.get('/api/users?start=1&limit=1')).body.map((u: { username: string }) => u.username)).toEqual(['bob']);
  });

  it('reads root start and limit as Strapi 5.54 does: -1, 0 or empty is no limit, anything else not a whole number is its 400', async () => {
    const names = async (q: string): Promise<string[]> => (await t.get(`/api/users?sort=id&${q}`)).body.map((u: { username: string }) => u.username);
    for (const q of ['limit=-1', 'limit=0', 'limit=', 'start=0&limit=-1']) expect(await names(q), q).toEqual(['ann', 'bob', 'cid']);
    expect(await names('start=1&limit=%201')).toEqual(['bob']);
    expect(await names('limit=1e0')).toEqual(['ann']);
    expect(await names('limit[0]=2')).toEqual(['ann', 'bob']);
    // past any row count: all of them, or none from such a start (never a database error)
    expect(await names('limit=1e20')).toEqual(['ann', 'bob', 'cid']);
    expect(await names('start=1e20')).toEqual([]);
    for (const [q, message] of [
      ['limit=1.5', 'convertLimitQueryParams expected a positive integer got 1.5'],
      ['limit=-2', 'convertLimitQueryParams expected a positive integer got -2'],
      ['limit[a]=2', 'convertLimitQueryParams expected a positive integer got NaN'],
      ['start=-1', 'convertStartQueryParams expected a positive integer got -1'],
      ['start=abc', 'convertStartQueryParams expected a positive integer got NaN'],
    ] as const) {
      expect((await t.get(`/api/users?${q}`)).body, q).toEqual(errorOf(400, 'ValidationError', message));
    }
  });

  it('reads root page and pageSize as Strapi 5.54 does on /users: whole numbers above 0, then no paging at all', async () => {
    const names = async (q: string): Promise<string[]> => (await t.get(`/api/users?sort=id&${q}`)).body.map((u: { username: string }) => u.username);
    for (const q of ['page=2', 'page=2&pageSize=1', 'pageSize=1', 'page=1e3', 'page[0]=2', 'page=2&pagination[pageSize]=1&pagination[page]=1']) {
      expect(await names(q), q).toEqual(q.includes('pagination') ? ['ann'] : ['ann', 'bob', 'cid']);
    }
    for (const [q, message] of [
      ['page=0', "Invalid 'page' parameter. Expected an integer > 0, received: 0"],
      ['page=1.5', "Invalid 'page' parameter. Expected an integer > 0, received: 1.5"],
      ['page=', "Invalid 'page' parameter. Expected an integer > 0, received: "],
      ['page=abc&pageSize=abc', "Invalid 'page' parameter. Expected an integer > 0, received: abc"],
      ['pageSize=-1', "Invalid 'pageSize' parameter. Expected an integer > 0, received: -1"],
      ['page=1&limit=1', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
      ['pageSize=abc&start=0', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
    ] as const) {
      expect((await t.get(`/api/users?${q}`)).body, q).toEqual(errorOf(400, 'PaginationError', message));
    }
    // the rest of the query is checked first
    expect((await t.get('/api/users?page=abc&sort=nope')).body.error.message).toBe('Invalid key nope');
  });

  it('refuses private fields in filters, sort and fields', async () => {
    for (const q of ['filters[password][$eq]=x', 'sort=password', 'fields[0]=resetPasswordToken', 'filters[confirmationToken][$null]=true']) {
      const r = await t.get(`/api/users?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message, q).toMatch(/^Invalid key (password|resetPasswordToken|confirmationToken)/);
    }
  });

  it('populates role only for a caller that may find roles', async () => {
    const full = await t.get('/api/users?populate=role');
    expect(full.body[0].role).toMatchObject({ name: 'Authenticated', type: 'authenticated' });
    const custom = await t.tokenOf('custom', ['plugin::users-permissions.user.find']);
    const r = await t.get('/api/users?populate=role', { token: custom });
    expect(r.status).toBe(200);
    expect(r.body[0]).not.toHaveProperty('role');
  });

  it("never shows a role's users, however they are asked for (as Strapi 5.54), and still checks what is below them", async () => {
    const plain = await t.get(`/api/users?populate=role&fields[0]=username&filters[id][$eq]=${ann.id}`);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual([{ id: ann.id, documentId: plain.body[0].documentId, username: 'ann', role: plain.body[0].role }]);
    expect(Object.keys(plain.body[0].role)).toEqual(['id', 'documentId', 'name', 'description', 'type', 'createdAt', 'updatedAt', 'publishedAt']);
    for (const q of [
      'populate[role][populate]=users',
      'populate[role][populate][0]=users',
      'populate[role][populate][users]=true',
      'populate[role][populate][users][fields][0]=username',
      'populate[role][populate][users][populate]=role',
      'populate=role.users',
      'populate=role.users.role',
    ]) {
      const r = await t.get(`/api/users?${q}&fields[0]=username&filters[id][$eq]=${ann.id}`);
      expect(r.body, q).toEqual(plain.body);
      const one = await t.get(`/api/users/${ann.id}?${q}&fields[0]=username`);
      expect(one.body, q).toEqual(plain.body[0]);
    }
    expect((await t.get('/api/users?populate[role][populate][users][populate]=nope')).body).toEqual(
      errorOf(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: 'nope', source: 'query', param: 'populate' }),
    );
  });

  describe("a role's permissions", () => {
    // Strapi 5.54 serves them to a caller who may find its permission type: a full-access or read-only API token
    const PERMISSION_KEYS = ['id', 'documentId', 'action', 'createdAt', 'updatedAt', 'publishedAt'];
    const DEFAULTS = ['auth.logout', 'auth.getSessions', 'auth.revokeSession', 'user.me', 'auth.changePassword'].map((a) => `plugin::users-permissions.${a}`);
    const permissionsOf = async (q: string, token?: string): Promise<Record<string, unknown>[] | undefined> => {
      const r = await t.get(`/api/users/${ann.id}?fields[0]=username&${q}`, token === undefined ? {} : { token });
      expect(r.status, r.text).toBe(200);
      return r.body.role?.permissions;
    };

    it('are listed for a full-access or read-only token, in the order they were granted, each as Strapi shows a permission', async () => {
      const listed = (await permissionsOf('populate=role.permissions'))!;
      expect(listed.map((p) => p['action'])).toEqual(DEFAULTS);
      for (const p of listed) {
        expect(Object.keys(p)).toEqual(PERMISSION_KEYS);
        expect(p['documentId']).toMatch(/^[a-z0-9]{24}$/);
        expect(p['publishedAt']).toEqual(p['createdAt']);
      }
      for (const q of ['populate[role][populate]=permissions', 'populate[role][populate][permissions]=true', 'populate[role][populate]=*']) {
        expect(await permissionsOf(q), q).toEqual(listed);
      }
      // as for a read-only token
      expect(await permissionsOf('populate=role.permissions', await t.tokenOf('read-only'))).toEqual(listed);
      const list = await t.get(`/api/users?fields[0]=username&populate=role.permissions&filters[id][$eq]=${ann.id}`);
      expect(list.body[0].role.permissions).toEqual(listed);
      expect(await permissionsOf('populate[role][populate][permissions][fields][0]=action')).toEqual(
        listed.map((p) => ({ id: p['id'], documentId: p['documentId'], action: p['action'] })),
      );
    });

    it('keep their ids when the role is saved with other permissions', async () => {
      const before = (await permissionsOf('populate=role.permissions'))!;
      const roleId = (await t.get(`/api/users/${ann.id}?populate=role`)).body.role.id as number;
      const tree = (await t.get(`/api/users-permissions/roles/${roleId}`)).body.role.permissions;
      tree['plugin::users-permissions'].controllers.user.count.enabled = true;
      const put = await t.request('PUT', `/api/users-permissions/roles/${roleId}`, { body: { name: 'Authenticated', permissions: tree } });
      expect(put.status, put.text).toBe(200);
      const after = (await permissionsOf('populate=role.permissions'))!;
      expect(after.slice(0, before.length)).toEqual(before);
      expect(after.slice(before.length).map((p) => p['action'])).toEqual(['plugin::users-permissions.user.count']);
      await t.app.services.roles.revoke('authenticated', ['plugin::users-permissions.user.count']);
    });

    it('written by an earlier Folio without a document id get one at the next start', async () => {
      const first = (await permissionsOf('populate=role.permissions'))![0]!;
      await t.app.database.db
        .updateTable('up_permissions')
        .set({ document_id: null, published_at: null })
        .where('id', '=', first['id'] as number)
        .execute();
      await t.app.services.roles.seed();
      const again = (await permissionsOf('populate=role.permissions'))![0]!;
      expect(again['documentId']).toMatch(/^[a-z0-9]{24}$/);
      expect(again['documentId']).not.toBe(first['documentId']);
      expect(again['publishedAt']).toBe(first['createdAt']);
    });

    it("stay out of a user's answer even when the role may find roles; a dotted path through them leaves out the role too", async () => {
      await t.app.services.roles.grant('authenticated', ['plugin::users-permissions.user.findOne', 'plugin::users-permissions.role.find']);
      try {
        for (const q of ['populate[role][populate]=permissions', 'populate[role][populate]=*', 'populate[role][populate][permissions][fields][0]=action']) {
          const r = await t.get(`/api/users/me?${q}`, { token: ann.jwt });
          expect(r.body.role, q).toMatchObject({ type: 'authenticated' });
          expect(r.body.role, q).not.toHaveProperty('permissions');
        }
        const dotted = await t.get('/api/users/me?populate=role.permissions', { token: ann.jwt });
        expect(dotted.status).toBe(200);
        expect(dotted.body).not.toHaveProperty('role');
        expect(await permissionsOf('populate=role.permissions', ann.jwt)).toBeUndefined();
      } finally {
        await t.app.services.roles.revoke('authenticated', ['plugin::users-permissions.user.findOne', 'plugin::users-permissions.role.find']);
      }
    });

    it('nothing is read below a permission', async () => {
      expect((await t.get('/api/users?populate=role.permissions.role')).body).toEqual(
        errorOf(400, 'ValidationError', 'Invalid key role at role.permissions.role', { key: 'role', path: 'role.permissions.role', source: 'query', param: 'populate' }),
      );
      expect((await t.get('/api/users?populate[role][populate][permissions][filters][action]=x')).body).toEqual(
        errorOf(400, 'ValidationError', 'Invalid key filters at role.permissions', { key: 'filters', path: 'role.permissions', source: 'query', param: 'populate' }),
      );
      expect((await t.get('/api/users?populate[role][populate][permissions][fields][0]=role')).body).toEqual(
        errorOf(400, 'ValidationError', 'Invalid key role', { key: 'role', path: 'role', source: 'query', param: 'populate' }),
      );
    });

    it('are refused in sort, fields and filters at their own path, as Strapi 5.54 names them', async () => {
      const at = (param: string, key: string, path: string, message = `Invalid key ${key} at ${path}`) =>
        errorOf(400, 'ValidationError', message, { key, path, source: 'query', param });
      for (const [q, body] of [
        ['sort=role.permissions', at('sort', 'permissions', 'role.permissions')],
        ['sort[0][role][permissions]=asc', at('sort', 'asc', 'role.permissions')],
        ['populate[role][sort]=permissions', at('populate', 'permissions', 'permissions', 'Invalid key permissions')],
        ['populate[role][fields][0]=permissions', at('populate', 'permissions', 'permissions', 'Invalid key permissions')],
        ['filters[role][permissions][action][$eq]=x', at('filters', 'permissions', 'role.permissions')],
      ] as const) {
        expect((await t.get(`/api/users?${q}`)).body, q).toEqual(body);
      }
    });
  });

  it('needs user.find: an Authenticated user gets 403 until the role holds it', async () => {
    expect((await t.get('/api/users', { token: ann.jwt })).body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    await t.app.services.roles.grant('authenticated', ['plugin::users-permissions.user.find']);
    expect((await t.get('/api/users', { token: ann.jwt })).status).toBe(200);
    await t.app.services.roles.revoke('authenticated', ['plugin::users-permissions.user.find']);
    expect((await t.get('/api/users', { token: ann.jwt })).status).toBe(403);
  });
});

describe('GET /api/users/count, /me, /:id', () => {
  it('count is a bare number that honours filters', async () => {
    expect((await t.get('/api/users/count')).text).toBe('3');
    expect((await t.get('/api/users/count?filters[username][$in][0]=ann&filters[username][$in][1]=bob')).text).toBe('2');
  });

  it('count checks the whole query as the list does (Strapi 5.54): a bad sort, fields, populate, page, start or limit is its 400', async () => {
    const invalid = (param: string, key: string, path: string | null = null) => errorOf(400, 'ValidationError', `Invalid key ${key}`, { key, path, source: 'query', param });
    const pagination = (message: string) => errorOf(400, 'PaginationError', message);
    for (const [q, body] of [
      ['sort=nope', invalid('sort', 'nope')],
      ['fields[0]=nope', invalid('fields', 'nope')],
      ['fields[0]=password', invalid('fields', 'password', 'password')],
      ['populate=nope', invalid('populate', 'nope', 'nope')],
      ['limit=abc', errorOf(400, 'ValidationError', 'convertLimitQueryParams expected a positive integer got NaN')],
      ['start=-1', errorOf(400, 'ValidationError', 'convertStartQueryParams expected a positive integer got -1')],
      ['page=0', pagination("Invalid 'page' parameter. Expected an integer > 0, received: 0")],
      ['pageSize=abc', pagination("Invalid 'pageSize' parameter. Expected an integer > 0, received: abc")],
      ['page=1&limit=1', pagination('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
      ['page=abc&sort=nope', invalid('sort', 'nope')],
    ] as const) {
      expect((await t.get(`/api/users/count?${q}`)).body, q).toEqual(body);
    }
    // what passes changes nothing but filters and _q
    for (const q of ['sort=username', 'fields[0]=email', 'populate=role', 'limit=1', 'start=2', 'page=2&pageSize=1', 'pagination[page]=abc']) {
      const r = await t.get(`/api/users/count?${q}`);
      expect([r.status, r.text], q).toEqual([200, '3']);
    }
  });

  it('me and /users/:id check paging parameters as a list does and then ignore them (Strapi 5.54)', async () => {
    const pagination = (message: string) => errorOf(400, 'PaginationError', message);
    for (const path of ['/api/users/me', `/api/users/${bob.id}`]) {
      const token = path.endsWith('/me') ? bob.jwt : undefined;
      for (const q of ['page=2', 'page=2&pageSize=1', 'start=1&limit=1', 'pagination[page]=abc', 'pagination[page]=1&pagination[limit]=1']) {
        const r = await t.get(`${path}?fields[0]=username&${q}`, { token });
        expect([r.status, r.body], `${path} ${q}`).toEqual([200, { id: bob.id, documentId: expect.any(String), username: 'bob' }]);
      }
      for (const [q, body] of [
        ['page=abc', pagination("Invalid 'page' parameter. Expected an integer > 0, received: abc")],
        ['page=1&limit=1', pagination('Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object')],
        ['limit=abc', errorOf(400, 'ValidationError', 'convertLimitQueryParams expected a positive integer got NaN')],
        ['page=abc&sort=nope', errorOf(400, 'ValidationError', 'Invalid key nope', { key: 'nope', path: null, source: 'query', param: 'sort' })],
      ] as const) {
        expect((await t.get(`${path}?${q}`, { token })).body, `${path} ${q}`).toEqual(body);
      }
    }
  });

  it('me is the caller itself; Public is refused (403), an API token has no user (401 Unauthorized)', async () => {
    const me = await t.get('/api/users/me', { token: bob.jwt });
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ id: bob.id, username: 'bob', email: 'bob@example.com' });
    expect(Object.keys(me.body)).toEqual(USER_KEYS);
    expect((await t.get('/api/users/me', { token: null })).body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    expect((await t.get('/api/users/me')).body).toEqual(errorOf(401, 'UnauthorizedError', 'Unauthorized'));
  });

  it('me with filters that leave the caller out is an empty 204 (Strapi 5.54), and the caller when they keep it', async () => {
    const out = await t.get('/api/users/me?filters[username][$eq]=nobody', { token: bob.jwt });
    expect([out.status, out.text]).toEqual([204, '']);
    const kept = await t.get('/api/users/me?filters[username][$eq]=bob&fields[0]=username', { token: bob.jwt });
    expect([kept.status, kept.body]).toEqual([200, { id: bob.id, documentId: expect.any(String), username: 'bob' }]);
  });

  it('me?populate=role shows no role to the Authenticated role, which may not find roles', async () => {
    const r = await t.get('/api/users/me?populate=role', { token: bob.jwt });
    expect(r.status).toBe(200);
    expect(r.body).not.toHaveProperty('role');
  });

  it('a user by numeric id; a missing id or a documentId is a 404 User not found', async () => {
    const r = await t.get(`/api/users/${cid.id}`);
    expect(r.body).toMatchObject({ id: cid.id, username: 'cid' });
    expect((await t.get('/api/users/999999')).body).toEqual(errorOf(404, 'NotFoundError', 'User not found'));
    const docId = r.body.documentId as string;
    expect((await t.get(`/api/users/${docId}`)).status).toBe(404);
  });
});

describe('POST /api/users', () => {
  it('creates a user with the default role when none is given, 201 with the role populated', async () => {
    const r = await t.request('POST', '/api/users', { body: { username: 'dora', email: 'Dora@Example.com', password: 'secret123' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ username: 'dora', email: 'dora@example.com', provider: 'local', confirmed: false, blocked: false, role: { type: 'authenticated' } });
    expectNoSecrets(r);
    const login = await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'dora@example.com', password: 'secret123' } });
    expect(login.status).toBe(200);
  });

  it('takes a role id and confirmed', async () => {
    const roles = (await t.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    const pub = roles.find((r) => r.type === 'public')!;
    const r = await t.request('POST', '/api/users', { body: { username: 'eve', email: 'eve@example.com', password: 'secret123', role: pub.id, confirmed: true } });
    expect(r.status, r.text).toBe(201);
    expect(r.body).toMatchObject({ confirmed: true, role: { id: pub.id, type: 'public' } });
  });

  it('refuses missing fields, duplicates, unknown roles and short passwords with Strapi messages', async () => {
    const missing = await t.request('POST', '/api/users', { body: { username: 'x1' } });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('2 errors occurred');
    expect(missing.body.error.details.errors.map((e: { message: string }) => e.message)).toEqual(['email is a required field', 'password is a required field']);
    const dupName = await t.request('POST', '/api/users', { body: { username: 'ann', email: 'other@example.com', password: 'secret123' } });
    expect(dupName.body).toEqual(errorOf(400, 'ApplicationError', 'This attribute must be unique'));
    const dupEmail = await t.request('POST', '/api/users', { body: { username: 'another', email: 'ANN@example.com', password: 'secret123' } });
    expect(dupEmail.body).toEqual(errorOf(400, 'ApplicationError', 'Email already taken'));
    const role = await t.request('POST', '/api/users', { body: { username: 'norole', email: 'norole@example.com', password: 'secret123', role: 424242 } });
    expect(role.status).toBe(400);
    const short = await t.request('POST', '/api/users', { body: { username: 'shorty', email: 'shorty@example.com', password: '123' } });
    expect(short.status).toBe(400);
    expect(short.body.error.message).toBe('password must be at least 6 characters');
    const priv = await t.request('POST', '/api/users', { body: { username: 'tok', email: 'tok@example.com', password: 'secret123', resetPasswordToken: 'x' } });
    expect(priv.status).toBe(400);
    expect(
      (
        await t.get(
          '/api/users/count?filters[username][$in][0]=x1&filters[username][$in][1]=another&filters[username][$in][2]=norole&filters[username][$in][3]=shorty&filters[username][$in][4]=tok',
        )
      ).text,
    ).toBe('0');
  });
});

describe("a user body's checks, in Strapi 5.54's two stages", () => {
  const post = (body: Record<string, unknown>): Promise<Response> => t.request('POST', '/api/users', { body });
  const ok = { username: 'stage', email: 'stage@example.com', password: 'secret123' };

  it('a create checks email, username, password and role first, every error at once in that order', async () => {
    expect((await post({})).body).toEqual(
      validationOf(
        fieldErr(['email'], 'email is a required field'),
        fieldErr(['username'], 'username is a required field'),
        fieldErr(['password'], 'password is a required field'),
      ),
    );
    expect((await post({ ...ok, email: '', username: '', password: '' })).body).toEqual(
      validationOf(
        fieldErr(['email'], 'email is a required field', ''),
        fieldErr(['username'], 'username must be at least 1 characters', ''),
        fieldErr(['username'], 'username is a required field', ''),
        fieldErr(['password'], 'password must be at least 1 characters'),
        fieldErr(['password'], 'password is a required field'),
      ),
    );
    // a password inside another field is never sent back
    const nested = await post({ ...ok, username: { password: 'hunter22', x: 1 } });
    expect(nested.body).toEqual(validationOf(fieldErr(['username'], 'username must be a `string` type, but the final value was: `{\n  "x": "1"\n}`.', { x: 1 })));
    expect(nested.text).not.toContain('hunter22');
    expect((await post({ ...ok, email: 5, username: null, role: -1 })).body).toEqual(
      validationOf(
        fieldErr(['email'], 'email must be a `string` type, but the final value was: `5`.', 5),
        fieldErr(['username'], 'username must be a `string` type, but the final value was: `null`.', null),
        fieldErr(['role'], 'role must be a `strapiID` type, but the final value was: `-1`.', -1),
      ),
    );
  });

  it("then the model's checks, which a create answers as an ApplicationError with the message alone", async () => {
    expect((await post({ ...ok, username: 'ab' })).body).toEqual(errorOf(400, 'ApplicationError', 'username must be at least 3 characters'));
    expect((await post({ ...ok, username: 'ab', password: '12' })).body).toEqual(errorOf(400, 'ApplicationError', '2 errors occurred'));
    expect((await post({ ...ok, confirmed: 'yes' })).body).toEqual(errorOf(400, 'ApplicationError', 'confirmed must be a `boolean` type, but the final value was: `"yes"`.'));
    // the email is checked before the username: both taken is "Email already taken"
    expect((await post({ ...ok, username: 'ann', email: 'ann@example.com' })).body).toEqual(errorOf(400, 'ApplicationError', 'Email already taken'));
    expect((await t.get('/api/users/count?filters[username][$eq]=stage')).text).toBe('0');
  });

  it('an update checks only what it holds, and its model errors keep their details', async () => {
    const put = (body: Record<string, unknown>): Promise<Response> => t.request('PUT', `/api/users/${cid.id}`, { body });
    expect((await put({ email: 'bad', username: '' })).body).toEqual(
      validationOf(fieldErr(['email'], 'email must be a valid email', 'bad'), fieldErr(['username'], 'username must be at least 1 characters', '')),
    );
    expect((await put({ email: '' })).body).toEqual(validationOf(fieldErr(['email'], 'email must be at least 1 characters', '')));
    expect((await put({ email: null })).body).toEqual(validationOf(fieldErr(['email'], 'email must be a `string` type, but the final value was: `null`.', null)));
    expect((await put({ password: 5 })).body).toEqual(validationOf(fieldErr(['password'], 'Password must be at least 1 character')));
    expect((await put({ username: 'ab' })).body).toEqual(validationOf(fieldErr(['username'], 'username must be at least 3 characters', 'ab')));
    expect((await t.get(`/api/users/${cid.id}`)).body).toMatchObject({ username: 'cid', email: 'cid@example.com' });
  });
});

describe("a user body's role, in each form Strapi 5.54 reads", () => {
  const MISSING = '1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist';
  const rolesByType = async (): Promise<Map<string, { id: number; documentId: string }>> =>
    new Map(((await t.get('/api/users-permissions/roles')).body.roles as { id: number; documentId: string; type: string }[]).map((r) => [r.type, r]));
  let n = 0;
  const create = (role: unknown): Promise<Response> => {
    n++;
    return t.request('POST', '/api/users', { body: { username: `rf${n}`, email: `rf${n}@example.com`, password: 'secret123', role } });
  };
  const roleOf = async (id: number): Promise<string> => (await t.get(`/api/users/${id}?populate=role`)).body.role?.type;

  it('a create takes an id, digits, a documentId or {connect: [first, …]}, and names what it refuses', async () => {
    const roles = await rolesByType();
    const pub = roles.get('public')!;
    for (const role of [pub.id, String(pub.id), pub.documentId, { connect: [{ documentId: pub.documentId }, { id: 1 }] }, { connect: [pub.id] }]) {
      const r = await create(role);
      expect(r.status, `${JSON.stringify(role)} → ${r.text}`).toBe(201);
      expect(r.body.role.type).toBe('public');
    }
    // a falsy role is none: the default one, as Strapi's `if (!role)`
    for (const role of [0, '']) expect((await create(role)).body.role.type, JSON.stringify(role)).toBe('authenticated');
    expect((await create(424242)).body).toEqual(errorOf(400, 'ApplicationError', MISSING));
    expect((await create({ connect: [{ id: 424242 }] })).body).toEqual(errorOf(400, 'ApplicationError', MISSING));
    // a role naming no row is counted with the model's own errors, in Strapi 5.54's one pass; a
    // documentId naming none is refused before them
    const weak = { username: 'ab', email: 'weak@example.com', password: '12' };
    const modelErrors = (await t.request('POST', '/api/users', { body: { ...weak, role: pub.id } })).body;
    expect(modelErrors.error).toMatchObject({ status: 400, name: 'ApplicationError', message: '2 errors occurred' });
    expect((await t.request('POST', '/api/users', { body: { ...weak, role: 424242 } })).body).toEqual(errorOf(400, 'ApplicationError', '3 errors occurred'));
    expect((await t.request('POST', '/api/users', { body: { ...weak, role: 'nope' } })).body).toEqual(
      errorOf(400, 'ApplicationError', 'Document with id "nope", locale "null" not found'),
    );
    expect((await create('nope')).body).toEqual(errorOf(400, 'ApplicationError', 'Document with id "nope", locale "null" not found'));
    // ids past the column and strings no documentId can be name no role, and never reach the database
    for (const role of [2147483648, '99999999999', 1e21]) expect((await create(role)).body, String(role)).toEqual(errorOf(400, 'ApplicationError', MISSING));
    expect((await create('x\u0000')).body).toEqual(errorOf(400, 'ApplicationError', 'Document with id "x\u0000", locale "null" not found'));
    expect((await create({ connect: [{}] })).body).toEqual(validationOf(fieldErr(['role'], 'role must be a `strapiID` type, but the final value was: `{}`.', {})));
    expect((await create({ connect: [] })).body).toEqual(validationOf(fieldErr(['role', 'connect'], 'Users must have a role', [])));
    for (const role of [{ set: [{ id: pub.id }] }, { id: pub.id }, { disconnect: [{ id: pub.id }] }]) {
      expect((await create(role)).body).toEqual(validationOf(fieldErr(['role', 'connect'], 'role.connect is a required field')));
    }
    for (const role of [-1, 1.5, true]) {
      expect((await create(role)).body).toEqual(validationOf(fieldErr(['role'], `role must be a \`strapiID\` type, but the final value was: \`${role}\`.`, role)));
    }
    expect((await create(null)).body).toEqual(validationOf(fieldErr(['role'], 'role must be a `object` type, but the final value was: `null`.', null)));
    // listed after the other fields' errors, in one answer
    const r = await t.request('POST', '/api/users', { body: { username: 'rfx', role: [1] } });
    expect(r.body).toEqual(
      validationOf(
        fieldErr(['email'], 'email is a required field'),
        fieldErr(['password'], 'password is a required field'),
        fieldErr(['role'], 'role must be a `object` type, but the final value was: `[\n  "1"\n]`.', [1]),
      ),
    );
    expect((await t.get('/api/users/count?filters[username][$startsWith]=rf')).text).toBe('7');
  });

  it('an update takes the same references, connect or set; an empty connect changes nothing; a role is never removed', async () => {
    const roles = await rolesByType();
    const [pub, auth] = [roles.get('public')!, roles.get('authenticated')!];
    const u = await register(t, 'roly');
    const put = (role: unknown): Promise<Response> => t.request('PUT', `/api/users/${u.id}`, { body: { role } });
    expect((await put(pub.documentId)).status).toBe(200);
    expect(await roleOf(u.id)).toBe('public');
    expect((await put({ connect: [{ id: auth.id }, { id: pub.id }] })).body.role.type).toBe('authenticated');
    expect((await put({ set: [{ documentId: pub.documentId }] })).body.role.type).toBe('public');
    expect((await put({ connect: [] })).body.role.type).toBe('public');
    expect((await put({ id: auth.id })).body.role.type).toBe('authenticated');
    // an object naming no role changes nothing (Strapi 5.54's object schema lets it through)
    for (const role of [{}, { x: 1 }]) expect((await put(role)).body.role.type, JSON.stringify(role)).toBe('authenticated');
    // these late errors show the update's data as Strapi 5.54's document service got it, with its publishedAt
    const publishedAt = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await put('')).body).toEqual(validationOf(fieldErr([], 'Invalid relations', { role: { set: [{ documentId: '' }] }, publishedAt })));
    // found only once the body's checks pass, so never listed beside theirs
    expect((await t.request('PUT', `/api/users/${u.id}`, { body: { role: '', email: 'bad' } })).body).toEqual(
      validationOf(fieldErr(['email'], 'email must be a valid email', 'bad')),
    );
    expect((await put(424242)).body).toEqual(validationOf(fieldErr([], MISSING, { role: { set: [{ id: 424242 }] }, publishedAt })));
    expect((await put({ connect: [{ id: 424242 }] })).body).toEqual(validationOf(fieldErr([], MISSING, { role: { connect: [{ id: 424242 }] }, publishedAt })));
    // the rest of the body is in it too: the email lowercased, the password left out (Strapi shows it)
    const whole = await t.request('PUT', `/api/users/${u.id}`, { body: { username: 'roly2', email: 'Roly2@Example.com', password: 'secret999', role: 424242 } });
    expect(whole.body).toEqual(validationOf(fieldErr([], MISSING, { username: 'roly2', email: 'roly2@example.com', role: { set: [{ id: 424242 }] }, publishedAt })));
    expect((await t.get(`/api/users/${u.id}`)).body).toMatchObject({ username: 'roly' });
    // found in the model's own pass, so listed after its field errors (Strapi 5.54, reaksa-maii/strapi-backend-v5),
    // but after the username check: a taken username is refused alone
    const short = await t.request('PUT', `/api/users/${u.id}`, { body: { username: 'ab', role: 424242 } });
    expect(short.body).toEqual(
      validationOf(fieldErr(['username'], 'username must be at least 3 characters', 'ab'), fieldErr([], MISSING, { username: 'ab', role: { set: [{ id: 424242 }] }, publishedAt })),
    );
    await register(t, 'rolytaken');
    expect((await t.request('PUT', `/api/users/${u.id}`, { body: { username: 'rolytaken', role: 424242 } })).body).toEqual(
      errorOf(400, 'ApplicationError', 'Username already taken'),
    );
    expect((await put('nope')).body).toEqual(errorOf(400, 'ValidationError', 'Document with id "nope", locale "null" not found'));
    expect((await put({ disconnect: [{ id: auth.id }] })).body).toEqual(validationOf(fieldErr(['role', 'disconnect'], 'Cannot remove role', [{ id: auth.id }])));
    // Strapi 5.54 leaves the user without a role here
    expect((await put({ set: [] })).body).toEqual(validationOf(fieldErr(['role', 'set'], 'Cannot remove role', [])));
    expect(await roleOf(u.id)).toBe('authenticated');
  });
});

describe('PUT and DELETE /api/users/:id', () => {
  it('updates only the fields sent and answers the user with its role', async () => {
    const u = await register(t, 'fay');
    const r = await t.request('PUT', `/api/users/${u.id}`, { body: { username: 'faye' } });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toMatchObject({ id: u.id, username: 'faye', email: 'fay@example.com', role: { type: 'authenticated' } });
  });

  it('a body that is a JSON array is one root error, its fields unchecked, on PUT and POST (Strapi 5.54), and changes nothing', async () => {
    const u = await register(t, 'gil');
    const notObject = (shown: string, value: unknown) => validationOf(fieldErr([], `this must be a \`object\` type, but the final value was: \`${shown}\`.`, value));
    const put = await t.request('PUT', `/api/users/${u.id}`, { body: [1] });
    expect([put.status, put.body]).toEqual([400, notObject('[\n  "1"\n]', [1])]);
    const post = await t.request('POST', '/api/users', { body: [] });
    expect([post.status, post.body]).toEqual([400, notObject('[]', [])]);
    // a password inside the array is left out of the error, as everywhere
    const secret = await t.request('POST', '/api/users', { body: [{ username: 'gil2', password: 'secret123' }] });
    expect([secret.status, secret.body]).toEqual([400, notObject('[\n  {\n    "username": "\\"gil2\\""\n  }\n]', [{ username: 'gil2' }])]);
    expect((await t.get(`/api/users/${u.id}`)).body).toMatchObject({ username: 'gil' });
  });

  it('404 User not found for a missing user, before the body is looked at', async () => {
    expect((await t.request('PUT', '/api/users/999999', { body: { username: 'x' } })).body).toEqual(errorOf(404, 'NotFoundError', 'User not found'));
  });

  it('refuses a taken username or email and an empty password', async () => {
    expect((await t.request('PUT', `/api/users/${bob.id}`, { body: { username: 'ann' } })).body).toEqual(errorOf(400, 'ApplicationError', 'Username already taken'));
    expect((await t.request('PUT', `/api/users/${bob.id}`, { body: { email: 'ann@example.com' } })).body).toEqual(errorOf(400, 'ApplicationError', 'Email already taken'));
    const empty = await t.request('PUT', `/api/users/${bob.id}`, { body: { password: null } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe('password.notNull');
  });

  it('a new password works at once; blocking a user refuses its token at once', async () => {
    const u = await register(t, 'gus');
    expect((await t.request('PUT', `/api/users/${u.id}`, { body: { password: 'newsecret' } })).status).toBe(200);
    expect((await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'gus', password: 'newsecret' } })).status).toBe(200);
    expect((await t.get('/api/users/me', { token: u.jwt })).status).toBe(200);
    expect((await t.request('PUT', `/api/users/${u.id}`, { body: { blocked: true } })).status).toBe(200);
    expect((await t.get('/api/users/me', { token: u.jwt })).body).toEqual(errorOf(401, 'UnauthorizedError', 'Invalid credentials'));
  });

  it('moving a user to another role changes what its token may do at once', async () => {
    const u = await register(t, 'hal');
    expect((await t.get('/api/tags', { token: u.jwt })).status).toBe(403);
    await t.app.services.roles.grant('public', ['api::tag.tag.find']);
    const roles = (await t.get('/api/users-permissions/roles')).body.roles as { id: number; type: string }[];
    await t.request('PUT', `/api/users/${u.id}`, { body: { role: roles.find((r) => r.type === 'public')!.id } });
    expect((await t.get('/api/tags', { token: u.jwt })).status).toBe(200);
    await t.app.services.roles.revoke('public', ['api::tag.tag.find']);
  });

  it('delete answers the deleted user; then 404; its token is refused', async () => {
    const u = await register(t, 'ida');
    const r = await t.request('DELETE', `/api/users/${u.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: u.id, username: 'ida' });
    // bare, without its role, as Strapi 5.54 answers
    expect(Object.keys(r.body).sort()).toEqual([...USER_KEYS].sort());
    expectNoSecrets(r);
    expect((await t.request('DELETE', `/api/users/${u.id}`)).body).toEqual(errorOf(404, 'NotFoundError', 'User not found'));
    expect((await t.get('/api/users/me', { token: u.jwt })).body).toEqual(errorOf(401, 'UnauthorizedError', 'Invalid credentials'));
  });
});

describe('over-long values', () => {
  it('a password past 72 bytes, a username past 255 characters are 400s, never a 500', async () => {
    const long = await t.request('POST', '/api/users', { body: { username: 'longpw', email: 'longpw@example.com', password: 'é'.repeat(40) } });
    expect(long.status).toBe(400);
    expect(long.body.error.message).toBe('Password must be less than 73 bytes');
    const name = await t.request('POST', '/api/users', { body: { username: 'u'.repeat(300), email: 'longname@example.com', password: 'secret123' } });
    expect(name.status).toBe(400);
    const reg = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: 'u'.repeat(300), email: 'longname@example.com', password: 'secret123' } });
    expect(reg.status).toBe(400);
    const put = await t.request('PUT', `/api/users/${ann.id}`, { body: { password: 'x'.repeat(73) } });
    expect(put.status).toBe(400);
  });
});

describe('a user body key named __proto__', () => {
  it('is refused as any unknown key is, on create and update, and changes nothing', async () => {
    const json = { 'content-type': 'application/json' };
    const send = (method: string, path: string, text: string): Promise<Response> => t.request(method, path, { raw: text, headers: json });
    const create = '{"username":"protokey","email":"protokey@example.com","password":"secret123","__proto__":{"confirmed":true,"role":3}}';
    const asUnknown = (r: Response): string => JSON.stringify(r.body).replaceAll('nope', '__proto__');
    // JSON.parse keeps "__proto__" as an own key, as a client's JSON body carries it
    const created = await send('POST', '/api/users', create);
    expect(created.body.error.message).toBe('Invalid key __proto__');
    expect(JSON.stringify(created.body)).toBe(asUnknown(await send('POST', '/api/users', create.replace('__proto__', 'nope'))));
    const update = '{"__proto__":{"role":3,"blocked":true}}';
    const updated = await send('PUT', `/api/users/${bob.id}`, update);
    expect(updated.body.error.message).toBe('Invalid key __proto__');
    expect(JSON.stringify(updated.body)).toBe(asUnknown(await send('PUT', `/api/users/${bob.id}`, update.replace('__proto__', 'nope'))));
    const after = await t.get(`/api/users/${bob.id}?populate=role`);
    expect(after.body).toMatchObject({ blocked: false, role: { type: 'authenticated' } });
    expect((await t.get('/api/users/count?filters[username][$eq]=protokey')).text).toBe('0');
  });
});
