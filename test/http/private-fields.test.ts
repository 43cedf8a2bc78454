// Private stays private (design invariant 5): every way a client could reach a user's password hash,
// reset or confirmation token, or a `"private": true` attribute (article.internalNotes) — filters at
// any depth and inside $and/$or/$not, sort, fields, populate fields/filters/sort, the media library's
// `related`, and `_q` search — is refused with the exact 400 Strapi's sanitizer gives, or answers
// without the value. Strapi's worst advisories were these shapes; each keeps a regression test here.
// (Shapes already covered elsewhere: test/http/filters.test.ts, test/users-permissions/users-api.test.ts,
// test/users-permissions/hostile.test.ts.)
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { register, type Account } from '../users-permissions/helpers.js';
import { expectNoSecrets } from '../users-permissions/auth-support.js';
import { filePart, form } from '../upload/helpers.js';

const RESET_TOKEN = 'reset-token-value-1';
const CONFIRMATION_TOKEN = 'confirmation-token-value-1';
const NOTES = 'hush-hush-notes';

let t: TestApp;
let editor: Account;
let fileId: number;
let articleDoc: string;

beforeAll(async () => {
  t = await startTestApp();
  editor = await register(t, 'editor');
  // the tokens a forgot-password or a confirmation mail would leave behind
  await t.app.database.db.updateTable('up_users').set({ reset_password_token: RESET_TOKEN, confirmation_token: CONFIRMATION_TOKEN }).where('id', '=', editor.id).execute();
  const author = await t.request('POST', '/api/authors', { body: { data: { name: 'Ann' } } });
  expect(author.status).toBe(201);
  const up = await t.request('POST', '/api/upload', { raw: form([filePart('hello', 'a.txt', 'text/plain')]) });
  expect(up.status).toBe(201);
  fileId = up.body[0].id;
  const base = await t.request('POST', '/api/articles', { body: { data: { title: 'Base', internalNotes: NOTES, editor: editor.id } } });
  expect(base.status).toBe(201);
  const a = await t.request('POST', '/api/articles', {
    body: { data: { title: 'Covered', internalNotes: NOTES, author: author.body.data.documentId, editor: editor.id, cover: fileId, related: [base.body.data.documentId] } },
  });
  expect(a.status, a.text).toBe(201);
  articleDoc = a.body.data.documentId;
});
afterAll(async () => {
  await t?.close();
});

/** The body of Strapi's refusal of a private key: 400 ValidationError naming the key, its path and parameter. */
function invalidKey(param: string, key: string, path = key): unknown {
  const at = path === key ? '' : ` at ${path}`;
  return { data: null, error: { status: 400, name: 'ValidationError', message: `Invalid key ${key}${at}`, details: { key, path, source: 'query', param } } };
}

async function expectRefused(url: string, param: string, key: string, path?: string): Promise<void> {
  const r = await t.get(url);
  expect(r.body, url).toEqual(invalidKey(param, key, path));
  expectNothingPrivate(r);
}

/** No secret of the user and no private attribute's value, under any key; a 200 names no private attribute. */
function expectNothingPrivate(r: Response): void {
  expectNoSecrets(r);
  for (const secret of [RESET_TOKEN, CONFIRMATION_TOKEN, NOTES]) expect(r.text).not.toContain(secret);
  if (r.status === 200) expect(r.text).not.toContain('internalNotes');
}

describe("filters on a user's secrets", () => {
  it('are refused on /api/users inside $and, $or and $not, and through the role back to users', async () => {
    await expectRefused('/api/users?filters[$and][0][password][$startsWith]=$2', 'filters', 'password');
    await expectRefused('/api/users?filters[$not][resetPasswordToken][$null]=true', 'filters', 'resetPasswordToken');
    await expectRefused(`/api/users?filters[$or][0][confirmationToken][$eq]=${CONFIRMATION_TOKEN}`, 'filters', 'confirmationToken');
    await expectRefused('/api/users?filters[$and][0][$or][0][$not][password][$notNull]=true', 'filters', 'password');
    await expectRefused('/api/users?filters[role][users][password][$startsWith]=$2', 'filters', 'password', 'role.users.password');
    await expectRefused('/api/users?filters[role][users][confirmationToken][$notNull]=true', 'filters', 'confirmationToken', 'role.users.confirmationToken');
  });

  it('are refused through relations at any depth, inside $and, $or and $not', async () => {
    await expectRefused(
      '/api/articles?filters[author][articles][editor][resetPasswordToken][$notNull]=true',
      'filters',
      'resetPasswordToken',
      'author.articles.editor.resetPasswordToken',
    );
    await expectRefused('/api/articles?filters[$and][0][editor][password][$startsWith]=$2', 'filters', 'password', 'editor.password');
    await expectRefused('/api/articles?filters[$not][editor][confirmationToken][$null]=true', 'filters', 'confirmationToken', 'editor.confirmationToken');
    await expectRefused('/api/articles?filters[related][editor][password][$contains]=$', 'filters', 'password', 'related.editor.password');
    await expectRefused('/api/articles?filters[editor][role][users][resetPasswordToken][$eq]=x', 'filters', 'resetPasswordToken', 'editor.role.users.resetPasswordToken');
  });
});

