import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOC_ID, HEX10, ISO, errorOf, fetchAll, field, filePart, jpeg, png, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
beforeAll(async () => {
  u = await startUploadApp();
});
afterAll(async () => {
  await u.close();
});

const forbidden = errorOf(403, 'ForbiddenError', 'Forbidden');

describe('POST /api/upload', () => {
  it('stores one image with its formats and answers 201 with a bare array of file objects', async () => {
    const r = await u.upload([filePart(await png(1200, 800), 'red.png', 'image/png'), field('fileInfo', { alternativeText: 'A red box', caption: 'Red' })]);
    expect(r.status).toBe(201);
    expect(Array.isArray(r.body)).toBe(true);
    expect(r.body).toHaveLength(1);
    const f = r.body[0];
    expect(Object.keys(f)).toEqual([
      'id',
      'documentId',
      'name',
      'alternativeText',
      'caption',
      'focalPoint',
      'width',
      'height',
      'formats',
      'hash',
      'ext',
      'mime',
      'size',
      'url',
      'previewUrl',
      'provider',
      'provider_metadata',
      'createdAt',
      'updatedAt',
      'publishedAt',
      'isUrlSigned',
    ]);
    expect(f).toMatchObject({
      name: 'red.png',
      alternativeText: 'A red box',
      caption: 'Red',
      focalPoint: null,
      width: 1200,
      height: 800,
      ext: '.png',
      mime: 'image/png',
      previewUrl: null,
      provider: 'local',
      provider_metadata: null,
      isUrlSigned: false,
    });
    expect(f.id).toEqual(expect.any(Number));
    expect(f.documentId).toMatch(DOC_ID);
    expect(f.hash).toMatch(new RegExp(`^red_${HEX10}$`));
    expect(f.url).toBe(`/uploads/${f.hash}.png`);
    expect(f.size).toBe(Math.round((statSync(join(u.uploadsDir, `${f.hash}.png`)).size / 1000) * 100) / 100);
    for (const k of ['createdAt', 'updatedAt', 'publishedAt']) expect(f[k]).toMatch(ISO);
    expect(Object.keys(f.formats)).toEqual(['thumbnail', 'small', 'medium', 'large']);
    const dims = Object.fromEntries(Object.entries(f.formats as Record<string, { width: number; height: number }>).map(([k, v]) => [k, [v.width, v.height]]));
    expect(dims).toEqual({ thumbnail: [234, 156], large: [1000, 667], medium: [750, 500], small: [500, 333] });
    const thumb = f.formats.thumbnail;
    expect(Object.keys(thumb)).toEqual(['name', 'hash', 'ext', 'mime', 'path', 'width', 'height', 'size', 'sizeInBytes', 'url']);
    expect(thumb).toMatchObject({ name: 'thumbnail_red.png', hash: `thumbnail_${f.hash}`, ext: '.png', mime: 'image/png', path: null, url: `/uploads/thumbnail_${f.hash}.png` });
    expect(thumb.size).toBe(Math.round((thumb.sizeInBytes / 1000) * 100) / 100);
    // every object is on disk under the uploads folder, and served
    for (const url of [f.url, ...Object.values(f.formats as Record<string, { url: string }>).map((x) => x.url)]) {
      expect(existsSync(join(u.uploadsDir, url.slice('/uploads/'.length)))).toBe(true);
      const res = await fetchAll(u.t.url + url);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('image/png');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-disposition')).toBeNull();
    }
  });

  it('makes only the formats an image exceeds: none for a small image, thumbnail + small for 600×400', async () => {
    const r = await u.upload([filePart(await png(200, 100), 'small.png', 'image/png'), filePart(await jpeg(600, 400), 'photo.jpg', 'image/jpeg')]);
    expect(r.status).toBe(201);
    expect(r.body[0].formats).toBeNull();
    expect(r.body[0]).toMatchObject({ width: 200, height: 100 });
    expect(Object.keys(r.body[1].formats)).toEqual(['thumbnail', 'small']);
    expect(r.body[1].formats.small).toMatchObject({ width: 500, height: 333, mime: 'image/jpeg', ext: '.jpg' });
    expect(r.body[1]).toMatchObject({ mime: 'image/jpeg', ext: '.jpg', name: 'photo.jpg' });
  });

  it("a file sent without an extension gets its type's first extension in mime-db, as Strapi 5.54 names it", async () => {
    const r = await u.upload([filePart(await jpeg(300, 200), 'photo', 'application/octet-stream'), filePart('plain words', 'notes', 'text/plain')]);
    expect(r.status, r.text).toBe(201);
    expect(r.body[0]).toMatchObject({ name: 'photo', mime: 'image/jpeg', ext: '.jpeg', url: expect.stringMatching(new RegExp(`^/uploads/photo_${HEX10}\\.jpeg$`)) });
    expect(r.body[0].formats.thumbnail).toMatchObject({ ext: '.jpeg', url: expect.stringMatching(/\.jpeg$/) });
    expect(r.body[1]).toMatchObject({ name: 'notes', mime: 'text/plain', ext: '.txt' });
    // served under its type, as any .jpeg
    const res = await fetchAll(u.t.url + (r.body[0].url as string));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/jpeg');
  });

  it('pairs several files with several fileInfo by part order, whatever the sizes (Strapi bug #14)', async () => {
    const big = await png(1500, 1000);
    const r = await u.upload([
      filePart(big, 'first.png', 'image/png'),
      field('fileInfo', { name: 'one', caption: 'c1' }),
      filePart('tiny text', 'second.txt', 'text/plain'),
      field('fileInfo', { name: 'two', alternativeText: 'a2' }),
      filePart(await png(300, 300), 'third.png', 'image/png'),
      field('fileInfo', { name: 'three', focalPoint: { x: 10, y: 90 } }),
    ]);
    expect(r.status).toBe(201);
    expect(r.body.map((f: { name: string }) => f.name)).toEqual(['one', 'two', 'three']);
    expect(r.body.map((f: { mime: string }) => f.mime)).toEqual(['image/png', 'text/plain', 'image/png']);
    expect(r.body[0]).toMatchObject({ caption: 'c1', alternativeText: null, width: 1500 });
    expect(r.body[1]).toMatchObject({ alternativeText: 'a2', caption: null, width: null, height: null, formats: null, ext: '.txt' });
    expect(r.body[2]).toMatchObject({ focalPoint: { x: 10, y: 90 }, width: 300 });
    expect(r.body[0].hash).toMatch(new RegExp(`^one_${HEX10}$`));
    // ids follow the part order too
    expect(r.body[0].id).toBeLessThan(r.body[1].id);
    expect(r.body[1].id).toBeLessThan(r.body[2].id);
  });

  it('accepts all fileInfo entries in one field as a JSON array, and fewer entries than files', async () => {
    const r = await u.upload([
      filePart('a', 'a.txt', 'text/plain'),
      filePart('b', 'b.txt', 'text/plain'),
      filePart('c', 'c.txt', 'text/plain'),
      field('fileInfo', [{ name: 'A' }, { caption: 'B' }]),
    ]);
    expect(r.status).toBe(201);
    expect(r.body.map((f: { name: string; caption: string | null }) => [f.name, f.caption])).toEqual([
      ['A', null],
      ['b.txt', 'B'],
      ['c.txt', null],
    ]);
  });

  it('an empty fileInfo.name keeps the name the file was sent under (as Strapi 5.54); empty texts are kept', async () => {
    const r = await u.upload([filePart('hello', 'notes.txt', 'text/plain'), field('fileInfo', { name: '', alternativeText: '', caption: '' })]);
    expect(r.status).toBe(201);
    expect(r.body).toEqual([
      {
        id: expect.any(Number),
        documentId: expect.stringMatching(DOC_ID),
        name: 'notes.txt',
        alternativeText: '',
        caption: '',
        focalPoint: null,
        width: null,
        height: null,
        formats: null,
        hash: expect.stringMatching(new RegExp(`^notes_${HEX10}$`)),
        ext: '.txt',
        mime: 'text/plain',
        size: 0.01,
        url: `/uploads/${r.body[0].hash}.txt`,
        previewUrl: null,
        provider: 'local',
        provider_metadata: null,
        createdAt: expect.stringMatching(ISO),
        updatedAt: expect.stringMatching(ISO),
        publishedAt: expect.stringMatching(ISO),
        isUrlSigned: false,
      },
    ]);
  });

  it('keeps two files of the same name (none is dropped)', async () => {
    const r = await u.upload([filePart('one', 'same.txt', 'text/plain'), filePart('two', 'same.txt', 'text/plain')]);
    expect(r.status).toBe(201);
    expect(r.body).toHaveLength(2);
    expect(r.body[0].url).not.toBe(r.body[1].url);
    expect((await fetchAll(u.t.url + r.body[0].url)).body.toString()).toBe('one');
    expect((await fetchAll(u.t.url + r.body[1].url)).body.toString()).toBe('two');
  });

  it('a stored name is the sent name slugged as Strapi 5.54 slugs it: transliterated, and nothing but the random part for a name of no letters', async () => {
    const r = await u.upload([
      filePart('a', 'Привет мир.txt', 'text/plain'),
      filePart('b', 'Straße.txt', 'text/plain'),
      filePart('c', '.txt', 'text/plain'),
      filePart('d', '🎉.txt', 'text/plain'),
    ]);
    expect(r.status, r.text).toBe(201);
    expect(r.body.map((f: { url: string }) => f.url.replace(/[0-9a-f]{10}\./, '<h>.'))).toEqual([
      '/uploads/Privet_mir_<h>.txt',
      '/uploads/Strasse_<h>.txt',
      '/uploads/_<h>.txt',
      '/uploads/_<h>.txt',
    ]);
    expect(r.body.map((f: { name: string }) => f.name)).toEqual(['Привет мир.txt', 'Straße.txt', '.txt', '🎉.txt']);
    expect((await fetchAll(u.t.url + r.body[2].url)).body.toString()).toBe('c');
  });

  it('a path field is for object storage: the local provider stores the file under /uploads as without it', async () => {
    const r = await u.upload([filePart('pathless', 'pathless.txt', 'text/plain'), field('path', 'blog/2024')]);
    expect(r.status, r.text).toBe(201);
    expect(r.body[0]).toMatchObject({ name: 'pathless.txt', provider: 'local', url: expect.stringMatching(/^\/uploads\/pathless_[0-9a-f]{10}\.txt$/) });
    expect((await fetchAll(u.t.url + (r.body[0].url as string))).status).toBe(200);
  });

  it('puts every upload in one "API Uploads" folder, created once even when the first uploads race', async () => {
    const fresh = await startUploadApp();
    try {
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => fresh.upload([filePart(`n${i}`, `n${i}.txt`, 'text/plain')])));
      expect(results.map((r) => r.status)).toEqual([201, 201, 201, 201, 201, 201]);
      const folders = await fresh.t.app.database.db.selectFrom('upload_folders').selectAll().execute();
      expect(folders).toHaveLength(1);
      expect(folders[0]).toMatchObject({ name: 'API Uploads', path: '/1' });
      const paths = await fresh.t.app.database.db.selectFrom('files').select('folder_path').execute();
      expect(new Set(paths.map((p) => p.folder_path))).toEqual(new Set(['/1']));
    } finally {
      await fresh.close();
    }
  });
});

