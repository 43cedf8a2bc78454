// Error bodies as the reference Strapi 5.54 gives them where both refuse a write: a data list
// (yup's type error, after its objects' keys are checked), and relation or file ids that name no
// row (Strapi's message with the data it was about to store, strapi-echo.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;

beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

it("a data list is yup's type error, printed as Strapi's sanitizer leaves it, after its objects' keys are checked", async () => {
  const typeError = (printed: string) => {
    const message = `this must be a \`object\` type, but the final value was: \`null\` (cast from the value \`${printed}\`).`;
    return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [], message, name: 'ValidationError', value: null }] } } };
  };
  expect((await t.request('POST', '/api/tags', { body: { data: [] } })).body).toEqual(typeError('[]'));
  expect((await t.request('POST', '/api/tags', { body: { data: [{ label: 'x' }, [1, 2], 'ab'] } })).body).toEqual(
    typeError('[\n  {\n    "label": "\\"x\\""\n  },\n  [\n    {},\n    {}\n  ],\n  {\n    "0": "\\"a\\"",\n    "1": "\\"b\\""\n  }\n]'),
  );
  expect((await t.request('PUT', '/api/homepage', { body: { data: [1] } })).body).toEqual(typeError('[\n  {}\n]'));
  expect((await t.request('POST', '/api/tags', { body: { data: [{ foo: 1 }] } })).body.error).toEqual({
    status: 400,
    name: 'ValidationError',
    message: 'Invalid key foo',
    details: { key: 'foo', path: null, source: 'body' },
  });
});

it("relation and file ids that name no row: Strapi's error, echoing the data it was about to store", async () => {
  const tag = (await t.request('POST', '/api/tags', { body: { data: { label: 'echoed' } } })).body.data.documentId;
  const r = await t.request('POST', '/api/articles', { body: { data: { title: 't', tags: [tag, 99999], cover: null } } });
  const message = '1 relation(s) of type api::tag.tag associated with this entity do not exist';
  // Strapi names the known tag by its row id; Folio keeps the documentId (README)
  const value = {
    title: 't',
    tags: { set: [{ documentId: tag }, { id: 99999 }] },
    cover: null,
    kind: 'news',
    isFeatured: false,
    views: 0,
    blocks: [],
    publishedAt: null,
    locale: 'en',
  };
  expect(r.body).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [], message, name: 'ValidationError', value }] } } });
  const a = await t.request('POST', '/api/authors', { body: { data: { name: 'n', avatar: 99999 } } });
  const fileMessage = '1 relation(s) of type plugin::upload.file associated with this entity do not exist';
  expect(a.body.error).toEqual({
    status: 400,
    name: 'ValidationError',
    message: fileMessage,
    // a type without draft & publish is published at once: publishedAt is the time of the write
    details: {
      errors: [{ path: [], message: fileMessage, name: 'ValidationError', value: { name: 'n', avatar: { set: [{ id: 99999 }] }, links: [], publishedAt: expect.any(String) } }],
    },
  });
  const art = (await t.request('POST', '/api/articles', { body: { data: { title: 'u' } } })).body.data.documentId;
  const u = await t.request('PUT', `/api/articles/${art}`, { body: { data: { tags: { connect: [{ id: 99999 }] }, seo: { metaTitle: 'm' } } } });
  expect(u.body.error.details).toEqual({
    errors: [{ path: [], message, name: 'ValidationError', value: { tags: { connect: [{ id: 99999 }] }, seo: { metaTitle: 'm' }, publishedAt: null, locale: 'en' } }],
  });
  // a file named by a documentId that doesn't exist is looked up first, as in Strapi
  for (const cover of ['nofile', { documentId: 'nofile' }]) {
    expect((await t.request('PUT', `/api/articles/${art}`, { body: { data: { cover, gallery: [99999] } } })).body.error).toEqual({
      status: 400,
      name: 'ValidationError',
      message: 'Document with id "nofile", locale "null" not found',
      details: {},
    });
  }
});