describe("sort, fields and populate on a user's secrets", () => {
  it('sort through a relation is refused, as a string and as an object', async () => {
    await expectRefused('/api/articles?sort=editor.password', 'sort', 'password', 'editor.password');
    await expectRefused('/api/articles?sort[0][editor][resetPasswordToken]=asc', 'sort', 'resetPasswordToken', 'editor.resetPasswordToken');
    await expectRefused('/api/articles?sort=author.articles.editor.confirmationToken:desc', 'sort', 'confirmationToken', 'author.articles.editor.confirmationToken');
    await expectRefused('/api/users?sort=role.users.password', 'sort', 'password', 'role.users.password');
  });

  it("a populated user's fields, filters and sort are refused, at any depth", async () => {
    await expectRefused(`/api/articles/${articleDoc}?populate[editor][fields][0]=password`, 'populate', 'password');
    await expectRefused('/api/articles?populate[editor][filters][password][$startsWith]=$2', 'populate', 'password');
    await expectRefused('/api/articles?populate[editor][filters][$or][0][resetPasswordToken][$notNull]=true', 'populate', 'resetPasswordToken');
    await expectRefused('/api/articles?populate[editor][sort]=password', 'populate', 'password');
    await expectRefused('/api/articles?populate[author][populate][articles][populate][editor][filters][resetPasswordToken][$notNull]=true', 'populate', 'resetPasswordToken');
    await expectRefused('/api/users?populate[role][populate][users][fields][0]=password', 'populate', 'password');
    await expectRefused('/api/users?populate[role][populate][users][filters][confirmationToken][$eq]=x', 'populate', 'confirmationToken');
    await expectRefused('/api/users?populate[role][populate][users][sort]=resetPasswordToken', 'populate', 'resetPasswordToken');
  });

  it('populated users show no secret, however they are reached', async () => {
    for (const url of [
      `/api/articles/${articleDoc}?populate=*`,
      `/api/articles?populate[editor][populate]=*`,
      `/api/articles?populate[related][populate][editor]=true`,
      '/api/users?populate=*',
      '/api/users?populate[role][populate][users]=true',
      `/api/users/${editor.id}?populate[role][populate]=*`,
    ]) {
      const r = await t.get(url);
      expect(r.status, url).toBe(200);
      expect(r.text, url).toContain('"username":"editor"');
      expectNothingPrivate(r);
    }
  });
});

describe('a private attribute of a content type (article.internalNotes)', () => {
  it('is refused in filters, sort and populate through a relation', async () => {
    await expectRefused('/api/articles?filters[related][internalNotes][$eq]=x', 'filters', 'internalNotes', 'related.internalNotes');
    await expectRefused('/api/articles?filters[$not][author][articles][internalNotes][$null]=true', 'filters', 'internalNotes', 'author.articles.internalNotes');
    await expectRefused('/api/articles?sort=related.internalNotes', 'sort', 'internalNotes', 'related.internalNotes');
    await expectRefused('/api/articles?populate[related][fields][0]=internalNotes', 'populate', 'internalNotes');
    await expectRefused('/api/articles?populate[related][filters][internalNotes][$eq]=x', 'populate', 'internalNotes');
    await expectRefused('/api/articles?populate[related][sort]=internalNotes', 'populate', 'internalNotes');
    await expectRefused('/api/authors?populate[articles][filters][internalNotes][$startsWith]=h', 'populate', 'internalNotes');
  });

  it('is never returned, populated or not', async () => {
    for (const url of [`/api/articles/${articleDoc}?populate=*`, '/api/articles?populate[related]=true', '/api/authors?populate[articles]=true']) {
      const r = await t.get(url);
      expect(r.status, url).toBe(200);
      expect(r.text, url).toContain('"title":"Covered"');
      expectNothingPrivate(r);
    }
  });
});

describe("the media library's related entries", () => {
  it("show no private attribute and no user's secret", async () => {
    for (const url of [`/api/upload/files/${fileId}?populate=related`, '/api/upload/files?populate=related', '/api/upload/files?populate=*']) {
      const r = await t.get(url);
      expect(r.status, url).toBe(200);
      expect(r.text, url).toContain('"title":"Covered"');
      expectNothingPrivate(r);
    }
  });

  it('take no filters, sort, fields or populate of their own, and an `on` fragment no private field', async () => {
    for (const [url, found] of [
      ['/api/upload/files?populate[related][fields][0]=internalNotes', '{"fields":["internalNotes"]}'],
      ['/api/upload/files?populate[related][populate][editor][fields][0]=password', '{"populate":{"editor":{"fields":["password"]}}}'],
    ] as const) {
      const r = await t.get(url);
      const message = `Invalid nested populate for file.related (plugin::upload.file). Expected a fragment ("on") or "count" but found ${found}`;
      expect(r.body, url).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
      expectNothingPrivate(r);
    }
    await expectRefused('/api/upload/files?populate[related][on][api::article.article][fields][0]=internalNotes', 'populate', 'internalNotes');
    const filter = await t.get('/api/upload/files?filters[related][internalNotes][$eq]=x');
    expect(filter.body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid key related', details: { key: 'related', path: 'related', source: 'query', param: 'filters' } },
    });
    const sort = await t.get('/api/upload/files?sort=related.internalNotes');
    expect(sort.body).toEqual({
      data: null,
      error: { status: 400, name: 'ValidationError', message: 'Invalid key related', details: { key: 'related', path: 'related', source: 'query', param: 'sort' } },
    });
  });
});

describe('_q search', () => {
  it("never matches a user's secret columns", async () => {
    const names = async (q: string) => ((await t.get(`/api/users?_q=${encodeURIComponent(q)}`)).body as { username: string }[]).map((u) => u.username);
    // the search works: the public columns match
    expect(await names('editor')).toEqual(['editor']);
    for (const secret of ['$2', RESET_TOKEN, CONFIRMATION_TOKEN]) expect(await names(secret), secret).toEqual([]);
  });

  it('never matches a private attribute', async () => {
    const titles = async (q: string) => ((await t.get(`/api/articles?_q=${encodeURIComponent(q)}`)).body.data as { title: string }[]).map((a) => a.title);
    expect(await titles('Covered')).toEqual(['Covered']);
    expect(await titles(NOTES)).toEqual([]);
  });
});
