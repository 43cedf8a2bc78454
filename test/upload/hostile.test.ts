// Bad and hostile input: never a 500, never a stray object or row, never markup served inline.
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, fetchAll, field, filePart, png, send, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
beforeAll(async () => {
  u = await startUploadApp();
});
afterAll(async () => {
  await u.close();
});

const filesAreEmpty = errorOf(400, 'ValidationError', 'Files are empty');
const notAnImage = errorOf(400, 'ApplicationError', 'File is not a valid image');
const badName = errorOf(400, 'ApplicationError', 'File name contains invalid characters');

async function fileCount(app: UploadApp = u): Promise<number> {
  const r = await app.t.app.database.db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll().as('c'))
    .executeTakeFirstOrThrow();
  return Number(r.c);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A well-formed PNG header announcing width × height, with one tiny IDAT: a decompression bomb's shape. */
function pngClaiming(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.writeUInt8(8, 8); // bit depth
  ihdr.writeUInt8(0, 9); // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1024))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('requests that are not an upload', () => {
  it('a JSON body is 400 "Files are empty" (as Strapi)', async () => {
    const r = await u.t.request('POST', '/api/upload', { body: { files: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(filesAreEmpty);
  });

  it('a text body, or none, is 400 "Files are empty"', async () => {
    expect((await u.t.request('POST', '/api/upload', { raw: 'hello', headers: { 'content-type': 'text/plain' } })).body).toEqual(filesAreEmpty);
    const none = await u.t.request('POST', '/api/upload');
    expect(none.status).toBe(400);
    expect(none.body).toEqual(filesAreEmpty);
  });

  it('a form without a `files` part is 400 "Files are empty"', async () => {
    expect((await u.upload([field('fileInfo', { name: 'x' })])).body).toEqual(filesAreEmpty);
    const wrongField = await u.upload([{ name: 'file', value: Buffer.from('x'), filename: 'x.txt', type: 'text/plain' }]);
    expect(wrongField.status).toBe(400);
    expect(wrongField.body).toEqual(filesAreEmpty);
  });

  it('a `files` part naming no file is a file when it says its type, named "unamed" as Strapi 5.54 names it; a part saying neither is a text field', async () => {
    // Node's form-data sends a Buffer appended without a name this way
    const octets = await u.uploadRaw([{ name: 'files', value: Buffer.from([0, 1, 2, 3, 250, 251]), type: 'application/octet-stream' }]);
    expect(octets.status, JSON.stringify(octets.body)).toBe(201);
    expect(octets.body[0]).toMatchObject({ name: 'unamed', ext: '.bin', mime: 'application/octet-stream' });
    const image = await u.uploadRaw([{ name: 'files', value: await png(1, 1), type: 'image/png' }]);
    expect(image.status, JSON.stringify(image.body)).toBe(201);
    expect(image.body[0]).toMatchObject({ name: 'unamed', ext: '.png', mime: 'image/png', width: 1, height: 1 });
    for (const type of [undefined, 'text/plain']) {
      const text = await u.uploadRaw([{ name: 'files', value: 'hello', ...(type ? { type } : {}) }]);
      expect(text.status, String(type)).toBe(400);
      expect(text.body).toEqual(filesAreEmpty);
    }
    for (const stored of [octets, image]) expect((await u.t.request('DELETE', `/api/upload/files/${stored.body[0].id}`)).status).toBe(200);
  });

  it('one file of no bytes is no file, as in Strapi 5.54: "Files are empty", or with ?id= an update of that file\'s info; beside another file it is stored as the type it was sent as', async () => {
    const before = await fileCount();
    expect((await u.upload([filePart(Buffer.alloc(0), 'empty.bin')])).body).toEqual(filesAreEmpty);
    expect(await fileCount()).toBe(before);
    const two = await u.upload([filePart(Buffer.alloc(0), 'empty.bin'), filePart('x', 'x.txt', 'text/plain')]);
    expect(two.status, JSON.stringify(two.body)).toBe(201);
    expect(two.body[0]).toMatchObject({ name: 'empty.bin', ext: '.bin', mime: 'application/octet-stream', size: 0 });
    const id = two.body[1].id as number;
    const info = await u.upload([filePart(Buffer.alloc(0), 'empty.bin'), field('fileInfo', { caption: 'via empty' })], { query: `?id=${id}` });
    expect(info.status, JSON.stringify(info.body)).toBe(200);
    expect(info.body).toMatchObject({ id, caption: 'via empty', name: 'x.txt' });
    for (const f of two.body as { id: number }[]) expect((await u.t.request('DELETE', `/api/upload/files/${f.id}`)).status).toBe(200);
  });

  it('a malformed multipart body is a 400, not a 500', async () => {
    const truncated = await send(u.t, 'POST', '/api/upload', Buffer.from('--abc\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\n\r\nhal'), {
      'content-type': 'multipart/form-data; boundary=abc',
    });
    expect(truncated.status).toBe(400);
    expect(truncated.body.error.name).toBe('ValidationError');
    const noBoundary = await send(u.t, 'POST', '/api/upload', Buffer.from('x'), { 'content-type': 'multipart/form-data' });
    expect(noBoundary.status).toBe(400);
    expect(await fileCount()).toBe(0);
  });

  it("the upload plugin's multipart parser leaves content routes alone", async () => {
    const r = await u.t.request('POST', '/api/articles', {
      raw: (() => {
        const f = new FormData();
        f.append('data', '{"title":"x"}');
        return f;
      })(),
    });
    expect(r.status).toBe(400);
    expect(r.body).toEqual(errorOf(400, 'ValidationError', 'Missing "data" payload in the request body'));
    const json = await u.t.request('POST', '/api/tags', { body: { data: { label: 'still json' } } });
    expect(json.status).toBe(201);
  });
});

describe('fileInfo', () => {
  it('invalid JSON is a 400 (Strapi 5.54 answers 500): the object cast of yup, which leaves null', async () => {
    const r = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', '{nope')]);
    expect(r.status).toBe(400);
    const message = 'fileInfo must be a `object` type, but the final value was: `null` (cast from the value `"{nope"`).';
    expect(r.body).toEqual(errorOf(400, 'ValidationError', message, { errors: [{ path: ['fileInfo'], message, name: 'ValidationError', value: null }] }));
  });

  it("is cast as Strapi 5.54's yup casts it: numbers and booleans become text, a focal point that is no object is none", async () => {
    const ok = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', { name: true, caption: 5, alternativeText: false, focalPoint: 5 })]);
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body[0]).toMatchObject({ name: 'true', caption: '5', alternativeText: 'false', focalPoint: null });
    expect((await u.t.request('DELETE', `/api/upload/files/${ok.body[0].id}`)).status).toBe(200);
    const bad = async (info: unknown): Promise<unknown> => (await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', info)])).body;
    const err = (path: string[], message: string, value: unknown): unknown =>
      errorOf(400, 'ValidationError', message, { errors: [{ path, message, name: 'ValidationError', value }] });
    expect(await bad([1])).toEqual(err(['fileInfo'], 'fileInfo must be a `object` type, but the final value was: `null` (cast from the value `1`).', null));
    expect(await bad(null)).toEqual(err(['fileInfo'], 'fileInfo must be a `object` type, but the final value was: `null`.', null));
    expect(await bad({ name: [1] })).toEqual(err(['fileInfo', 'name'], 'fileInfo.name must be a `string` type, but the final value was: `[\n  "1"\n]`.', [1]));
    const nan = (await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', { focalPoint: { x: 'a', y: 200 } })])).body;
    expect(nan).toEqual(
      errorOf(400, 'ValidationError', '2 errors occurred', {
        errors: [
          {
            path: ['fileInfo', 'focalPoint', 'x'],
            message: 'fileInfo.focalPoint.x must be a `number` type, but the final value was: `NaN` (cast from the value `"a"`).',
            name: 'ValidationError',
            value: null,
          },
          { path: ['fileInfo', 'focalPoint', 'y'], message: 'fileInfo.focalPoint.y must be less than or equal to 100', name: 'ValidationError', value: 200 },
        ],
      }),
    );
  });

  it('a focal point out of range is a 400 naming the path (single and multiple files)', async () => {
    const one = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', { focalPoint: { x: 200, y: 1 } })]);
    expect(one.status).toBe(400);
    expect(one.body).toEqual(
      errorOf(400, 'ValidationError', 'fileInfo.focalPoint.x must be less than or equal to 100', {
        errors: [{ path: ['fileInfo', 'focalPoint', 'x'], message: 'fileInfo.focalPoint.x must be less than or equal to 100', name: 'ValidationError', value: 200 }],
      }),
    );
    const two = await u.upload([
      filePart('x', 'x.txt', 'text/plain'),
      filePart('y', 'y.txt', 'text/plain'),
      field('fileInfo', { name: 'ok' }),
      field('fileInfo', { name: 5, focalPoint: { x: -1 } }),
    ]);
    // the body Strapi 5.54 answers (its name 5 is cast to "5")
    expect(two.body).toEqual(
      errorOf(400, 'ValidationError', '2 errors occurred', {
        errors: [
          { path: ['fileInfo', '1', 'focalPoint', 'x'], message: 'fileInfo[1].focalPoint.x must be greater than or equal to 0', name: 'ValidationError', value: -1 },
          { path: ['fileInfo', '1', 'focalPoint', 'y'], message: 'fileInfo[1].focalPoint.y is a required field', name: 'ValidationError' },
        ],
      }),
    );
    expect(await fileCount()).toBe(0);
  });

  it('more fileInfo entries than files is a 400 (never applied to the wrong file)', async () => {
    const r = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', { name: 'a' }), field('fileInfo', { name: 'b' })]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(errorOf(400, 'ValidationError', '2 fileInfo entries were sent for 1 file(s): send at most one per file, in the order of the files'));
  });
});

describe('file names', () => {
  it('a path in the name never reaches the file system: such a name is refused (as Strapi 5.54), nothing is stored', async () => {
    const before = await fileCount();
    const names = ['../../evil.txt', '/etc/passwd', '..\\..\\win.txt', 'C:\\temp\\x.txt', '..'];
    for (const name of names) {
      const r = await u.uploadRaw([filePart('payload', name, 'text/plain')]);
      expect(r.body, name).toEqual(badName);
    }
    expect(await fileCount()).toBe(before);
    expect(existsSync(join(dirname(u.uploadsDir), 'evil.txt'))).toBe(false);
    const r = await u.uploadRaw([filePart('payload', 'plain.txt', 'text/plain')]);
    const f = r.body[0];
    expect(f.url).toBe(`/uploads/${f.hash}${f.ext}`);
    const stored = readdirSync(u.uploadsDir);
    expect(stored.every((n) => /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(n))).toBe(true);
  });

  it('a fileInfo name is a label only: slashes stay in the name, never in the hash', async () => {
    const r = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('fileInfo', { name: '../../../up/there.txt' })]);
    expect(r.status).toBe(201);
    expect(r.body[0].name).toBe('../../../up/there.txt');
    // the hash is of the last segment, as Strapi 5.54 takes it
    expect(r.body[0].hash).toMatch(/^there_[0-9a-f]{10}$/);
    expect(r.body[0].url).toMatch(/^\/uploads\/there_[0-9a-f]{10}\.txt$/);
  });

  it('control characters (NUL) in a name are a 400', async () => {
    const before = await fileCount();
    const raw = await u.uploadRaw([filePart('x', 'a\u0000.txt', 'text/plain')]);
    expect(raw.status).toBe(400);
    expect(raw.body).toEqual(badName);
    const info = await u.upload([filePart('x', 'ok.txt', 'text/plain'), field('fileInfo', { name: 'bad\u0000name' })]);
    expect(info.body).toEqual(badName);
    expect(await fileCount()).toBe(before);
  });

  it("a name of more than 255 characters: sent as the file name, Strapi 5.54's invalid-characters 400; as fileInfo.name, a 400 saying so (Strapi answers 500)", async () => {
    const before = await fileCount();
    const sent = await u.upload([filePart('x', `${'n'.repeat(300)}.txt`, 'text/plain')]);
    expect(sent.body).toEqual(badName);
    const label = await u.upload([filePart('x', 'ok.txt', 'text/plain'), field('fileInfo', { name: 'n'.repeat(300) })]);
    expect(label.body).toEqual(errorOf(400, 'ApplicationError', 'File name must be at most 255 characters'));
    const changed = await u.upload([filePart('x', 'ok.txt', 'text/plain')]);
    const update = await u.upload([field('fileInfo', { name: 'n'.repeat(256) })], { query: `?id=${changed.body[0].id}` });
    expect(update.body).toEqual(errorOf(400, 'ApplicationError', 'File name must be at most 255 characters'));
    expect(await fileCount()).toBe(before + 1);
    const fits = await u.upload([filePart('x', 'ok.txt', 'text/plain'), field('fileInfo', { name: 'é'.repeat(255) })]);
    expect(fits.status).toBe(201);
  });

  it('the name a file is sent under is refused as Strapi 5.54 refuses it: a path, reserved characters, a Windows device name', async () => {
    const before = await fileCount();
    for (const name of ['../../evil.txt', 'dir/a.txt', 'C:\\fakepath\\a.txt', 'what?.txt', 'a<b>.txt', 'a|b.txt', 'star*.txt', 'time: 10.txt', 'CON', 'lpt1']) {
      const r = await u.upload([filePart('x', name, 'text/plain')]);
      expect(r.body, name).toEqual(badName);
    }
    expect(await fileCount()).toBe(before);
    // fileInfo.name is a label only: Strapi takes these there, and so does Folio
    const renamed = await u.upload([filePart('x', 'con.txt', 'text/plain'), field('fileInfo', { name: 'what? a|b.txt' })]);
    expect(renamed.status).toBe(201);
    expect(renamed.body[0].name).toBe('what? a|b.txt');
  });
});

describe('file types are decided by the bytes', () => {
  it('HTML renamed .png and declared image/png is refused', async () => {
    const before = await fileCount();
    const r = await u.upload([filePart('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>', 'cat.png', 'image/png')]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(errorOf(400, 'ValidationError', "File type 'text/html' is not allowed"));
    const bare = await u.upload([filePart('  <script>alert(1)</script>', 'x.jpg', 'image/jpeg')]);
    expect(bare.body).toEqual(errorOf(400, 'ValidationError', "File type 'text/html' is not allowed"));
    expect(await fileCount()).toBe(before);
  });

  it('SVG with a script renamed .png is refused; as .svg it is stored but only ever served as an attachment', async () => {
    const svg = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const renamed = await u.upload([filePart(svg, 'logo.png', 'image/png')]);
    expect(renamed.status).toBe(400);
    expect(renamed.body).toEqual(notAnImage);
    const r = await u.upload([filePart(svg, 'logo.svg', 'image/svg+xml')]);
    expect(r.status).toBe(201);
    expect(r.body[0]).toMatchObject({ mime: 'image/svg+xml', ext: '.svg', width: null, formats: null, name: 'logo.svg' });
    const res = await fetchAll(u.t.url + r.body[0].url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${r.body[0].hash}.svg"`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none'; sandbox");
    expect(res.body.toString()).toBe(svg);
  });

  it("an SVG answers the width and height it declares (or its viewBox's), as Strapi reads them; it gets no formats", async () => {
    const sized = await u.upload([filePart('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"></svg>', 'logo.svg', 'image/svg+xml')]);
    expect(sized.body[0]).toMatchObject({ mime: 'image/svg+xml', width: 100, height: 50, formats: null });
    const boxed = await u.upload([filePart('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 30 20"></svg>', 'box.svg', 'image/svg+xml')]);
    expect(boxed.body[0]).toMatchObject({ width: 30, height: 20 });
    for (const f of [sized.body[0], boxed.body[0]] as { id: number }[]) expect((await u.t.request('DELETE', `/api/upload/files/${f.id}`)).status).toBe(200);
  });

  it('SVG (or anything else) under a neutral name keeps its real type and extension', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const r = await u.upload([filePart(svg, 'drawing.dat', 'application/octet-stream')]);
    expect(r.body[0]).toMatchObject({ mime: 'image/svg+xml', ext: '.svg' });
    expect((await fetchAll(u.t.url + r.body[0].url)).headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('text claiming to be a PNG is not a valid image; named .md it is text/plain and an attachment', async () => {
    expect((await u.upload([filePart('just words', 'photo.png', 'image/png')])).body).toEqual(notAnImage);
    expect((await u.upload([filePart('just words', 'photo.txt', 'image/jpeg')])).body).toEqual(notAnImage);
    const r = await u.upload([filePart('# just words', 'notes.md', 'text/markdown')]);
    expect(r.body[0]).toMatchObject({ mime: 'text/markdown', ext: '.md', width: null });
    const res = await fetchAll(u.t.url + r.body[0].url);
    expect(res.headers.get('content-type')).toBe('text/markdown');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it("a text file's name says which text it is, whatever type it was sent as (Strapi 5.54 reads the extension): a.csv sent as text/plain stays a CSV", async () => {
    for (const [name, declared, mime, ext] of [
      ['table.csv', 'text/plain', 'text/csv', '.csv'],
      ['table.csv', 'application/vnd.ms-excel', 'text/csv', '.csv'],
      ['notes.md', 'text/plain', 'text/markdown', '.md'],
      ['data.json', 'text/plain', 'application/json', '.json'],
      ['table.csv', 'text/html', 'text/csv', '.csv'],
    ] as const) {
      const r = await u.upload([filePart('a,b\n1,2\n', name, declared)]);
      expect(r.status, r.text).toBe(201);
      expect(r.body[0], `${name} ${declared}`).toMatchObject({ mime, ext });
    }
    // markup in it is still found, whatever it is named, and refused
    const page = await u.upload([filePart('<html><script>x</script></html>', 'table.csv', 'text/csv')]);
    expect(page.body).toEqual(errorOf(400, 'ValidationError', "File type 'text/html' is not allowed"));
  });

  it('a real PNG declared as text keeps being a PNG', async () => {
    const r = await u.upload([filePart(await png(10, 10), 'notes.txt', 'text/plain')]);
    expect(r.body[0]).toMatchObject({ mime: 'image/png', ext: '.png', width: 10, height: 10 });
  });

  it('unknown binary content is application/octet-stream and an attachment', async () => {
    const r = await u.upload([filePart(Buffer.from([0, 1, 2, 3, 0, 255, 0]), 'blob.mp4', 'video/mp4')]);
    expect(r.body[0]).toMatchObject({ mime: 'application/octet-stream', ext: '.bin' });
    const res = await fetchAll(u.t.url + r.body[0].url);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
  });

  it('binary content no signature names keeps the type it was sent as, or its extension has, when that type is never shown inline (as Strapi 5.54 takes it)', async () => {
    const bytes = Buffer.from([0, 1, 2, 3, 0, 255, 0, 80, 75]);
    const stl = await u.upload([filePart(bytes, 'part.stl', 'model/stl')]);
    expect(stl.body[0]).toMatchObject({ mime: 'model/stl', ext: '.stl' });
    // sent as octet-stream, as browsers send a type they don't know: the extension names it
    const doc = await u.upload([filePart(bytes, 'report.docx', 'application/octet-stream')]);
    expect(doc.body[0]).toMatchObject({ mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', ext: '.docx' });
    const font = await u.upload([filePart(bytes, 'face', 'font/woff2')]);
    expect(font.body[0]).toMatchObject({ mime: 'font/woff2', ext: '.woff2' });
    for (const r of [stl, doc, font]) {
      const res = await fetchAll(u.t.url + r.body[0].url);
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(res.body.equals(bytes)).toBe(true);
    }
    // a claimed image, page, script or inline medium is not taken on trust
    for (const [name, type] of [
      ['song.mp3', 'audio/mpeg'],
      ['alias.mp3', 'audio/mp3'],
      ['clip', 'video/x-m4v'],
      ['x.js', 'text/javascript'],
      ['x.xhtml', 'application/xhtml+xml'],
      ['data.json', 'application/json'],
      ['feed.rss', 'application/rss+xml'],
      ['doc.pdf', 'application/pdf'],
    ] as const) {
      const r = await u.upload([filePart(bytes, name, type)]);
      expect(r.body[0].mime, name).toBe('application/octet-stream');
      // an extension Folio serves as another type is replaced; one it doesn't know is kept
      expect(r.body[0].ext, name).toBe(name === 'feed.rss' ? '.rss' : '.bin');
      const served = await fetchAll(u.t.url + r.body[0].url);
      expect(served.headers.get('content-disposition'), name).toMatch(/^attachment/);
    }
  });
});

describe('images that are not valid are 400 "File is not a valid image"', () => {
  it('a PNG signature followed by garbage', async () => {
    const r = await u.upload([filePart(Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(200, 7)]), 'bad.png', 'image/png')]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(notAnImage);
  });

  it('a truncated PNG and a truncated JPEG', async () => {
    const full = await png(640, 480, { r: 1, g: 2, b: 3 });
    const p = await u.upload([filePart(full.subarray(0, Math.floor(full.length / 2)), 'half.png', 'image/png')]);
    expect(p.body).toEqual(notAnImage);
    const sharp = (await import('sharp')).default;
    const noise = Buffer.alloc(300 * 300 * 3);
    for (let i = 0; i < noise.length; i++) noise[i] = (i * 7919) % 251;
    const jpg = await sharp(noise, { raw: { width: 300, height: 300, channels: 3 } })
      .jpeg()
      .toBuffer();
    const j = await u.upload([filePart(jpg.subarray(0, Math.floor(jpg.length / 2)), 'half.jpg', 'image/jpeg')]);
    expect(j.body).toEqual(notAnImage);
  });

  it('a decompression bomb (a PNG announcing 30000 × 30000 pixels)', async () => {
    const r = await u.upload([filePart(pngClaiming(30000, 30000), 'bomb.png', 'image/png')]);
    expect(r.status).toBe(400);
    expect(r.body).toEqual(notAnImage);
  });

  it('one bad image fails the whole request: nothing of the good files is stored', async () => {
    const before = await fileCount();
    const onDisk = readdirSync(u.uploadsDir).length;
    const bad = await png(640, 480, { r: 9, g: 9, b: 9 });
    const r = await u.upload([filePart(await png(600, 600), 'good.png', 'image/png'), filePart(bad.subarray(0, bad.length - 40), 'bad.png', 'image/png')]);
    expect(r.status).toBe(400);
    expect(await fileCount()).toBe(before);
    expect(readdirSync(u.uploadsDir)).toHaveLength(onDisk);
  });
});

describe('GET /uploads/… serves only stored names', () => {
  it("hidden and missing names are 404; a name climbing above the public folder is Strapi 5.54's 403", async () => {
    for (const path of ['/uploads/../package.json', '/uploads/%2e%2e%2fpackage.json', '/uploads/.hidden', '/uploads/', '/uploads/nope.png']) {
      const res = await fetchAll(u.t.url + path);
      expect(res.status, path).toBe(404);
    }
    const climbing = await fetchAll(`${u.t.url}/uploads/..%2F..%2Fpackage.json`);
    expect(climbing.status).toBe(403);
  });
});

describe('limits', () => {
  let small: UploadApp;
  beforeAll(async () => {
    small = await startUploadApp({ UPLOAD_SIZE_LIMIT: String(1024 * 1024), UPLOAD_MAX_FILES: '3' });
  });
  afterAll(async () => {
    await small.close();
  });

  it('a file over the size limit is a 413 with a clear message, and nothing is stored', async () => {
    const r = await small.upload([filePart(Buffer.alloc(2 * 1024 * 1024, 1), 'big.bin')]);
    expect(r.status).toBe(413);
    expect(r.body).toEqual(errorOf(413, 'PayloadTooLargeError', 'big.bin exceeds size limit of 1 MB.'));
    expect(await fileCount(small)).toBe(0);
    expect(readdirSync(small.uploadsDir)).toEqual([]);
  });

  it('one file over the limit among several: 413 and none stored', async () => {
    const r = await small.upload([
      filePart('fine', 'fine.txt', 'text/plain'),
      filePart(Buffer.alloc(1024 * 1024 + 1, 2), 'over.bin'),
      filePart('after', 'after.txt', 'text/plain'),
    ]);
    expect(r.status).toBe(413);
    expect(r.body.error.message).toBe('over.bin exceeds size limit of 1 MB.');
    expect(await fileCount(small)).toBe(0);
  });

  it('a file of exactly the limit is accepted', async () => {
    const r = await small.upload([filePart(Buffer.alloc(1024 * 1024, 3), 'exact.bin')]);
    expect(r.status).toBe(201);
    expect(r.body[0].size).toBe(1048.58);
  });

  it('too many files in one request is a 413', async () => {
    const r = await small.upload([1, 2, 3, 4].map((i) => filePart(`f${i}`, `f${i}.txt`, 'text/plain')));
    expect(r.status).toBe(413);
    expect(r.body).toEqual(errorOf(413, 'PayloadTooLargeError', 'Too many files: at most 3 per request'));
  });
});

describe('configured type lists', () => {
  it('with HTML allowed, HTML renamed .txt is stored as .html and served as an attachment, never inline', async () => {
    const open = await startUploadApp({ UPLOAD_DENIED_TYPES: '' });
    try {
      const disguised = await open.upload([filePart('<html><body><script>alert(1)</script></body></html>', 'page.png', 'image/png')]);
      expect(disguised.body).toEqual(notAnImage);
      const r = await open.upload([filePart('<html><body><script>alert(1)</script></body></html>', 'page.txt', 'text/plain')]);
      expect(r.status).toBe(201);
      expect(r.body[0]).toMatchObject({ mime: 'text/html', ext: '.html' });
      const res = await fetchAll(open.t.url + r.body[0].url);
      expect(res.headers.get('content-type')).toBe('text/html');
      expect(res.headers.get('content-disposition')).toMatch(/^attachment/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await open.close();
    }
  });

  it('an allow list refuses other real types whatever they claim to be', async () => {
    const images = await startUploadApp({ UPLOAD_ALLOWED_TYPES: 'image/*' });
    try {
      const r = await images.upload([filePart('words', 'pic.png', 'image/png')]);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(errorOf(400, 'ValidationError', "File type 'text/plain' is not allowed"));
      expect((await images.upload([filePart(await png(5, 5), 'pic.png', 'image/png')])).status).toBe(201);
    } finally {
      await images.close();
    }
  });
});

describe('an upload the client cuts off', () => {
  it('leaves no temporary folder behind, however early the connection closes (30 at once, three rounds)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'folio-cut-uploads-'));
    const app = await startUploadApp({ UPLOAD_TMP_DIR: tmp });
    try {
      const { port } = new URL(app.t.url);
      const cutOff = (afterMs: number) =>
        new Promise<void>((resolve) => {
          const socket = connect(Number(port), '127.0.0.1', () => {
            const head = `--b\r\nContent-Disposition: form-data; name="files"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\npartial`;
            socket.write(
              `POST /api/upload HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.t.token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 100000\r\n\r\n${head}`,
            );
            setTimeout(() => socket.destroy(), afterMs);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => undefined);
        });
      for (const afterMs of [0, 1, 20]) await Promise.all(Array.from({ length: 30 }, () => cutOff(afterMs)));
      // each handler ends once it learns the client is gone, and removes its folder
      const deadline = Date.now() + 5000;
      while (readdirSync(tmp).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(readdirSync(tmp)).toEqual([]);
      // the server still answers uploads
      expect((await app.upload([filePart('whole', 'whole.txt', 'text/plain')])).status).toBe(201);
    } finally {
      await app.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