it("null on a required field is yup's type error on null, as Strapi 5.54 answers, on a type without draft & publish too", async () => {
  const author = (await t.request('POST', '/api/authors', { body: { data: { name: 'Named' } } })).body.data.documentId;
  const typeError = (field: string, path: string[]) => {
    const message = `${field} must be a \`string\` type, but the final value was: \`null\`.`;
    return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path, message, name: 'ValidationError', value: null }] } } };
  };
  expect((await t.request('PUT', `/api/authors/${author}`, { body: { data: { name: null } } })).body).toEqual(typeError('name', ['name']));
  expect((await t.request('POST', '/api/authors', { body: { data: { name: null } } })).body).toEqual(typeError('name', ['name']));
  expect((await t.request('PUT', `/api/authors/${author}`, { body: { data: { links: [{ label: 'x', url: null }] } } })).body).toEqual(
    typeError('links[0].url', ['links', '0', 'url']),
  );
  expect((await t.request('POST', '/api/articles', { body: { data: { title: null } } })).body).toEqual(typeError('title', ['title']));
});

it('a create of a type without draft & publish reports every field at once, as Strapi 5.54 does: a type error beside a required field left out', async () => {
  const errorsOf = async (plural: string, data: Record<string, unknown>, query = '') => {
    const r = await t.request('POST', `/api/${plural}${query}`, { body: { data } });
    expect(r.status, r.text).toBe(400);
    return { message: r.body.error.message as string, errors: (r.body.error.details.errors as { path: string[]; message: string }[]).map((e) => [e.path.join('.'), e.message]) };
  };
  // authors: name required, email an email; the type errors used to hide the other two
  expect(await errorsOf('authors', { email: 'hello world', bio: 'x', age: { a: 1 }, links: '1e3' })).toEqual({
    message: '4 errors occurred',
    errors: [
      ['name', 'name must be defined.'],
      ['email', 'email must be a valid email'],
      ['age', 'age must be a `number` type, but the final value was: `NaN` (cast from the value `{\n  "a": "1"\n}`).'],
      ['links', 'links must be a `array` type, but the final value was: `"1e3"`.'],
    ],
  });
  // a too long value beside a required field left out; ?status=draft changes nothing on such a type
  expect(await errorsOf('profiles', { website: 'w'.repeat(300) }, '?status=draft')).toEqual({
    message: '2 errors occurred',
    errors: [
      ['handle', 'handle must be defined.'],
      ['website', 'website must be at most 255 characters'],
    ],
  });
  // inside a list of components: a link's type errors beside another field of it left out, and another link's missing
  // url; an item that is no object first (the reference Strapi 5.54's answer to this body)
  expect(await errorsOf('authors', { name: 'listed', links: [{ label: 5 }, 'x', { label: 'l' }, { label: 'm', url: 'u' }] })).toEqual({
    message: '4 errors occurred',
    errors: [
      ['links.1', 'links[1] must be a `object` type, but the final value was: `null` (cast from the value `"x"`).'],
      ['links.0.label', 'links[0].label must be a `string` type, but the final value was: `5`.'],
      ['links.0.url', 'links[0].url must be defined.'],
      ['links.2.url', 'links[2].url must be defined.'],
    ],
  });
  // a type with draft & publish is checked as a draft first: its required title is not reported beside the type error
  expect(await errorsOf('articles', { views: 'abc' })).toEqual({
    message: 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).',
    errors: [['views', 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).']],
  });
});

