// Every name a client gives (filter keys and operators, sort, fields, populate, pagination keys,
// write-body keys, upload fileInfo keys and list params) is looked up as an own key of the model:
// the names of Object.prototype members answer exactly what an unknown name answers — a 400
// Invalid key, or the same "ignored" answer — never a 500 and never a silently dropped condition.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { filePart, form } from '../upload/helpers.js';

const UNKNOWN = 'zzUnknownName';
const NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), '__proto__', 'prototype'])];

let t: TestApp;
let fileId: number;
let articleId: string;
beforeAll(async () => {
  t = await startTestApp();
  const author = await t.request('POST', '/api/authors', { body: { data: { name: 'Ann' } } });
  expect(author.status).toBe(201);
  const a = await t.request('POST', '/api/articles', { body: { data: { title: 'One', author: author.body.data.documentId } } });
  expect(a.status).toBe(201);
  articleId = a.body.data.documentId;
  await t.request('POST', '/api/articles', { body: { data: { title: 'Two' } } });
  const up = await t.request('POST', '/api/upload', { raw: form([filePart('hello', 'a.txt', 'text/plain')]) });
  expect(up.status).toBe(201);
  fileId = up.body[0].id;
});
afterAll(async () => {
  await t.close();
});

/** What a client sees, with the name it gave replaced by a placeholder (and volatile values dropped). */
function shape(r: Response, name: string): unknown {
  const text = JSON.stringify(r.body ?? null)
    .split(JSON.stringify(name).slice(1, -1))
    .join('<NAME>');
  return { status: r.status, body: JSON.parse(text.replace(/"(updatedAt|createdAt|publishedAt)":"[^"]*"/g, '"$1":"<T>"')) };
}

/** Asserts that each prototype name gets the answer an unknown name gets, and that it isn't a 500. */
async function sweep(send: (name: string) => Promise<Response>, expectStatus: number): Promise<void> {
  const baseline = await send(UNKNOWN);
  expect(baseline.status, JSON.stringify(baseline.body)).toBe(expectStatus);
  const want = shape(baseline, UNKNOWN);
  for (const name of NAMES) {
    const r = await send(name);
    expect(shape(r, name), `${name}: ${r.text}`).toEqual(want);
  }
}

const q = (path: string) => (name: string) => t.get(path.replaceAll('NAME', encodeURIComponent(name)));

describe('names of Object.prototype members in the query', () => {
  const refused: [string, string][] = [
    ['filter key', '/api/articles?filters[NAME][$eq]=1'],
    ['filter key, shorthand', '/api/articles?filters[NAME]=1'],
    ['filter key under an object', '/api/articles?filters[NAME][x]=1'],
    ['filter operator', '/api/articles?filters[title][NAME]=1'],
    ['filter operator under $not', '/api/articles?filters[title][$not][NAME]=1'],
    ['filter key in $and', '/api/articles?filters[$and][0][NAME]=1'],
    ['filter key through a relation', '/api/articles?filters[author][NAME][$eq]=1'],
    ['filter key through a component', '/api/articles?filters[seo][NAME][$eq]=1'],
    ['filter key through media', '/api/articles?filters[cover][NAME][$eq]=1'],
    ['sort', '/api/articles?sort=NAME'],
    ['sort with a direction', '/api/articles?sort=NAME:desc'],
    ['sort through a relation', '/api/articles?sort=author.NAME'],
    ['sort as an object', '/api/articles?sort[NAME]=asc'],
    ['sort in a list', '/api/articles?sort[0]=NAME'],
    ['fields', '/api/articles?fields[0]=NAME'],
    ['fields as a list', '/api/articles?fields=NAME,title'],
    ['populate', '/api/articles?populate=NAME'],
    ['populate, dotted', '/api/articles?populate=author.NAME'],
    ['populate as an object', '/api/articles?populate[NAME]=true'],
    ['populate entry key', '/api/articles?populate[author][NAME]=1'],
    ['populate fields', '/api/articles?populate[author][fields][0]=NAME'],
    ['populate sort', '/api/articles?populate[author][sort]=NAME'],
    ['populate filters', '/api/articles?populate[author][filters][NAME][$eq]=1'],
    ['populate populate', '/api/articles?populate[author][populate][NAME]=true'],
    ['populate on a dynamic zone', '/api/articles?populate[blocks][on][NAME]=true'],
    ['single type populate', '/api/global?populate=NAME'],
    ['upload list sort', '/api/upload/files?sort=NAME'],
    ['upload list sort, desc', '/api/upload/files?sort=NAME:desc'],
    ['upload list fields', '/api/upload/files?fields[0]=NAME'],
    ['upload list filters', '/api/upload/files?filters[NAME][$eq]=1'],
    ['upload list populate', '/api/upload/files?populate[NAME]=true'],
    ['upload page sort', '/api/upload/files/page?sort=NAME'],
  ];
  for (const [what, path] of refused)
    it(`${what}: ${path}`, async () => {
      await sweep(q(path), 400);
    });

  const POISON = ['__proto__', 'constructor', 'prototype'];
  it('pagination keys are ignored, as unknown keys are, except the three that can only aim at a prototype', async () => {
    const baseline = await t.get(`/api/articles?pagination[${UNKNOWN}]=1`);
    expect(baseline.status).toBe(200);
    for (const name of NAMES) {
      const r = await t.get(`/api/articles?pagination[${name}][page]=2`);
      if (POISON.includes(name)) {
        expect(r.body.error, name).toEqual({
          status: 400,
          name: 'ValidationError',
          message: `Invalid key ${name}`,
          details: { key: name, path: null, source: 'query', param: 'pagination' },
        });
      } else expect(shape(r, name), name).toEqual(shape(baseline, UNKNOWN));
    }
  });

  it('__proto__, constructor and prototype keys survive parsing and are refused wherever they are met', async () => {
    const cases: [string, string, string | null, string][] = [
      ['/api/articles?filters[__proto__][x]=1', '__proto__', null, 'filters'],
      ['/api/articles?filters[title][__proto__]=1', '__proto__', 'title', 'filters'],
      ['/api/articles?filters[author][constructor][prototype][x]=1', 'constructor', 'author', 'filters'],
      ['/api/articles?filters[$or][0][prototype][x]=1', 'prototype', null, 'filters'],
      ['/api/articles?filters%5B__proto__%5D%5Bx%5D=1', '__proto__', null, 'filters'],
      ['/api/articles?populate[__proto__][x]=1', '__proto__', null, 'populate'],
      ['/api/articles?populate[author][filters][__proto__][x]=1', '__proto__', null, 'populate'],
      ['/api/articles?sort[__proto__]=asc', '__proto__', null, 'sort'],
      ['/api/articles?sort[author][__proto__]=asc', '__proto__', 'author', 'sort'],
      ['/api/articles?pagination[__proto__][page]=2', '__proto__', null, 'pagination'],
      ['/api/upload/files?filters[__proto__][x]=1', '__proto__', null, 'filters'],
    ];
    for (const [path, key, at, param] of cases) {
      const r = await t.get(path);
      const message = at === null ? `Invalid key ${key}` : `Invalid key ${key} at ${at}`;
      expect(r.body.error, path).toEqual({ status: 400, name: 'ValidationError', message, details: { key, path: at, source: 'query', param } });
    }
  });

  it('odd shapes built from prototype-less objects are a 400, never a 500', async () => {
    for (const path of [
      '/api/articles?populate[author][0][x]=1',
      '/api/articles?populate[blocks][on][shared.quote][0][x]=1',
      '/api/articles?fields[x]=1',
      '/api/articles?status[x]=1',
      '/api/articles?sort[0][x][y]=asc',
      '/api/articles?filters[title][$in][0][x]=1',
    ]) {
      expect((await t.get(path)).status, path).toBe(400);
    }
  });

  const ignored: [string, string][] = [
    ['top-level key', '/api/articles?NAME=1'],
    ['top-level key under an object', '/api/articles?NAME[x]=1'],
    ['upload list pagination key (the list ignores pagination)', '/api/upload/files?pagination[NAME]=1'],
  ];
  for (const [what, path] of ignored)
    it(`${what} (ignored, as unknown names are): ${path}`, async () => {
      await sweep(q(path), 200);
    });

  it('an ignored name never pollutes Object.prototype', async () => {
    await t.get('/api/articles?__proto__[polluted]=1&constructor[prototype][polluted]=1&filters[__proto__][polluted]=1');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });
});

describe('names of Object.prototype members in write bodies', () => {
  const body =
    (data: (name: string) => Record<string, unknown>) =>
    (name: string): Record<string, unknown> => ({ data: data(name) });
  const own = (name: string, value: unknown): Record<string, unknown> => Object.fromEntries([[name, value]]);
  const cases: [string, (name: string) => Record<string, unknown>][] = [
    ['root key', body((n) => ({ title: 'x', ...own(n, 1) }))],
    ['root key holding an object', body((n) => ({ title: 'x', ...own(n, { a: 1 }) }))],
    ['component key', body((n) => ({ title: 'x', seo: { metaTitle: 'm', ...own(n, 1) } }))],
    ['dynamic-zone entry key', body((n) => ({ title: 'x', blocks: [{ __component: 'shared.quote', ...own(n, 1) }] }))],
    ['relation operation', body((n) => ({ title: 'x', author: own(n, [1]) }))],
    ['relation item key', body((n) => ({ title: 'x', author: { connect: [{ documentId: 'abc', ...own(n, 1) }] } }))],
    ['media operation', body((n) => ({ title: 'x', cover: own(n, 1) }))],
  ];
  for (const [what, make] of cases) {
    it(`create: ${what}`, async () => {
      await sweep((n) => t.request('POST', '/api/articles', { body: make(n) }), 400);
    });
    it(`update: ${what}`, async () => {
      await sweep((n) => t.request('PUT', `/api/articles/${articleId}`, { body: make(n) }), 400);
    });
  }
  it('form body (urlencoded): root and component keys', async () => {
    const formBody = (raw: string) => (n: string) =>
      t.request('POST', '/api/articles', { raw: raw.replaceAll('NAME', encodeURIComponent(n)), headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await sweep(formBody('data[title]=x&data[NAME]=1'), 400);
    await sweep(formBody('data[title]=x&data[NAME][a]=1'), 400);
    await sweep(formBody('data[title]=x&data[seo][metaTitle]=m&data[seo][NAME]=1'), 400);
  });
  it('single type: root key', async () => {
    await sweep((n) => t.request('PUT', '/api/global', { body: { data: { siteName: 'S', ...own(n, 1) } } }), 400);
  });
});

describe('names of Object.prototype members in upload file information', () => {
  it('fileInfo keys are ignored, as unknown keys are (JSON update)', async () => {
    await sweep(
      (n) =>
        t.request('POST', `/api/upload?id=${fileId}`, {
          body: {
            fileInfo: Object.fromEntries([
              [n, 'x'],
              ['caption', 'c'],
            ]),
          },
        }),
      200,
    );
  });
  it('fileInfo keys are ignored, as unknown keys are (multipart upload)', async () => {
    const send = async (n: string): Promise<Response> => {
      const r = await t.request('POST', '/api/upload', {
        raw: form([
          {
            name: 'fileInfo',
            value: JSON.stringify(
              Object.fromEntries([
                [n, 'x'],
                ['caption', 'c'],
              ]),
            ),
          },
          filePart('x', 'b.txt', 'text/plain'),
        ]),
      });
      // each upload is a new file: keep what the client can compare
      return { ...r, body: r.status === 201 ? r.body.map((f: { caption: string; name: string }) => ({ caption: f.caption, name: f.name })) : r.body };
    };
    await sweep(send, 201);
  });
  it('focalPoint keys are ignored, as unknown keys are', async () => {
    await sweep(
      (n) =>
        t.request('POST', `/api/upload?id=${fileId}`, {
          body: {
            fileInfo: {
              focalPoint: Object.fromEntries([
                ['x', 1],
                ['y', 2],
                [n, 3],
              ]),
            },
          },
        }),
      200,
    );
  });
});
