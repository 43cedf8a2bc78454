// Role-based access on content routes: a user's token acts with its role's permissions, and populate,
// relation filters and the response cache follow the same single check as for API tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { register, type Account } from './helpers.js';
import { expectNoSecrets, errorOf } from './auth-support.js';

let t: TestApp;
let user: Account;
let articleDoc: string;
beforeAll(async () => {
  t = await startTestApp();
  user = await register(t, 'reader');
  const author = await t.request('POST', '/api/authors', { body: { data: { name: 'Ada' } } });
  const tag = await t.request('POST', '/api/tags', { body: { data: { label: 'news' } } });
  const a = await t.request('POST', '/api/articles', {
    body: { data: { title: 'Hello', author: author.body.data.documentId, tags: [tag.body.data.documentId], editor: user.id } },
  });
  expect(a.status, a.text).toBe(201);
  articleDoc = a.body.data.documentId;
  await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'Draft only' } } });
});
afterAll(async () => {
  await t?.close();
});

describe('role-based access on content routes', () => {
  it('a user of a role without the action gets 403; with it, published documents', async () => {
    expect((await t.get('/api/articles', { token: user.jwt })).body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    await t.app.services.roles.grant('authenticated', ['api::article.article.find', 'api::article.article.findOne']);
    const r = await t.get('/api/articles', { token: user.jwt });
    expect(r.status).toBe(200);
    expect(r.body.data.map((d: { title: string }) => d.title)).toEqual(['Hello']);
    expect((await t.get(`/api/articles/${articleDoc}`, { token: user.jwt })).status).toBe(200);
    expect((await t.request('POST', '/api/articles', { token: user.jwt, body: { data: { title: 'x' } } })).status).toBe(403);
  });

  it('writes need their own actions, createLocalization included', async () => {
    await t.app.services.roles.grant('authenticated', ['api::article.article.create', 'api::article.article.update']);
    const c = await t.request('POST', '/api/articles', { token: user.jwt, body: { data: { title: 'By a user' } } });
    expect(c.status, c.text).toBe(201);
    const fr = await t.request('PUT', `/api/articles/${c.body.data.documentId}?locale=fr`, { token: user.jwt, body: { data: { title: 'Par un utilisateur' } } });
    expect(fr.body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    await t.app.services.roles.grant('authenticated', ['api::article.article.createLocalization']);
    expect((await t.request('PUT', `/api/articles/${c.body.data.documentId}?locale=fr`, { token: user.jwt, body: { data: { title: 'Par un utilisateur' } } })).status).toBe(200);
  });

  it('populate leaves out relations whose type the role may not find, and filters through them are refused', async () => {
    const r = await t.get(`/api/articles/${articleDoc}?populate=*`, { token: user.jwt });
    expect(r.status).toBe(200);
    for (const k of ['author', 'tags', 'editor']) expect(r.body.data).not.toHaveProperty(k);
    const f = await t.get('/api/articles?filters[author][name][$eq]=Ada', { token: user.jwt });
    expect(f.status).toBe(400);
    expect(f.body.error.message).toBe('Invalid key author');
    await t.app.services.roles.grant('authenticated', ['api::author.author.find']);
    const again = await t.get(`/api/articles/${articleDoc}?populate=*`, { token: user.jwt });
    expect(again.body.data.author).toMatchObject({ name: 'Ada' });
    expect(again.body.data).not.toHaveProperty('tags');
    expect((await t.get('/api/articles?filters[author][name][$eq]=Ada', { token: user.jwt })).body.data).toHaveLength(1);
  });

  it('a populated user (article.editor) shows only public user fields, and only to callers that may find users', async () => {
    const full = await t.get(`/api/articles/${articleDoc}?populate[editor]=true`);
    expect(full.body.data.editor).toMatchObject({ id: user.id, username: 'reader', email: 'reader@example.com' });
    expectNoSecrets(full);
    expect((await t.get(`/api/articles/${articleDoc}?populate[editor][fields][0]=password`)).status).toBe(400);
    expect((await t.get('/api/articles?filters[editor][password][$null]=false')).status).toBe(400);
    expect((await t.get(`/api/articles/${articleDoc}?populate=editor`, { token: user.jwt })).body.data).not.toHaveProperty('editor');
  });

  it("the response cache keys user reads by role: Public never gets a body read with a user role's rights", async () => {
    await t.app.services.roles.grant('public', ['api::article.article.findOne']);
    const url = `/api/articles/${articleDoc}?populate=author`;
    const asUser = await t.get(url, { token: user.jwt });
    expect(asUser.body.data.author).toMatchObject({ name: 'Ada' });
    const asPublic = await t.get(url, { token: null });
    expect(asPublic.status).toBe(200);
    expect(asPublic.body.data).not.toHaveProperty('author');
    // and the other way round, on a fresh URL
    const url2 = `/api/articles/${articleDoc}?populate=author&fields[0]=title`;
    expect((await t.get(url2, { token: null })).body.data).not.toHaveProperty('author');
    expect((await t.get(url2, { token: user.jwt })).body.data.author).toMatchObject({ name: 'Ada' });
  });

  it("revoking a role's action counts at once, cached bodies included", async () => {
    const url = '/api/articles?fields[0]=title';
    expect((await t.get(url, { token: user.jwt })).status).toBe(200);
    expect((await t.get(url, { token: user.jwt })).status).toBe(200);
    await t.app.services.roles.revoke('authenticated', ['api::article.article.find']);
    expect((await t.get(url, { token: user.jwt })).status).toBe(403);
  });

  it('in the default (legacy) JWT mode the session routes check their permission, then answer 404 Not Found, as Strapi 5.54 (seen)', async () => {
    const NOT_FOUND = errorOf(404, 'NotFoundError', 'Not Found');
    const FORBIDDEN = errorOf(403, 'ForbiddenError', 'Forbidden');
    const BAD_TOKEN = errorOf(401, 'UnauthorizedError', 'Missing or invalid credentials');
    // what the reference answered: Public may refresh, Authenticated may log out and see its sessions
    const routes: [string, string, unknown, unknown][] = [
      ['POST', '/api/auth/refresh', NOT_FOUND, FORBIDDEN],
      ['POST', '/api/auth/logout', FORBIDDEN, NOT_FOUND],
      ['GET', '/api/auth/sessions', FORBIDDEN, NOT_FOUND],
      ['DELETE', '/api/auth/sessions/abc', FORBIDDEN, NOT_FOUND],
    ];
    for (const [method, path, anonymous, signedIn] of routes) {
      const as = (token: string | null) => t.request(method as 'POST', path, { token, body: method === 'GET' ? undefined : { refreshToken: 'x' } });
      expect((await as(null)).body, `${method} ${path} anonymous`).toEqual(anonymous);
      expect((await as(user.jwt)).body, `${method} ${path} signed in`).toEqual(signedIn);
      expect((await as('xyz')).body, `${method} ${path} bad token`).toEqual(BAD_TOKEN);
    }
  });

  it('a user left without a role (its link removed, as a Strapi database may hold) is a 401 everywhere, as Strapi 5.54 answers', async () => {
    const roleless = await register(t, 'roleless');
    const role = t.app.model.contentTypes.get('plugin::users-permissions.user')!.attributes.get('role');
    if (role?.kind !== 'relation') throw new Error('no role relation');
    await t.app.database.db.deleteFrom(role.linkTable).where('source_id', '=', roleless.id).execute();
    for (const path of ['/api/articles', '/api/users/me']) {
      expect((await t.get(path, { token: roleless.jwt })).body, path).toEqual(errorOf(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
  });

  it('a token that is no JWT of ours is a 401, whatever it looks like', async () => {
    const [h, p] = user.jwt.split('.');
    for (const bad of [`${h}.${p}.`, `${h}.${p}.AAAA`, 'a.b.c', `eyJhbGciOiJub25lIn0.${p}.`]) {
      expect((await t.get('/api/articles', { token: bad })).body, bad).toEqual(errorOf(401, 'UnauthorizedError', 'Missing or invalid credentials'));
    }
  });
});