it('an update of a type without draft & publish reports every field it sends at once, as Strapi 5.54 does: a type error beside a format or a null', async () => {
  const author = (await t.request('POST', '/api/authors', { body: { data: { name: 'one pass' } } })).body.data.documentId;
  const category = (await t.request('POST', '/api/categories', { body: { data: { name: 'one pass' } } })).body.data.documentId;
  const errorsOf = async (path: string, data: Record<string, unknown>) => {
    const r = await t.request('PUT', path, { body: { data } });
    expect(r.status, r.text).toBe(400);
    return { message: r.body.error.message as string, errors: (r.body.error.details.errors as { path: string[]; message: string }[]).map((e) => [e.path.join('.'), e.message]) };
  };
  // the reference Strapi 5.54's answers to these bodies; the format and null errors used to be hidden by the type error
  expect(await errorsOf(`/api/categories/${category}`, { name: 123, slug: 'é' })).toEqual({
    message: '2 errors occurred',
    errors: [
      ['name', 'name must be a `string` type, but the final value was: `123`.'],
      ['slug', 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
    ],
  });
  expect(await errorsOf(`/api/categories/${category}`, { slug: 'é', position: 'abc' })).toEqual({
    message: '2 errors occurred',
    errors: [
      ['slug', 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"'],
      ['position', 'position must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).'],
    ],
  });
  expect(await errorsOf(`/api/authors/${author}`, { email: 'hello world', age: { a: 1 }, name: null })).toEqual({
    message: '3 errors occurred',
    errors: [
      ['name', 'name must be a `string` type, but the final value was: `null`.'],
      ['email', 'email must be a valid email'],
      ['age', 'age must be a `number` type, but the final value was: `NaN` (cast from the value `{\n  "a": "1"\n}`).'],
    ],
  });
  // the fields an update leaves out keep their stored values: the required name is not reported
  expect(await errorsOf(`/api/authors/${author}`, { email: 'x', age: 'y' })).toEqual({
    message: '2 errors occurred',
    errors: [
      ['email', 'email must be a valid email'],
      ['age', 'age must be a `number` type, but the final value was: `NaN` (cast from the value `"y"`).'],
    ],
  });
});

it("field errors come in the schema's order whatever the body's, as yup sorts them for Strapi 5.54", async () => {
  const r = await t.request('POST', '/api/articles?status=draft', { body: { data: { blocks: { a: 1 }, seo: { metaDescription: 5, metaTitle: 5 }, views: 'x', title: 7 } } });
  expect(r.status, r.text).toBe(400);
  expect((r.body.error.details.errors as { path: string[] }[]).map((e) => e.path.join('.'))).toEqual(['title', 'views', 'seo.metaTitle', 'seo.metaDescription', 'blocks', '']);
});

it('a documentId naming no document is refused before any value error, as Strapi resolves documentIds first', async () => {
  const notFound = (doc: string, locale: string) => ({ status: 400, name: 'ValidationError', message: `Document with id "${doc}", locale "${locale}" not found`, details: {} });
  const post = async (path: string, data: Record<string, unknown>) => (await t.request('POST', path, { body: { data } })).body.error;
  // each body also has a value error; the reference Strapi 5.54 answered every one with the document first
  expect(await post('/api/articles', { title: 'x', views: 'abc', author: 'nope' })).toEqual(notFound('nope', 'null'));
  expect(await post('/api/articles', { title: 'x', views: 'abc', author: { connect: [{ documentId: 'nope', locale: 'fr' }] } })).toEqual(notFound('nope', 'null'));
  expect(await post('/api/articles', { title: 'x', views: 'abc', author: { disconnect: ['gone'] } })).toEqual(notFound('gone', 'null'));
  // a localized target: the written locale from a localized type, the one named (or the default) from another
  expect(await post('/api/articles?locale=fr', { title: 'x', views: 'abc', categories: ['zz'] })).toEqual(notFound('zz', 'fr'));
  expect(await post('/api/authors', { name: 'a', age: 'x', articles: [{ documentId: 'nope', locale: 'fr' }] })).toEqual(notFound('nope', 'fr'));
  expect(await post('/api/authors', { name: 'a', age: 'x', articles: ['nope'] })).toEqual(notFound('nope', 'en'));
  // files, in components and zones too; the first in the body's order
  expect(await post('/api/articles', { title: 'x', seo: { metaTitle: 5, shareImage: 'nofile' } })).toEqual(notFound('nofile', 'null'));
  expect(await post('/api/authors', { name: 'a', age: 'x', avatar: 'nofile', articles: ['nope'] })).toEqual(notFound('nofile', 'null'));
  expect(await post('/api/authors', { name: 'a', age: 'x', articles: ['nope'], avatar: 'nofile' })).toEqual(notFound('nope', 'en'));
  expect(
    await post('/api/articles', {
      title: 'x',
      blocks: [
        { __component: 'shared.media', file: 'nofile' },
        { __component: 'shared.quote', body: 5 },
      ],
    }),
  ).toEqual(notFound('nofile', 'null'));
  // a value error the writer finds (an email format checked with the publish rules) comes after it too
  expect(await post('/api/articles', { title: 'x', contactEmail: 'bad', categories: { connect: ['zz'] } })).toEqual(notFound('zz', 'en'));
  // an unknown key still comes first, and documents that exist leave the value error in place
  expect(await post('/api/articles', { title: 'x', nope: 1, author: 'nope' })).toMatchObject({ message: 'Invalid key nope' });
  const author = (await t.request('POST', '/api/authors', { body: { data: { name: 'real' } } })).body.data.documentId as string;
  expect(await post('/api/articles', { title: 'x', views: 'abc', author })).toMatchObject({ details: { errors: [{ path: ['views'] }] } });
  const tag = (await t.request('POST', '/api/tags', { body: { data: { label: 'kept' } } })).body.data.documentId as string;
  const update = await t.request('PUT', `/api/tags/${tag}`, { body: { data: { label: 5, articles: ['nope'] } } });
  expect(update.body.error).toEqual(notFound('nope', 'en'));
});

it('the documents lookup before value errors takes any body: bodies of the wrong shape, malformed values, thousands of ids', async () => {
  const post = async (data: Record<string, unknown>) => (await t.request('POST', '/api/articles', { body: { data } })).body.error;
  // a list for a single component is looked into, as the reference Strapi 5.54 does
  expect(await post({ title: 'x', seo: [{ metaTitle: 'm', shareImage: 'nofile' }] })).toMatchObject({ message: 'Document with id "nofile", locale "null" not found' });
  // what can't be read in a list given for a single component is not this lookup's to report: the field error stays
  const wrongShape = await post({ title: 'x', seo: [{ metaTitle: 'm', shareImage: true }] });
  expect(wrongShape.details.errors[0]).toMatchObject({ path: ['seo'], message: expect.stringMatching(/^seo must be a `object` type/) });
  // more ids than one statement may bind on SQLite are looked up in parts
  const tags = Array.from({ length: 2500 }, (_, i) => `missing${String(i).padStart(17, '0')}`);
  expect(await post({ title: 'x', views: 'abc', tags })).toMatchObject({ message: `Document with id "${tags[0]}", locale "null" not found` });
});

it("a value error beside a row id naming no row: both, as Strapi 5.54's one pass lists them, the missing rows last", async () => {
  const errorsOf = async (method: string, path: string, data: Record<string, unknown>) => {
    const r = await t.request(method, path, { body: { data } });
    expect(r.status, r.text).toBe(400);
    return r.body.error as { message: string; details: { errors: { path: string[]; message: string; value?: unknown }[] } };
  };
  const viewsError = 'views must be a `number` type, but the final value was: `NaN` (cast from the value `"abc"`).';
  const missing = (uid: string) => `1 relation(s) of type ${uid} associated with this entity do not exist`;
  // the first target in schema order (cover before tags) whatever the body's order; the echo shows views as yup cast it
  const both = await errorsOf('POST', '/api/articles', { title: 't', views: 'abc', tags: [99999], cover: 99998 });
  expect(both).toEqual({
    status: 400,
    name: 'ValidationError',
    message: '2 errors occurred',
    details: {
      errors: [
        { path: ['views'], message: viewsError, name: 'ValidationError', value: null },
        {
          path: [],
          message: missing('plugin::upload.file'),
          name: 'ValidationError',
          value: {
            title: 't',
            views: null,
            tags: { set: [{ id: 99999 }] },
            cover: { set: [{ id: 99998 }] },
            kind: 'news',
            isFeatured: false,
            blocks: [],
            publishedAt: null,
            locale: 'en',
          },
        },
      ],
    },
  });
  // a zone entry's relation comes at the zone's place (after tags), its value in long form in the echo
  const zone = await errorsOf('POST', '/api/articles', { title: 't', views: 'abc', blocks: [{ __component: 'shared.quote', person: 99999 }], tags: [99999] });
  expect(zone.details.errors.map((e) => e.message)).toEqual([viewsError, missing('api::tag.tag')]);
  expect(zone.details.errors[1]!.value).toMatchObject({ blocks: [{ __component: 'shared.quote', person: { set: [{ id: 99999 }] } }] });
  // a draft's maximum inside a component, on an update
  const art = (await t.request('POST', '/api/articles', { body: { data: { title: 'kept' } } })).body.data.documentId as string;
  const seo = await errorsOf('PUT', `/api/articles/${art}`, { seo: { metaTitle: 'x'.repeat(71), shareImage: 99999 } });
  expect(seo.details.errors).toEqual([
    { path: ['seo', 'metaTitle'], message: 'seo.metaTitle must be at most 70 characters', name: 'ValidationError', value: 'x'.repeat(71) },
    {
      path: [],
      message: missing('plugin::upload.file'),
      name: 'ValidationError',
      value: { seo: { metaTitle: 'x'.repeat(71), shareImage: { set: [{ id: 99999 }] } }, publishedAt: null, locale: 'en' },
    },
  ]);
  // a rule only publishing checks comes after the draft is stored: the missing row alone
  const publishOnly = await errorsOf('POST', '/api/articles', { title: 't', views: -1, contactEmail: 'bad', cover: 99999 });
  expect(publishOnly.message).toBe(missing('plugin::upload.file'));
  expect(publishOnly.details.errors).toHaveLength(1);
  // without draft & publish every rule is in that pass: required, types, formats
  const author = await errorsOf('POST', '/api/authors', { age: 'x', profile: 99999, avatar: 99998 });
  expect(author.message).toBe('3 errors occurred');
  expect(author.details.errors.map((e) => [e.path.join('.'), e.message])).toEqual([
    ['name', 'name must be defined.'],
    ['age', 'age must be a `number` type, but the final value was: `NaN` (cast from the value `"x"`).'],
    ['', missing('plugin::upload.file')],
  ]);
  const named = (await t.request('POST', '/api/authors', { body: { data: { name: 'has-mail' } } })).body.data.documentId as string;
  const mail = await errorsOf('PUT', `/api/authors/${named}`, { email: 'bad', avatar: 99999 });
  expect(mail.details.errors).toEqual([
    { path: ['email'], message: 'email must be a valid email', name: 'ValidationError', value: 'bad' },
    { path: [], message: missing('plugin::upload.file'), name: 'ValidationError', value: { email: 'bad', avatar: { set: [{ id: 99999 }] }, publishedAt: expect.any(String) } },
  ]);
  // a zone entry Strapi can't place is its own root error: no second one for the missing tag
  const unplaced = await errorsOf('POST', '/api/articles', { title: 't', blocks: [{ __component: 'shared.nope' }], tags: [99999] });
  expect(unplaced.details.errors.map((e) => e.message)).toEqual([expect.stringMatching(/^blocks\[0\]\.__component must be one of/), 'Invalid relations']);
  // row ids that all exist leave the value error alone
  const file = await errorsOf('POST', '/api/articles', { title: 't', views: 'abc', tags: [] });
  expect(file.details.errors.map((e) => e.message)).toEqual([viewsError]);
});

it('row ids of two relations naming no row, values all right: the first target in schema order is reported, whatever the body order', async () => {
  const messageOf = async (data: Record<string, unknown>) => {
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 't', ...data } } });
    expect(r.status, r.text).toBe(400);
    return r.body.error.message as string;
  };
  const author = '1 relation(s) of type api::author.author associated with this entity do not exist';
  expect(await messageOf({ tags: [99999], author: 99998 })).toBe(author);
  expect(await messageOf({ author: 99998, tags: [99999] })).toBe(author);
  expect(await messageOf({ tags: [99999], cover: 99998 })).toBe('1 relation(s) of type plugin::upload.file associated with this entity do not exist');
});

