// Replacing a file's content: POST /api/upload?id=<file id> with one file.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, fetchAll, field, filePart, jpeg, png, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
beforeAll(async () => {
  u = await startUploadApp();
});
afterAll(async () => {
  await u.close();
});

interface Format {
  name: string;
  hash: string;
  ext: string;
  mime: string;
  width: number;
  height: number;
  sizeInBytes: number;
  url: string;
}

/** the stored objects whose names hold `hash`, sorted */
function objectsOf(hash: string): string[] {
  return readdirSync(u.uploadsDir)
    .filter((n) => n.includes(hash))
    .sort();
}

const pathOf = (url: string): string => join(u.uploadsDir, url.slice('/uploads/'.length));

/** the width and height a stored PNG's header gives */
function pngSize(url: string): [number, number] {
  const head = readFileSync(pathOf(url));
  return [head.readUInt32BE(16), head.readUInt32BE(20)];
}

describe('POST /api/upload?id= with one file replaces its content', () => {
  it('keeps the id, hash, extension and URL; takes the new name, type, size, dimensions and formats; keeps the texts, clears the focal point', async () => {
    const up = await u.upload([
      filePart(await png(800, 600), 'first.png', 'image/png'),
      field('fileInfo', { alternativeText: 'Alt', caption: 'Cap', focalPoint: { x: 10, y: 20 } }),
    ]);
    const old = up.body[0];
    expect(Object.keys(old.formats)).toEqual(['thumbnail', 'small', 'medium']);
    const article = await u.t.request('POST', '/api/articles', { body: { data: { title: 'replaced cover', cover: old.id } } });
    const read = `/api/articles/${article.body.data.documentId}?populate=cover`;
    expect((await u.t.get(read)).body.data.cover.name).toBe('first.png');

    const photo = await jpeg(1200, 800);
    const r = await u.upload([filePart(photo, 'second.jpg', 'image/jpeg')], { query: `?id=${old.id}` });
    expect(r.status).toBe(200);
    const f = r.body;
    expect(Array.isArray(f)).toBe(false);
    expect(Object.keys(f)).toEqual(Object.keys(old));
    expect(f).toMatchObject({ id: old.id, documentId: old.documentId, hash: old.hash, ext: '.png', url: old.url, createdAt: old.createdAt });
    expect(f).toMatchObject({ name: 'second.jpg', alternativeText: 'Alt', caption: 'Cap', focalPoint: null, width: 1200, height: 800, mime: 'image/jpeg' });
    expect(f.updatedAt > old.updatedAt).toBe(true);
    // the formats of the new picture, stored under the old names: one the old picture lacked (large) is new
    expect(Object.keys(f.formats)).toEqual(['thumbnail', 'small', 'medium', 'large']);
    for (const [key, fmt] of Object.entries(f.formats as Record<string, Format>)) {
      expect(fmt).toMatchObject({ name: `${key}_second.jpg`, hash: `${key}_${old.hash}`, ext: '.png', mime: 'image/jpeg', url: `/uploads/${key}_${old.hash}.png` });
      expect(statSync(pathOf(fmt.url)).size).toBe(fmt.sizeInBytes);
    }
    expect(f.formats.medium.width).toBe(750);
    // the URL serves the new bytes (the type it is served as comes from the stored name, as before)
    const served = await fetchAll(u.t.url + old.url);
    expect(served.status).toBe(200);
    expect(served.body.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]))).toBe(true);
    expect(Math.round((served.body.length / 1000) * 100) / 100).toBe(f.size);
    expect(objectsOf(old.hash)).toEqual([`${old.hash}.png`, ...['large', 'medium', 'small', 'thumbnail'].map((k) => `${k}_${old.hash}.png`)]);
    // every read sees the new file at once: the file routes and a document populating it
    expect((await u.t.get(`/api/upload/files/${old.id}`)).body).toEqual(f);
    expect((await u.t.get(read)).body.data.cover).toMatchObject({ name: 'second.jpg', width: 1200, mime: 'image/jpeg', url: old.url });

    // a picture too small for any format: formats is {}, and the old formats' objects are removed
    const small = await png(100, 80, { r: 0, g: 0, b: 250 });
    const again = await u.upload([filePart(small, 'third.png', 'image/png')], { query: `?id=${old.id}` });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ name: 'third.png', width: 100, height: 80, formats: {}, url: old.url, mime: 'image/png' });
    expect(objectsOf(old.hash)).toEqual([`${old.hash}.png`]);
    expect(pngSize(old.url)).toEqual([100, 80]);
  });

  it('a text replaced by a text keeps its address; fileInfo renames it, null clears a text, a list of one entry is that entry', async () => {
    const up = await u.upload([filePart('first words', 'notes.txt', 'text/plain'), field('fileInfo', { alternativeText: 'Alt', caption: 'Cap' })]);
    const old = up.body[0];
    const r = await u.upload([filePart('plain words', 'other.txt', 'text/plain'), field('fileInfo', [{ name: 'Notes', caption: null }])], { query: `?id=${old.id}` });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ name: 'Notes', alternativeText: 'Alt', caption: null, width: null, height: null, formats: {}, mime: 'text/plain', ext: '.txt', url: old.url });
    expect(objectsOf(old.hash)).toEqual([`${old.hash}.txt`]);
    const served = await fetchAll(u.t.url + old.url);
    expect(served.body.toString()).toBe('plain words');
    expect(served.headers.get('content-type')).toBe('text/plain');
  });

  it('content its address would not be served as is refused, changing nothing: a text for a picture, a picture for a PDF', async () => {
    const picture = (await u.upload([filePart(await png(300, 200), 'kept.png', 'image/png')])).body[0];
    const text = await u.upload([filePart('plain words', 'notes.txt', 'text/plain')], { query: `?id=${picture.id}` });
    expect(text.body).toEqual(errorOf(400, 'ValidationError', "The new file is text/plain, which the file's address (….png) is not served as: upload it as a new file"));
    const pdf = (await u.upload([filePart('%PDF-1.4\n%\u00e2\u00e3\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF', 'doc.pdf', 'application/pdf')])).body[0];
    const image = await u.upload([filePart(await png(30, 20), 'pic.png', 'image/png')], { query: `?id=${pdf.id}` });
    expect(image.body).toEqual(errorOf(400, 'ValidationError', "The new file is image/png, which the file's address (….pdf) is not served as: upload it as a new file"));
    expect((await u.t.get(`/api/upload/files/${picture.id}`)).body).toEqual(picture);
    expect(pngSize(picture.url)).toEqual([300, 200]);
    expect(objectsOf(picture.hash)).toEqual([`${picture.hash}.png`, `thumbnail_${picture.hash}.png`]);
  });

  it("gets Strapi 5.54's refusals first: several files, a bad fileInfo, an unknown id; then the file's own checks, changing nothing", async () => {
    const up = await u.upload([filePart('x', 'keep.txt', 'text/plain')]);
    const id = up.body[0].id as number;
    const several = await u.upload([filePart('a', 'a.txt', 'text/plain'), filePart('b', 'b.txt', 'text/plain')], { query: `?id=${id}` });
    expect(several.body).toEqual(errorOf(400, 'ValidationError', 'Cannot replace a file with multiple ones'));
    const message = 'fileInfo.focalPoint.x must be less than or equal to 100';
    const badInfo = await u.upload([filePart('a', 'a.txt', 'text/plain'), field('fileInfo', { focalPoint: { x: 500, y: 1 } })], { query: '?id=999999' });
    expect(badInfo.body).toEqual(errorOf(400, 'ValidationError', message, { errors: [{ path: ['fileInfo', 'focalPoint', 'x'], message, name: 'ValidationError', value: 500 }] }));
    const cast = 'fileInfo must be a `object` type, but the final value was: `null` (cast from the value `1`).';
    const notObject = await u.upload([filePart('a', 'a.txt', 'text/plain'), { name: 'fileInfo', value: '[1]' }], { query: `?id=${id}` });
    expect(notObject.body).toEqual(errorOf(400, 'ValidationError', cast, { errors: [{ path: ['fileInfo'], message: cast, name: 'ValidationError', value: null }] }));
    for (const missing of ['999999', 'abc']) {
      const r = await u.upload([filePart('a', 'a.txt', 'text/plain')], { query: `?id=${missing}` });
      expect(r.body, missing).toEqual(errorOf(404, 'NotFoundError', 'Entity not found'));
    }
    const badName = await u.upload([filePart('a', 'a?b.txt', 'text/plain')], { query: `?id=${id}` });
    expect(badName.body).toEqual(errorOf(400, 'ApplicationError', 'File name contains invalid characters'));
    const notImage = await u.upload([filePart('not a picture', 'fake.png', 'image/png')], { query: `?id=${id}` });
    expect(notImage.body).toEqual(errorOf(400, 'ApplicationError', 'File is not a valid image'));
    const now = await u.t.get(`/api/upload/files/${id}`);
    expect(now.body).toEqual(up.body[0]);
    expect((await fetchAll(u.t.url + now.body.url)).body.toString()).toBe('x');
  });

  it('ref, refId and field sent with a replacement link nothing, as in Strapi 5.54', async () => {
    const up = await u.upload([filePart(await png(20, 20), 'lone.png', 'image/png')]);
    const article = await u.t.request('POST', '/api/articles', { body: { data: { title: 'no link' } } });
    const parts = [
      filePart(await png(30, 30), 'lone2.png', 'image/png'),
      { name: 'ref', value: 'api::article.article' },
      { name: 'refId', value: String(article.body.data.id) },
      { name: 'field', value: 'cover' },
    ];
    const r = await u.upload(parts, { query: `?id=${up.body[0].id}` });
    expect(r.status).toBe(200);
    expect((await u.t.get(`/api/articles/${article.body.data.documentId}?populate=cover`)).body.data.cover).toBeNull();
  });

  it('six simultaneous replacements of one file: the row ends as one of them, and its objects are exactly that one\u2019s', async () => {
    const up = await u.upload([filePart(await png(800, 600), 'raced.png', 'image/png')]);
    const { id, hash } = up.body[0] as { id: number; hash: string };
    const sizes: [number, number][] = [
      [1200, 900],
      [100, 100],
      [600, 400],
      [1100, 700],
      [300, 200],
      [900, 900],
    ];
    const pictures = await Promise.all(sizes.map(([w, h], i) => png(w, h, { r: 40 * i, g: 10, b: 200 - 30 * i })));
    const answers = await Promise.all(pictures.map((p, i) => u.upload([filePart(p, `r${i}.png`, 'image/png')], { query: `?id=${id}` })));
    expect(answers.map((a) => a.status)).toEqual(sizes.map(() => 200));
    const final = (await u.t.get(`/api/upload/files/${id}`)).body;
    const winner = Number(/^r(\d)\.png$/.exec(final.name)![1]);
    expect([final.width, final.height]).toEqual(sizes[winner]);
    expect(pngSize(final.url)).toEqual(sizes[winner]);
    expect(Math.round((statSync(pathOf(final.url)).size / 1000) * 100) / 100).toBe(final.size);
    const formats = final.formats as Record<string, Format>;
    for (const fmt of Object.values(formats)) expect(statSync(pathOf(fmt.url)).size).toBe(fmt.sizeInBytes);
    expect(objectsOf(hash)).toEqual([`${hash}.png`, ...Object.keys(formats).map((k) => `${k}_${hash}.png`)].sort());
  });

  it('a replacement racing a DELETE: either the replacement answers 404 or the DELETE removes the new objects; nothing is left (3 rounds)', async () => {
    for (let round = 0; round < 3; round++) {
      const up = await u.upload([filePart(await png(300, 200), `gone${round}.png`, 'image/png')]);
      const { id, hash } = up.body[0] as { id: number; hash: string };
      const [replaced, deleted] = await Promise.all([
        u.upload([filePart(await png(1200, 800), `new${round}.png`, 'image/png')], { query: `?id=${id}` }),
        u.t.request('DELETE', `/api/upload/files/${id}`),
      ]);
      expect(deleted.status).toBe(200);
      expect([200, 404]).toContain(replaced.status);
      expect((await u.t.get(`/api/upload/files/${id}`)).status).toBe(404);
      expect(objectsOf(hash)).toEqual([]);
      expect(existsSync(join(u.uploadsDir, `${hash}.png`))).toBe(false);
    }
  });
});

describe('pending replacements left behind', () => {
  it("a replacement's pending file left by a process that ended mid-copy is removed at the next start; a young one, maybe another process's, stays", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'folio-uploads-'));
    const stale = join(dir, '.0123456789abcdef.replacing');
    const young = join(dir, '.fedcba9876543210.replacing');
    const other = join(dir, '.0123456789abcdef.txt');
    for (const f of [stale, young, other]) writeFileSync(f, 'bytes');
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    utimesSync(stale, twoHoursAgo, twoHoursAgo);
    utimesSync(other, twoHoursAgo, twoHoursAgo);
    const app = await startUploadApp({ UPLOAD_DIR: dir });
    try {
      expect(existsSync(stale)).toBe(false);
      expect(existsSync(young)).toBe(true);
      expect(existsSync(other)).toBe(true);
    } finally {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