describe('reading files', () => {
  let ids: number[] = [];

  beforeAll(async () => {
    const r = await u.upload([filePart('alpha', 'alpha.txt', 'text/plain'), filePart('beta beta', 'beta.txt', 'text/plain'), filePart('gamma!', 'gamma.txt', 'text/plain')]);
    ids = r.body.map((f: { id: number }) => f.id);
  });

  it('GET /api/upload/files is a flat array of every file (pagination object ignored)', async () => {
    const all = await u.t.get('/api/upload/files');
    expect(all.status).toBe(200);
    expect(Array.isArray(all.body)).toBe(true);
    const ignored = await u.t.get('/api/upload/files?pagination[pageSize]=1');
    expect(ignored.body).toHaveLength(all.body.length);
    expect(all.body.every((f: { isUrlSigned: boolean }) => f.isUrlSigned === false)).toBe(true);
    expect(all.body.map((f: { id: number }) => f.id)).toEqual([...all.body.map((f: { id: number }) => f.id)].sort((a, b) => a - b));
  });

  it('GET /api/upload/files reads root page and pageSize as Strapi 5.54 does: whole numbers above 0, not beside start/limit, then ignored', async () => {
    const within = `filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}&fields[0]=name`;
    for (const q of ['page=2', 'page=2&pageSize=1']) {
      expect(
        (await u.t.get(`/api/upload/files?${within}&${q}`)).body.map((f: { id: number }) => f.id),
        q,
      ).toEqual([ids[0], ids[1]]);
    }
    for (const [q, message] of [
      ['page=abc', "Invalid 'page' parameter. Expected an integer > 0, received: abc"],
      ['pageSize=-1', "Invalid 'pageSize' parameter. Expected an integer > 0, received: -1"],
      ['page=2&start=0', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
      ['page=abc&limit=1', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'],
    ] as const) {
      expect((await u.t.get(`/api/upload/files?${within}&${q}`)).body, q).toEqual(errorOf(400, 'PaginationError', message));
    }
    expect((await u.t.get('/api/upload/files?page=abc&sort=nope')).body.error.message).toBe('Invalid key nope');
  });

  it('filters, sorts and selects fields', async () => {
    const r = await u.t.get('/api/upload/files?filters[name][$endsWith]=a.txt&sort=name:desc&fields[0]=name&fields[1]=mime');
    expect(r.status).toBe(200);
    expect(r.body).toEqual([
      { id: ids[2], documentId: expect.stringMatching(DOC_ID), name: 'gamma.txt', mime: 'text/plain', isUrlSigned: false },
      { id: ids[1], documentId: expect.stringMatching(DOC_ID), name: 'beta.txt', mime: 'text/plain', isUrlSigned: false },
      { id: ids[0], documentId: expect.stringMatching(DOC_ID), name: 'alpha.txt', mime: 'text/plain', isUrlSigned: false },
    ]);
    const start = await u.t.get(`/api/upload/files?filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}&filters[id][$in][2]=${ids[2]}&start=1&limit=1&fields=name`);
    expect(start.body.map((f: { name: string }) => f.name)).toEqual(['beta.txt']);
    const fromOne = await u.t.get(`/api/upload/files?filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}&filters[id][$in][2]=${ids[2]}&start=1&fields=name`);
    expect(fromOne.body.map((f: { name: string }) => f.name)).toEqual(['beta.txt', 'gamma.txt']);
    const bad = await u.t.get('/api/upload/files?start=-1');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorOf(400, 'PaginationError', 'Invalid start parameter. Expected a non-negative integer'));
    const huge = await u.t.get('/api/upload/files?limit=99999999999999999999');
    expect(huge.status).toBe(400);
    expect(huge.body).toEqual(errorOf(400, 'PaginationError', 'Invalid limit parameter. Expected an integer between -9007199254740991 and 9007199254740991'));
  });

  it('_q searches the file lists as a content list is searched (case ignored, % literal), as Strapi 5.54 does', async () => {
    const within = `filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}&filters[id][$in][2]=${ids[2]}&fields[0]=name`;
    const flat = await u.t.get(`/api/upload/files?${within}&_q=BETA`);
    expect(flat.status).toBe(200);
    expect(flat.body).toEqual([{ id: ids[1], documentId: expect.stringMatching(DOC_ID), name: 'beta.txt', isUrlSigned: false }]);
    const page = await u.t.get(`/api/upload/files/page?${within}&_q=mMa`);
    expect(page.body).toEqual({
      data: [{ id: ids[2], documentId: expect.stringMatching(DOC_ID), name: 'gamma.txt', isUrlSigned: false }],
      meta: { pagination: { page: 1, pageSize: 25, pageCount: 1, total: 1 } },
    });
    expect((await u.t.get(`/api/upload/files?${within}&_q=%25`)).body).toEqual([]);
    expect((await u.t.get(`/api/upload/files?${within}&_q=`)).body).toHaveLength(3);
  });

  it('HEAD of a stored file gives its headers without a body', async () => {
    const res = await fetch(`${u.t.url}/api/upload/files/${ids[0]}`, { headers: { authorization: `Bearer ${u.t.token}` } });
    const f = (await res.json()) as { url: string };
    const head = await fetch(u.t.url + f.url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe('5');
    expect(head.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await head.text()).toBe('');
  });

  it('a stored file is served in part for a byte Range (206, Content-Range), 416 past its end, whole for anything else', async () => {
    const r = await u.upload([filePart('0123456789abcdef', 'digits.txt', 'text/plain')]);
    const url = u.t.url + (r.body[0] as { url: string }).url;
    const get = async (headers: Record<string, string>) => {
      const res = await fetch(url, { headers });
      return { status: res.status, headers: res.headers, text: await res.text() };
    };
    const whole = await get({});
    expect(whole).toMatchObject({ status: 200, text: '0123456789abcdef' });
    expect(whole.headers.get('accept-ranges')).toBe('bytes');
    expect(whole.headers.get('cache-control')).toBe('max-age=0');
    const first = await get({ range: 'bytes=0-3' });
    expect(first).toMatchObject({ status: 206, text: '0123' });
    expect(first.headers.get('content-range')).toBe('bytes 0-3/16');
    expect(first.headers.get('content-length')).toBe('4');
    expect(first.headers.get('content-disposition')).toMatch(/^attachment/);
    expect(await get({ range: 'bytes=10-' })).toMatchObject({ status: 206, text: 'abcdef' });
    // a suffix range: the last n bytes (Strapi 5.54 answers 416 here)
    const last = await get({ range: 'bytes=-3' });
    expect(last).toMatchObject({ status: 206, text: 'def' });
    expect(last.headers.get('content-range')).toBe('bytes 13-15/16');
    // an end past the file is cut to the file
    expect((await get({ range: 'bytes=14-100' })).headers.get('content-range')).toBe('bytes 14-15/16');
    // past the end: 416 naming the size (Strapi 5.54 answers 206 with bytes it doesn't have)
    const past = await get({ range: 'bytes=16-20' });
    expect(past.status).toBe(416);
    expect(past.headers.get('content-range')).toBe('bytes */16');
    expect(JSON.parse(past.text)).toEqual({ data: null, error: { status: 416, name: 'RangeNotSatisfiableError', message: 'Range Not Satisfiable' } });
    expect((await get({ range: 'bytes=5-2' })).status).toBe(416);
    // not a byte range, several ranges, or If-Range naming an older version: the whole file
    for (const headers of <Record<string, string>[]>[
      { range: 'bytes=abc' },
      { range: 'items=0-1' },
      { range: 'bytes=0-1,4-5' },
      { range: 'bytes=0-1', 'if-range': 'Thu, 01 Jan 2015 00:00:00 GMT' },
    ])
      expect(await get(headers), JSON.stringify(headers)).toMatchObject({ status: 200, text: '0123456789abcdef' });
    // If-Range naming the file's own date: the part
    expect(await get({ range: 'bytes=0-1', 'if-range': whole.headers.get('last-modified')! })).toMatchObject({ status: 206, text: '01' });
    const head = await fetch(url, { method: 'HEAD', headers: { range: 'bytes=0-3' } });
    expect(head.status).toBe(206);
    expect(head.headers.get('content-length')).toBe('4');
  });
  it('rejects private and unknown keys in filters and fields', async () => {
    const r = await u.t.get('/api/upload/files?filters[folderPath][$eq]=/1');
    expect(r.status).toBe(400);
    expect(r.body.error.name).toBe('ValidationError');
    expect((await u.t.get('/api/upload/files?fields=nope')).status).toBe(400);
  });

  it('GET /api/upload/files/page paginates by page and by offset; mixing is a 400', async () => {
    const filter = `filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}&filters[id][$in][2]=${ids[2]}`;
    const page = await u.t.get(`/api/upload/files/page?${filter}&pagination[page]=2&pagination[pageSize]=2`);
    expect(page.status).toBe(200);
    expect(page.body.meta).toEqual({ pagination: { page: 2, pageSize: 2, pageCount: 2, total: 3 } });
    expect(page.body.data.map((f: { id: number }) => f.id)).toEqual([ids[2]]);
    expect(page.body.data[0].isUrlSigned).toBe(false);
    const offset = await u.t.get(`/api/upload/files/page?${filter}&pagination[start]=1&pagination[limit]=5&sort=id:desc`);
    expect(offset.body.meta).toEqual({ pagination: { start: 1, limit: 5, total: 3 } });
    expect(offset.body.data.map((f: { id: number }) => f.id)).toEqual([ids[1], ids[0]]);
    const noCount = await u.t.get(`/api/upload/files/page?${filter}&pagination[withCount]=false`);
    expect(noCount.body.meta).toEqual({ pagination: { page: 1, pageSize: 25 } });
    const mixed = await u.t.get('/api/upload/files/page?pagination[page]=1&pagination[limit]=2');
    expect(mixed.status).toBe(400);
    expect(mixed.body).toEqual({ data: null, error: { status: 400, name: 'PaginationError', message: 'Cannot use both page & offset pagination in the same query', details: {} } });
  });

  it('GET /api/upload/files/page takes the nested pagination keys only: root page or pageSize is a 400, pageSize and limit stop at 100', async () => {
    const within = `filters[id][$in][0]=${ids[0]}&filters[id][$in][1]=${ids[1]}`;
    for (const q of ['page=2', 'pageSize=1', 'page=2&pageSize=1', 'page=1&start=0']) {
      const r = await u.t.get(`/api/upload/files/page?${within}&${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body, q).toEqual(errorOf(400, 'PaginationError', 'Invalid pagination attributes. The page parameters are incorrect and must be in the pagination object'));
    }
    expect((await u.t.get(`/api/upload/files/page?${within}&pagination[pageSize]=1000`)).body.meta).toEqual({ pagination: { page: 1, pageSize: 100, pageCount: 1, total: 2 } });
    expect((await u.t.get(`/api/upload/files/page?${within}&pagination[limit]=1000`)).body.meta).toEqual({ pagination: { start: 0, limit: 100, total: 2 } });
    expect((await u.t.get(`/api/upload/files/page?${within}`)).body.meta).toEqual({ pagination: { page: 1, pageSize: 25, pageCount: 1, total: 2 } });
  });

  it('GET /api/upload/files/:id is one bare file; a missing or non-numeric id is 404 file.notFound', async () => {
    const r = await u.t.get(`/api/upload/files/${ids[0]}`);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id: ids[0], name: 'alpha.txt', isUrlSigned: false });
    for (const id of ['999999', 'abc', r.body.documentId, '99999999999', '99999999999999999999']) {
      const missing = await u.t.get(`/api/upload/files/${id}`);
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorOf(404, 'NotFoundError', 'file.notFound'));
    }
  });
});

describe('a file id in the number forms Strapi reads', () => {
  it('GET and DELETE /api/upload/files/:id and POST /api/upload?id= take 1.0, " 1", +1, 1e0 and 01; 1.5, 0x1 and -1 are 404', async () => {
    const up = await u.upload([filePart('a', 'forms-a.txt', 'text/plain'), filePart('b', 'forms-b.txt', 'text/plain')]);
    const [a, b] = up.body as { id: number }[];
    for (const form of [`${a!.id}.0`, `%20${a!.id}`, `%2B${a!.id}`, `${a!.id}e0`, `0${a!.id}`]) {
      const r = await u.t.get(`/api/upload/files/${form}`);
      expect(r.status, form).toBe(200);
      expect(r.body.id, form).toBe(a!.id);
    }
    for (const form of [`${a!.id}.5`, `0x${a!.id}`, `-${a!.id}`]) {
      const r = await u.t.get(`/api/upload/files/${form}`);
      expect(r.status, form).toBe(404);
      expect(r.body, form).toEqual(errorOf(404, 'NotFoundError', 'file.notFound'));
    }
    const updated = await u.t.request('POST', `/api/upload?id=${a!.id}.0`, { body: { fileInfo: { caption: 'by 1.0' } } });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: a!.id, caption: 'by 1.0' });
    const deleted = await u.t.request('DELETE', `/api/upload/files/%2B${b!.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(deleted.body.id).toBe(b!.id);
    expect((await u.t.get(`/api/upload/files/${b!.id}`)).status).toBe(404);
  });
});

describe('updating and deleting', () => {
  it('POST /api/upload?id= updates the file information (multipart or JSON); null keeps the old value', async () => {
    const up = await u.upload([filePart('x', 'info.txt', 'text/plain'), field('fileInfo', { caption: 'old caption', alternativeText: 'old alt' })]);
    const id = up.body[0].id;
    const r = await u.upload([field('fileInfo', { name: 'renamed.txt', caption: 'new caption', alternativeText: null })], { query: `?id=${id}` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ id, name: 'renamed.txt', caption: 'new caption', alternativeText: 'old alt', isUrlSigned: false, url: up.body[0].url });
    const json = await u.t.request('POST', `/api/upload?id=${id}`, { body: { fileInfo: { focalPoint: { x: 50, y: 50 } } } });
    expect(json.status).toBe(200);
    expect(json.body).toMatchObject({ id, name: 'renamed.txt', focalPoint: { x: 50, y: 50 } });
    const asString = await u.t.request('POST', `/api/upload?id=${id}`, { body: { fileInfo: JSON.stringify({ caption: 'from string' }) } });
    expect(asString.body.caption).toBe('from string');
    // the form field is cast as sent (Strapi 5.54): a list, or two fields, is named by what was sent,
    // printed as yup prints it (a string quoted; a list as JSON of its printed items)
    const cast = (printed: string): string => `fileInfo must be a \`object\` type, but the final value was: \`null\` (cast from the value \`${printed}\`).`;
    const sent = JSON.stringify([{ name: 'a' }]);
    const list = await u.upload([field('fileInfo', [{ name: 'a' }])], { query: `?id=${id}` });
    expect(list.body).toEqual(
      errorOf(400, 'ValidationError', cast(`"${sent}"`), { errors: [{ path: ['fileInfo'], message: cast(`"${sent}"`), name: 'ValidationError', value: null }] }),
    );
    const two = await u.upload([field('fileInfo', { name: 'a' }), field('fileInfo', { name: 'b' })], { query: `?id=${id}` });
    const both = [{ name: 'a' }, { name: 'b' }].map((v) => `"${JSON.stringify(v)}"`);
    expect(two.body.error.message).toBe(cast(JSON.stringify(both, null, 2)));
    expect((await u.t.get(`/api/upload/files/${id}`)).body.name).toBe('renamed.txt');
  });

  it('update errors: unknown id 404, id given twice 400', async () => {
    for (const id of ['999999', '99999999999']) {
      const missing = await u.upload([field('fileInfo', { name: 'x' })], { query: `?id=${id}` });
      expect(missing.status).toBe(404);
      expect(missing.body).toEqual(errorOf(404, 'NotFoundError', 'Entity not found'));
    }
    const nul = await u.t.request('POST', '/api/upload?id=1', { body: { fileInfo: { caption: 'a\u0000b' } } });
    expect(nul.status).toBe(400);
    expect(nul.body.error.details.errors[0]).toMatchObject({ path: ['fileInfo', 'caption'], message: 'fileInfo.caption must not contain the character U+0000' });
    const twice = await u.upload([field('fileInfo', { name: 'x' })], { query: '?id=1&id=2' });
    expect(twice.status).toBe(400);
    expect(twice.body).toEqual(errorOf(400, 'ValidationError', 'File id is required and must be a single value'));
  });

  it('DELETE /api/upload/files/:id answers 200 with the file and removes it and its formats from storage', async () => {
    const up = await u.upload([filePart(await png(800, 600), 'gone.png', 'image/png')]);
    const f = up.body[0];
    const names = [f.url, ...Object.values(f.formats as Record<string, { url: string }>).map((x) => x.url)].map((url: string) => url.slice('/uploads/'.length));
    expect(names).toHaveLength(4);
    for (const n of names) expect(existsSync(join(u.uploadsDir, n))).toBe(true);
    const r = await u.t.request('DELETE', `/api/upload/files/${f.id}`);
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ ...f });
    for (const n of names) expect(existsSync(join(u.uploadsDir, n))).toBe(false);
    expect((await fetchAll(u.t.url + f.url)).status).toBe(404);
    const again = await u.t.request('DELETE', `/api/upload/files/${f.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual(errorOf(404, 'NotFoundError', 'file.notFound'));
    expect(readdirSync(u.uploadsDir).some((n) => n.includes(f.hash))).toBe(false);
  });

  it('eight simultaneous DELETEs of one file: one 200 with the file, seven 404, and its objects are gone', async () => {
    const up = await u.upload([filePart(await png(800, 600), 'raced.png', 'image/png')]);
    const f = up.body[0];
    const rs = await Promise.all(Array.from({ length: 8 }, () => u.t.request('DELETE', `/api/upload/files/${f.id}`)));
    expect(rs.map((r) => r.status).sort()).toEqual([200, 404, 404, 404, 404, 404, 404, 404]);
    for (const r of rs) expect(r.body).toEqual(r.status === 200 ? { ...f } : errorOf(404, 'NotFoundError', 'file.notFound'));
    expect(readdirSync(u.uploadsDir).some((n) => n.includes(f.hash))).toBe(false);
    expect((await u.t.get(`/api/upload/files/${f.id}`)).status).toBe(404);
  });

  it('fileInfo updates racing with a DELETE: each update answers its own result or 404, the DELETE the file as deleted (3 rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const up = await u.upload([filePart('x', 'before.txt', 'text/plain')]);
      const id = up.body[0].id as number;
      const updates = Array.from({ length: 6 }, (_, i) => u.upload([field('fileInfo', { name: `after-${i}.txt` })], { query: `?id=${id}` }));
      const del = u.t.request('DELETE', `/api/upload/files/${id}`);
      const [d, ...us] = await Promise.all([del, ...updates]);
      expect(d!.status, d!.text).toBe(200);
      expect(d!.body.id).toBe(id);
      us.forEach((r, i) => {
        // each update answers its own result, whatever the others did
        if (r.status === 200) expect(r.body).toMatchObject({ id, name: `after-${i}.txt` });
        else expect(r.body).toEqual(errorOf(404, 'NotFoundError', 'Entity not found'));
      });
      // the DELETE answers the file as it was deleted: an update answered 200 came before, so is in it
      const done = us.filter((r) => r.status === 200);
      expect(['before.txt', ...done.map((r) => r.body.name as string)]).toContain(d!.body.name);
      if (done.length > 0) expect(d!.body.name).not.toBe('before.txt');
      expect((await u.t.get(`/api/upload/files/${id}`)).status).toBe(404);
      expect((await u.t.get('/api/upload/files')).body.some((x: { id: number }) => x.id === id)).toBe(false);
    }
  });
});

describe('permissions', () => {
  it('Public may do nothing by default: 403 on every route', async () => {
    const calls: [string, string][] = [
      ['GET', '/api/upload/files'],
      ['GET', '/api/upload/files/page'],
      ['GET', '/api/upload/files/1'],
      ['DELETE', '/api/upload/files/1'],
    ];
    for (const [method, path] of calls) {
      const r = await u.t.request(method, path, { token: null });
      expect(r.status, `${method} ${path}`).toBe(403);
      expect(r.body).toEqual(forbidden);
    }
    const up = await u.upload([filePart('x', 'x.txt', 'text/plain')], { token: null });
    expect(up.status).toBe(403);
    expect(up.body).toEqual(forbidden);
  });

  it('a read-only token may find and findOne, not findPage, upload or destroy', async () => {
    const ro = await u.t.tokenOf('read-only');
    expect((await u.t.get('/api/upload/files', { token: ro })).status).toBe(200);
    const list = await u.t.get('/api/upload/files', { token: ro });
    expect((await u.t.get(`/api/upload/files/${list.body[0].id}`, { token: ro })).status).toBe(200);
    expect((await u.t.get('/api/upload/files/page', { token: ro })).status).toBe(403);
    expect((await u.upload([filePart('x', 'x.txt', 'text/plain')], { token: ro })).status).toBe(403);
    expect((await u.t.request('DELETE', `/api/upload/files/${list.body[0].id}`, { token: ro })).status).toBe(403);
  });

  it('a custom token gets exactly its upload actions; Public gets access once granted', async () => {
    const custom = await u.t.tokenOf('custom', ['plugin::upload.content-api.findPage', 'plugin::upload.content-api.upload']);
    expect((await u.t.get('/api/upload/files/page', { token: custom })).status).toBe(200);
    expect((await u.t.get('/api/upload/files', { token: custom })).status).toBe(403);
    expect((await u.upload([filePart('x', 'x.txt', 'text/plain')], { token: custom })).status).toBe(201);
    await u.t.app.services.roles.grant('public', ['plugin::upload.content-api.find']);
    expect((await u.t.get('/api/upload/files', { token: null })).status).toBe(200);
    expect((await u.t.get('/api/upload/files/page', { token: null })).status).toBe(403);
  });
});