it("the echoed data shows references as Strapi 5.54 stores them: a to-one relation's last, a file's digits as its id", async () => {
  const echo = async (data: Record<string, unknown>) => (await t.request('POST', '/api/articles', { body: { data: { title: 't', ...data } } })).body.error.details.errors[0].value;
  expect((await echo({ author: [99999, 99998] })).author).toEqual({ set: [{ id: 99998 }] });
  expect((await echo({ cover: '99999' })).cover).toEqual({ set: [{ id: '99999' }] });
  expect((await echo({ blocks: [{ __component: 'shared.slider', files: [99999] }] })).blocks).toEqual([{ __component: 'shared.slider', files: { set: [{ id: 99999 }] } }]);
});

it("an update of a document that doesn't exist is 404 before any value is checked, after its keys and the documents it names (as Strapi 5.54)", async () => {
  const put = async (data: Record<string, unknown>, query = '') => (await t.request('PUT', `/api/articles/gone${query}`, { body: { data } })).body.error;
  const notFound = { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} };
  expect(await put({ views: 'abc', tags: [99999] })).toEqual(notFound);
  expect(await put({ publishDate: 'bad' })).toEqual(notFound);
  expect(await put({ blocks: [{ __component: 'shared.nope' }] })).toEqual(notFound);
  expect(await put({ views: 'abc' }, '?locale=fr')).toEqual(notFound);
  expect(await put({ nope: 1, views: 'abc' })).toMatchObject({ status: 400, message: 'Invalid key nope' });
  expect(await put({ views: 'abc', author: 'nope' })).toMatchObject({ status: 400, message: 'Document with id "nope", locale "null" not found' });
  // a document that exists in another locale only is still written to (a new locale version), so its values are checked
  const doc = (await t.request('POST', '/api/articles', { body: { data: { title: 'en only' } } })).body.data.documentId as string;
  const fr = await t.request('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { title: 5 } } });
  expect(fr.body.error).toMatchObject({ status: 400, details: { errors: [{ path: ['title'] }] } });
});
