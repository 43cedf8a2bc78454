import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

const forbidden = { data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden', details: {} } };
const invalidCredentials = { data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Missing or invalid credentials', details: {} } };

describe('access to content routes', () => {
  it('a request without a token runs as Public, which may do nothing by default: 403', async () => {
    for (const [method, path] of [
      ['GET', '/api/articles'],
      ['POST', '/api/articles'],
      ['GET', '/api/global'],
      ['DELETE', '/api/tags/x'],
    ] as const) {
      const r = await t.request(method, path, { token: null, body: method === 'POST' ? { data: {} } : undefined });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body).toEqual(forbidden);
    }
  });

  it('an unknown bearer token is a 401', async () => {
    const r = await t.get('/api/articles', { token: 'not-a-token' });
    expect(r.status).toBe(401);
    expect(r.body).toEqual(invalidCredentials);
  });

  it('a malformed Authorization header counts as no header (403, not 401)', async () => {
    const r = await t.get('/api/articles', { token: null, headers: { authorization: 'Basic abc' } });
    expect(r.status).toBe(403);
    // a no-break space is no separator Node takes off: before or after the token it makes a third part, as in Strapi 5.54
    const full = await t.tokenOf('full-access');
    for (const header of [`\u00a0Bearer ${full}`, `Bearer ${full}\u00a0`]) {
      expect((await t.get('/api/articles', { token: null, headers: { authorization: header } })).body, JSON.stringify(header)).toEqual(forbidden);
    }
    expect((await t.get('/api/articles', { token: null, headers: { authorization: `  Bearer\t${full}  ` } })).status).toBe(200);
  });

  it('a read-only token may find and findOne but not write', async () => {
    const ro = await t.tokenOf('read-only');
    expect((await t.get('/api/articles', { token: ro })).status).toBe(200);
    const w = await t.request('POST', '/api/tags', { token: ro, body: { data: { label: 'x' } } });
    expect(w.status).toBe(403);
    expect(w.body).toEqual(forbidden);
  });

  it('a custom token may call exactly its actions', async () => {
    const custom = await t.tokenOf('custom', ['api::article.article.find']);
    expect((await t.get('/api/articles', { token: custom })).status).toBe(200);
    expect((await t.get('/api/tags', { token: custom })).status).toBe(403);
    expect((await t.get('/api/articles/abc', { token: custom })).status).toBe(403);
  });

  it("a populate entry under a relation the caller may not find is left out unread: its target's names are not revealed", async () => {
    const custom = await t.tokenOf('custom', ['api::article.article.find']);
    const category = (await t.request('POST', '/api/categories', { body: { data: { name: 'Unread', slug: 'unread' } } })).body.data.documentId as string;
    const made = await t.request('POST', '/api/articles?status=published', { body: { data: { title: 'unread entry', categories: [category] } } });
    expect(made.status, made.text).toBe(201);
    for (const populate of [
      'populate[categories][fields][0]=nope',
      'populate[tags][populate]=true',
      'populate[categories][filters][createdAt][$EQ]=e',
      'populate=categories.nope',
    ]) {
      const r = await t.get(`/api/articles?${populate}&fields[0]=title&filters[title][$eq]=unread entry`, { token: custom });
      expect(r.status, `${populate}: ${r.text}`).toBe(200);
      expect(r.body.data, populate).toEqual([{ id: expect.any(Number), documentId: made.body.data.documentId, title: 'unread entry' }]);
    }
  });

  it("a dotted populate through a dynamic zone to a relation the caller may not find keeps the zone's entries, without the relation", async () => {
    const person = (await t.request('POST', '/api/authors', { body: { data: { name: 'Quoted' } } })).body.data.documentId as string;
    const made = await t.request('POST', '/api/articles?status=published', {
      body: { data: { title: 'zone person', blocks: [{ __component: 'shared.quote', title: 'q', body: 'b', person }] } },
    });
    expect(made.status, made.text).toBe(201);
    const custom = await t.tokenOf('custom', ['api::article.article.find']);
    const r = await t.get(`/api/articles?filters[title][$eq]=zone person&fields[0]=title&populate=blocks.person`, { token: custom });
    expect(r.body.data[0].blocks).toEqual([{ __component: 'shared.quote', id: expect.any(Number), title: 'q', body: 'b' }]);
    const full = await t.get(`/api/articles?filters[title][$eq]=zone person&fields[0]=title&populate=blocks.person`);
    expect(full.body.data[0].blocks[0].person).toMatchObject({ documentId: person });
  });

  it('an expired token is a 401 "Token expired"', async () => {
    const { token, accessKey } = await t.app.services.tokens.create({ name: 'soon-expired', type: 'full-access', lifespanDays: 7 });
    await t.app.database.db
      .updateTable('folio_api_tokens')
      .set({ expires_at: t.app.database.dialect.toDatetime(new Date(Date.now() - 1000)) })
      .where('id', '=', token.id)
      .execute();
    const fresh = await t.get('/api/articles', { token: accessKey });
    expect(fresh.status).toBe(401);
    expect(fresh.body).toEqual({ data: null, error: { status: 401, name: 'UnauthorizedError', message: 'Token expired', details: {} } });
  });

  it('Public gets access once the role holds the action', async () => {
    await t.app.services.roles.grant('public', ['api::tag.tag.find']);
    const r = await t.get('/api/tags', { token: null });
    expect(r.status).toBe(200);
    expect((await t.get('/api/articles', { token: null })).status).toBe(403);
  });
});

describe('localizations under findOne without find', () => {
  it('are populated, filtered and sorted through only for a caller who may find the type, as any relation to it', async () => {
    const created = await t.request('POST', '/api/categories', { body: { data: { name: 'Versions', slug: 'versions-en' } } });
    const documentId: string = created.body.data.documentId;
    await t.request('PUT', `/api/categories/${documentId}?locale=fr`, { body: { data: { name: 'Versions fr', slug: 'versions-fr' } } });
    const both = await t.tokenOf('custom', ['api::category.category.find', 'api::category.category.findOne']);
    const one = await t.tokenOf('custom', ['api::category.category.findOne']);
    const read = (token: string, query: string) => t.get(`/api/categories/${documentId}?${query}`, { token });

    const listed = await read(both, 'populate[localizations][fields][0]=name');
    expect(listed.body.data.localizations.map((l: { name: string }) => l.name)).toEqual(['Versions fr']);
    expect(Object.hasOwn((await read(both, 'populate=*')).body.data, 'localizations')).toBe(true);

    const dropped = await read(one, 'populate[localizations][fields][0]=name');
    expect(dropped.status).toBe(200);
    expect(Object.hasOwn(dropped.body.data, 'localizations')).toBe(false);
    expect(Object.hasOwn((await read(one, 'populate=*')).body.data, 'localizations')).toBe(false);
    const filtered = await read(one, 'filters[localizations][name][$eq]=x');
    expect(filtered.body).toEqual({
      data: null,
      error: {
        status: 400,
        name: 'ValidationError',
        message: 'Invalid key localizations',
        details: { key: 'localizations', path: 'localizations', source: 'query', param: 'filters' },
      },
    });
  });
});
