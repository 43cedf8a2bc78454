import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

async function countTags(): Promise<number> {
  return (await t.get('/api/tags?status=draft')).body.meta.pagination.total;
}

describe('bad input gets a clear error and changes nothing', () => {
  it('an unknown route is the 404 envelope', async () => {
    const r = await t.get('/api/nothing-here');
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
  });

  it("a route's name sent percent-encoded names no route, as Strapi 5.54's router reads it (a proxy rule on the plain path can't be passed that way)", async () => {
    const notFound = { data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } };
    for (const path of ['/api/%61rticles', '/api/%75sers', '/api/%75sers/me', '/api/articles/%61bc/x', '/%61pi/articles', '/api/upload/%66iles']) {
      const r = await t.get(path);
      expect(r.status, path).toBe(404);
      expect(r.body, path).toEqual(notFound);
    }
    // a parameter is still decoded: a documentId sent encoded names the same document
    const made = await t.request('POST', '/api/tags', { body: { data: { label: 'encoded-param' } } });
    const doc = made.body.data.documentId as string;
    const encoded = `%${doc.charCodeAt(0).toString(16)}${doc.slice(1)}`;
    const r = await t.get(`/api/tags/${encoded}`);
    expect(r.status, r.text).toBe(200);
    expect(r.body.data.documentId).toBe(doc);
    expect((await t.request('DELETE', `/api/tags/${doc}`)).status).toBe(204);
  });

  it("a GET or HEAD of a path naming a file outside the public folder is Strapi 5.54's 400 Malicious Path or 403, as its static serving answers", async () => {
    // sent as written: fetch would resolve `..` and `%2e%2e` before sending
    const raw = (method: string, path: string): Promise<[number, string]> =>
      new Promise((resolve, reject) => {
        const req = request(`${t.url}${path}`, { method, path }, (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve([res.statusCode ?? 0, body]));
        });
        req.on('error', reject);
        req.end();
      });
    const malicious = JSON.stringify({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Malicious Path' } });
    const forbidden = JSON.stringify({ data: null, error: { status: 403, name: 'ForbiddenError', message: 'Forbidden' } });
    const notFound = JSON.stringify({ data: null, error: { status: 404, name: 'NotFoundError', message: 'Not Found', details: {} } });
    for (const path of ['//api/articles', '///api/articles', '//api/articles?x=1', '/%2Fapi/articles', '/C:/x', '/c:%5cx', '/%5c%5cserver', '//uploads/a.png']) {
      expect(await raw('GET', path), path).toEqual([400, malicious]);
      expect(await raw('HEAD', path), path).toEqual([400, '']);
    }
    for (const path of ['/..', '/.%2e/x', '/..%5c..%5cx', '/a/..%2f..%2fb', '/a/%2e%2e%2f%2e%2e%2fb', '/uploads/..%5cx', '/.well-known/../..%2fx']) {
      expect(await raw('GET', path), path).toEqual([403, forbidden]);
    }
    // a `..` that stays inside, a drive letter without a slash, a path a route takes: as before
    for (const path of ['/a/..', '/uploads/%2e%2e', '/C:x', '/uploads/missing.png']) expect(await raw('GET', path), path).toEqual([404, notFound]);
    // a route's parameter is a parameter: the Public role may not find articles
    expect((await raw('GET', '/api/articles/..%2f..'))[0]).toBe(403);
    // other methods keep the router's answer
    expect((await raw('POST', '//api/articles'))[0]).toBe(405);
  });

  it('a known path with the wrong method is 405', async () => {
    const r = await t.request('PATCH', '/api/articles/abc', { body: { data: {} } });
    expect(r.status).toBe(405);
  });

  it("a request no route takes is answered as Strapi 5.54's router answers it, naming the path's methods in Allow", async () => {
    const send = async (method: string, path: string): Promise<[number, string | null, string]> => {
      const r = await fetch(`${t.url}${path}`, { method, headers: { authorization: `Bearer ${t.token}` } });
      return [r.status, r.headers.get('allow'), await r.text()];
    };
    // Strapi serves its public folder for GET at every path: any other method that no route takes is a 405
    expect(await send('POST', '/api/nothing')).toEqual([405, 'HEAD, GET', 'Method Not Allowed']);
    expect(await send('DELETE', '/api/nothing/1')).toEqual([405, 'HEAD, GET', 'Method Not Allowed']);
    expect(await send('POST', '/')).toEqual([405, 'HEAD, GET', 'Method Not Allowed']);
    expect(await send('PUT', '/api/articles')).toEqual([405, 'HEAD, GET, POST', 'Method Not Allowed']);
    expect(await send('DELETE', '/api/articles')).toEqual([405, 'HEAD, GET, POST', 'Method Not Allowed']);
    expect(await send('POST', '/api/articles/abc')).toEqual([405, 'HEAD, GET, PUT, DELETE', 'Method Not Allowed']);
    expect(await send('PUT', '/api/homepage/abc')).toEqual([405, 'HEAD, GET', 'Method Not Allowed']);
    expect(await send('POST', '/api/homepage')).toEqual([405, 'HEAD, GET, PUT, DELETE', 'Method Not Allowed']);
    expect(await send('PUT', '/API/Upload/')).toEqual([405, 'HEAD, GET, POST', 'Method Not Allowed']);
    expect(await send('POST', '/api/upload/files/1')).toEqual([405, 'HEAD, GET, DELETE', 'Method Not Allowed']);
    expect(await send('POST', '/api/users/me')).toEqual([405, 'HEAD, GET, PUT, DELETE', 'Method Not Allowed']);
    // OPTIONS (not a preflight) is a 200 naming them; a method the router doesn't know is a 501
    expect(await send('OPTIONS', '/api/articles')).toEqual([200, 'HEAD, GET, POST', '']);
    expect(await send('OPTIONS', '/api/nothing')).toEqual([200, 'HEAD, GET', '']);
    expect(await send('PROPFIND', '/api/articles/abc')).toEqual([501, 'HEAD, GET, PUT, DELETE', 'Not Implemented']);
    // GET and HEAD stay the 404
    expect((await send('GET', '/api/articles/abc/def'))[0]).toBe(404);
    expect((await send('HEAD', '/api/nothing'))[0]).toBe(404);
  });

  it('malformed JSON is a 400 SyntaxError without details', async () => {
    const r = await t.request('POST', '/api/tags', { raw: '{bad', headers: { 'content-type': 'application/json' } });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeNull();
    expect(r.body.error.name).toBe('SyntaxError');
    expect(r.body.error.status).toBe(400);
    expect(r.body.error).not.toHaveProperty('details');
  });

  it("a byte-order mark before the JSON is skipped, as Strapi's body parser skips it", async () => {
    const r = await t.request('POST', '/api/tags', { raw: '\uFEFF{"data":{"label":"bom"}}', headers: { 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(201);
    expect(r.body.data.label).toBe('bom');
    await t.request('DELETE', `/api/tags/${r.body.data.documentId as string}`);
  });

  it('JSON that is not an object or array is a 400 SyntaxError', async () => {
    const r = await t.request('POST', '/api/tags', { raw: '"str"', headers: { 'content-type': 'application/json' } });
    expect(r.body.error).toEqual({ status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' });
    // as Strapi's parser: a body that can't open an object or an array is that error before any parsing
    for (const raw of ['abc', 'not json', '<xml/>', 'null']) {
      const bad = await t.request('POST', '/api/tags', { raw, headers: { 'content-type': 'application/json' } });
      expect(bad.body.error, raw).toEqual({ status: 400, name: 'SyntaxError', message: 'invalid JSON, only supports object and array' });
    }
  });

  it('a body without a data object is a 400', async () => {
    const expected = { data: null, error: { status: 400, name: 'ValidationError', message: 'Missing "data" payload in the request body', details: {} } };
    for (const body of [{}, { data: 'x' }, { data: null }, { data: 5 }, [1], { label: 'x' }]) {
      const r = await t.request('POST', '/api/tags', { body });
      expect(r.status).toBe(400);
      expect(r.body).toEqual(expected);
    }
    const empty = await t.request('POST', '/api/tags', { raw: '', headers: { 'content-type': 'text/plain' } });
    expect(empty.body).toEqual(expected);
  });

  it('unknown and system keys in data are 400 Invalid key', async () => {
    const cases: [Record<string, unknown>, string, Record<string, unknown>][] = [
      [{ label: 'a', foo: 1 }, 'Invalid key foo', { key: 'foo', path: null, source: 'body' }],
      [{ label: 'a', id: 3 }, 'Invalid key id', { key: 'id', source: 'body' }],
      [{ label: 'a', documentId: 'x' }, 'Invalid key documentId', { key: 'documentId', source: 'body' }],
      [{ label: 'a', createdAt: '2020-01-01' }, 'Invalid key createdAt', { key: 'createdAt', path: 'createdAt', source: 'body' }],
    ];
    for (const [data, message, details] of cases) {
      const r = await t.request('POST', '/api/tags', { body: { data } });
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message, details });
    }
    expect(await countTags()).toBe(0);
  });

  it('a JSON body over the limit is 413', async () => {
    const big = 'x'.repeat(1024 * 1024 + 10);
    const r = await t.request('POST', '/api/tags', { body: { data: { label: big } } });
    expect(r.status).toBe(413);
    expect(r.body.error).toEqual({ status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' });
  });

  it('more relation or file references than one request may name are 400, not a database error', async () => {
    const before = (await t.get('/api/articles?status=draft')).body.meta.pagination.total;
    const ids = Array.from({ length: 10_001 }, (_, i) => i + 1);
    const cases: [Record<string, unknown>, string][] = [
      [{ tags: ids }, 'Too many relations in tags: at most 10000 in one request, got 10001'],
      [{ tags: { connect: ids } }, 'Too many relations in tags: at most 10000 in one request, got 10001'],
      [{ tags: { disconnect: ids } }, 'Too many relations in tags: at most 10000 in one request, got 10001'],
      [{ gallery: ids }, 'Too many files in gallery: at most 10000 in one request, got 10001'],
    ];
    for (const [data, message] of cases) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: 'many', ...data } } });
      expect(r.status, message).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message, details: {} });
    }
    // the limit itself still reaches the database, and unknown targets are a clear 400 there too
    const atLimit = await t.request('POST', '/api/articles', { body: { data: { title: 'many', tags: ids.slice(0, 10_000).map((i) => i + 1_000_000) } } });
    expect(atLimit.status).toBe(400);
    expect(atLimit.body.error.name).toBe('ValidationError');
    expect((await t.get('/api/articles?status=draft')).body.meta.pagination.total).toBe(before);
  });

  it('validation failures are 400 with details.errors and nothing is written', async () => {
    const cases: [string, Record<string, unknown>, { path: string[]; message: string }][] = [
      ['authors', { email: 'a@b.test' }, { path: ['name'], message: 'name must be defined.' }],
      ['tags', { label: 'x', color: 'red' }, { path: ['color'], message: 'color must match the following: "/^#[0-9a-fA-F]{6}$/"' }],
      ['articles', { title: 'x', views: -1 }, { path: ['views'], message: 'views must be greater than or equal to 0' }],
      ['articles', { title: 'x'.repeat(201) }, { path: ['title'], message: 'title must be at most 200 characters' }],
      ['articles', { title: 'x', kind: 'rant' }, { path: ['kind'], message: 'kind must be one of the following values: news, tutorial, opinion, ' }],
      ['articles', { title: 'x', contactEmail: 'nope' }, { path: ['contactEmail'], message: 'contactEmail must be a valid email' }],
      ['articles', { title: 'x', slug: 'has space' }, { path: ['slug'], message: 'slug must match the following: "/^[A-Za-z0-9-_.~]*$/"' }],
      ['articles', { title: 'x', views: 1.5 }, { path: ['views'], message: 'views must be an integer' }],
      // what every dialect's column holds (PostgreSQL and MySQL refuse more; SQLite would keep it)
      ['articles', { title: 'x', views: 2147483648 }, { path: ['views'], message: 'views must be less than or equal to 2147483647' }],
      ['articles', { title: 'x', views: -2147483649 }, { path: ['views'], message: 'views must be greater than or equal to -2147483648' }],
      ['articles', { title: 'x', wordCount: '9223372036854775808' }, { path: ['wordCount'], message: 'wordCount must be less than or equal to 9223372036854775807' }],
      ['articles', { title: 'x', wordCount: '-9223372036854775809' }, { path: ['wordCount'], message: 'wordCount must be greater than or equal to -9223372036854775808' }],
      ['articles', { title: 'x', rating: 100000000 }, { path: ['rating'], message: 'rating must be less than or equal to 99999999.99' }],
      ['articles', { title: 'a\u0000b' }, { path: ['title'], message: 'title must not contain the character U+0000' }],
      ['articles', { title: 'x', slug: 'x'.repeat(256) }, { path: ['slug'], message: 'slug must be at most 255 characters' }],
      ['articles', { title: 'x', contactEmail: `${'a'.repeat(250)}@b.test` }, { path: ['contactEmail'], message: 'contactEmail must be at most 255 characters' }],
    ];
    for (const [plural, data, err] of cases) {
      const r = await t.request('POST', `/api/${plural}`, { body: { data } });
      expect(r.status, JSON.stringify(data)).toBe(400);
      expect(r.body.error.name).toBe('ValidationError');
      expect(r.body.error.message).toBe(err.message);
      expect(r.body.error.details.errors[0]).toMatchObject({ path: err.path, message: err.message, name: 'ValidationError' });
    }
    expect((await t.get('/api/articles?status=draft')).body.meta.pagination.total).toBe(0);
    expect((await t.get('/api/authors')).body.meta.pagination.total).toBe(0);
  });

  it("a unique attribute can't be published twice", async () => {
    expect((await t.request('POST', '/api/authors', { body: { data: { name: 'Same' } } })).status).toBe(201);
    const r = await t.request('POST', '/api/authors', { body: { data: { name: 'Same' } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('This attribute must be unique');
    expect(r.body.error.details.errors).toEqual([{ path: ['name'], message: 'This attribute must be unique', name: 'ValidationError', value: 'Same' }]);
    expect((await t.get('/api/authors')).body.meta.pagination.total).toBe(1);
  });

  it("a uniqueness error takes its attribute's place among the other errors, as Strapi 5.54 lists them (schema order)", async () => {
    expect((await t.request('POST', '/api/tags', { body: { data: { label: 'dup-label' } } })).status).toBe(201);
    const r = await t.request('POST', '/api/tags', { body: { data: { label: 'dup-label', color: 'red' } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('2 errors occurred');
    expect(r.body.error.details.errors).toEqual([
      { path: ['label'], message: 'This attribute must be unique', name: 'ValidationError', value: 'dup-label' },
      { path: ['color'], message: 'color must match the following: "/^#[0-9a-fA-F]{6}$/"', name: 'ValidationError', value: 'red' },
    ]);
  });

  it("bad date, time and datetime values are 400 with Strapi's messages", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ title: 'x', publishDate: '2025-13-45' }, 'Invalid format, expected yyyy-MM-dd'],
      [{ title: 'x', publishTime: '25:99' }, 'Invalid time format, expected HH:mm:ss.SSS'],
      [{ title: 'x', eventAt: 'yesterday' }, 'Invalid format, expected a timestamp or an ISO date'],
    ];
    for (const [data, message] of cases) {
      const r = await t.request('POST', '/api/articles', { body: { data } });
      expect(r.status).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message, details: {} });
    }
  });
  it('the largest values each column holds are stored and read back on every dialect', async () => {
    const data = { title: 'edges', views: 2147483647, wordCount: '9223372036854775807', rating: 99999999.99 };
    const r = await t.request('POST', '/api/articles', { body: { data } });
    expect(r.status).toBe(201);
    expect((await t.get(`/api/articles/${r.body.data.documentId}`)).body.data).toMatchObject(data);
    const low = { title: 'edges low', views: 0, wordCount: '-9223372036854775808', rating: -99999999.99 };
    const l = await t.request('POST', '/api/articles', { body: { data: low } });
    expect(l.status).toBe(201);
    expect((await t.get(`/api/articles/${l.body.data.documentId}`)).body.data).toMatchObject(low);
  });

  it('U+0000 anywhere in a URL is a 400 before any route runs', async () => {
    for (const path of ['/api/articles/%00', '/api/articles?filters[title][$eq]=a%00b', '/api/articles?locale=%00', '/api/upload/files?filters[name][$eq]=%00']) {
      const r = await t.get(path);
      expect(r.status, path).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Invalid URL: U+0000 (%00) is not allowed', details: {} });
    }
  });

  it("filter values a column can't hold are a 400 naming the field, on every dialect", async () => {
    const cases: [string, string][] = [
      ['filters[views][$gt]=99999999999999999999999', 'Invalid value "99999999999999999999999" for views: expected an integer from -2147483648 to 2147483647'],
      ['filters[id][$eq]=99999999999', 'Invalid value "99999999999" for id: expected an integer from -2147483648 to 2147483647'],
      [
        'filters[wordCount][$gt]=99999999999999999999999',
        'Invalid value "99999999999999999999999" for wordCount: expected an integer from -9223372036854775808 to 9223372036854775807',
      ],
    ];
    for (const [q, message] of cases) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message, details: { source: 'query', param: 'filters' } });
    }
    // dates are read as a written value is, with Strapi's messages and details {}
    const dates: [string, string][] = [
      ['filters[publishDate][$eq]=2024-02-30', 'Invalid date'],
      ['filters[publishDate][$eq]=0000-01-01', 'Invalid date'],
      ['filters[eventAt][$gt]=-8640000000000000', 'Invalid format, expected a timestamp or an ISO date between the years 1 and 9999'],
    ];
    for (const [q, message] of dates) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.body, q).toEqual({ data: null, error: { status: 400, name: 'ValidationError', message, details: {} } });
    }
    // the edges themselves are accepted
    for (const q of [
      'filters[views][$lte]=2147483647',
      'filters[wordCount][$lte]=9223372036854775807',
      'filters[publishDate][$gte]=0001-01-01',
      'filters[publishTime][$lte]=23:59:59.999',
    ]) {
      expect((await t.get(`/api/articles?${q}`)).status, q).toBe(200);
    }
  });

  it('relation references no row can match are a 400, and dates outside years 1–9999 are refused on write', async () => {
    const before = (await t.get('/api/articles?status=draft')).body.meta.pagination.total;
    const cases: [Record<string, unknown>, string][] = [
      [{ tags: [99999999999] }, 'Invalid relation value in tags: expected a documentId, a row id, {documentId} or {id} but got 99999999999'],
      [{ tags: ['a\u0000b'] }, 'Invalid relation value in tags: expected a documentId, a row id, {documentId} or {id} but got "a\\u0000b"'],
      [
        { tags: { connect: [{ documentId: 'anytag', position: { before: 'a\u0000b' } }] } },
        'Invalid position in tags: expected exactly one of {before: documentId}, {after: documentId}, {start: true}, {end: true} but got {"before":"a\\u0000b"}',
      ],
      [{ cover: 'a\u0000b' }, 'Invalid media value in cover: expected a file id, a file documentId, {id} or {documentId} but got "a\\u0000b"'],
      [{ publishDate: '0000-01-01' }, 'Invalid date'],
      [{ eventAt: -8640000000000000 }, 'Invalid format, expected a timestamp or an ISO date between the years 1 and 9999'],
      [{ eventAt: '10000-01-01T00:00:00Z' }, 'Invalid format, expected a timestamp or an ISO date'],
    ];
    for (const [data, message] of cases) {
      const r = await t.request('POST', '/api/articles', { body: { data: { title: 'refs', ...data } } });
      expect(r.status, JSON.stringify(data)).toBe(400);
      expect(r.body.error.message).toBe(message);
    }
    expect((await t.get('/api/articles?status=draft')).body.meta.pagination.total).toBe(before);
  });

  it('pagination numbers beyond the safe integer range are a 400, not a database error', async () => {
    for (const [q, key, v] of [
      ['pagination[start]=99999999999999999999', 'start', '99999999999999999999'],
      ['pagination[page]=99999999999999999999', 'page', '99999999999999999999'],
    ]) {
      const r = await t.get(`/api/articles?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.error.message).toBe(`Invalid value "${v}" for pagination[${key}]: expected an integer between -9007199254740991 and 9007199254740991`);
    }
    // a page within that range whose first row is not is named as such
    for (const [page, size] of [
      ['9007199254740991', 100],
      ['4503599627370497', 25],
    ] as const) {
      const r = await t.get(`/api/articles?pagination[page]=${page}&pagination[pageSize]=${size}`);
      expect(r.status, page).toBe(400);
      expect(r.body.error.message).toBe(`Invalid value "${page}" for pagination[page]: with pageSize ${size}, its first row would be past row 9007199254740991`);
    }
  });

  it('a repeatable component or dynamic zone holds at most 10000 items per request, and 10000 are stored whole', async () => {
    const over = Array.from({ length: 10_001 }, () => ({ __component: 'shared.rich-text', body: 'b' }));
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'long zone', blocks: over } } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('blocks field must have less than or equal to 10000 items');
    expect(r.body.error.details.errors).toEqual([{ path: ['blocks'], message: 'blocks field must have less than or equal to 10000 items', name: 'ValidationError' }]);
    const full = await t.request('POST', '/api/articles', { body: { data: { title: 'long zone', blocks: over.slice(1) } } });
    expect(full.status).toBe(201);
    const back = await t.get(`/api/articles/${full.body.data.documentId}?populate=blocks`);
    expect(back.body.data.blocks).toHaveLength(10_000);
    expect(back.body.data.blocks[9_999]).toMatchObject({ __component: 'shared.rich-text', body: 'b' });
  });
});
