// Strapi writes an uploaded JPEG, PNG, WebP, TIFF or AVIF again at quality 80 ("size optimization", on
// by default) and can turn it upright by its EXIF orientation; the stored bytes, `size`, the
// dimensions and the formats are then the rewritten image's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from './helpers.js';

/** A photo-like JPEG (noise compresses badly) at quality 100: quality 80 makes it much smaller. */
async function noisyJpeg(width: number, height: number, orientation?: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 7;
  for (let i = 0; i < pixels.length; i++) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    pixels[i] = seed >> 23;
  }
  const image = sharp(pixels, { raw: { width, height, channels: 3 } }).jpeg({ quality: 100 });
  return (orientation ? image.withMetadata({ orientation }) : image).toBuffer();
}

const stored = (u: UploadApp, file: { url: string }): Buffer => readFileSync(join(u.uploadsDir, file.url.replace(/^\/uploads\//, '')));

describe('size optimization (on by default)', () => {
  let u: UploadApp;
  beforeAll(async () => {
    u = await startUploadApp();
  });
  afterAll(async () => u.close());

  it('stores a JPEG written again at quality 80: smaller, same dimensions, size in kB of the stored bytes', async () => {
    const upload = await noisyJpeg(400, 300);
    const r = await u.upload([filePart(upload, 'photo.jpg', 'image/jpeg')]);
    expect(r.status).toBe(201);
    const f = r.body[0];
    const bytes = stored(u, f);
    expect(bytes.length).toBeLessThan(upload.length * 0.7);
    expect(f.size).toBe(Math.round((bytes.length / 1000) * 100) / 100);
    expect(await sharp(bytes).metadata()).toMatchObject({ format: 'jpeg', width: 400, height: 300 });
    expect([f.width, f.height, f.mime, f.ext]).toEqual([400, 300, 'image/jpeg', '.jpg']);
    // the thumbnail is made from the stored image
    expect(f.formats.thumbnail).toMatchObject({ width: 208, height: 156, mime: 'image/jpeg' });
    const served = await fetch(u.t.url + f.url);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('keeps the upload as sent when writing it again makes it no smaller (Strapi keeps the larger copy)', async () => {
    const upload = await png(2, 2);
    const r = await u.upload([filePart(upload, 'dot.png', 'image/png')]);
    expect(r.status).toBe(201);
    expect(stored(u, r.body[0]).equals(upload)).toBe(true);
    expect(r.body[0].size).toBe(Math.round((upload.length / 1000) * 100) / 100);
  });

  it('leaves GIF and SVG as sent', async () => {
    const gif = await sharp({ create: { width: 300, height: 200, channels: 3, background: { r: 1, g: 2, b: 3 } } })
      .gif()
      .toBuffer();
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10"/></svg>');
    const r = await u.upload([filePart(gif, 'a.gif', 'image/gif'), filePart(svg, 'b.svg', 'image/svg+xml')]);
    expect(r.status).toBe(201);
    expect(stored(u, r.body[0]).equals(gif)).toBe(true);
    expect(stored(u, r.body[1]).equals(svg)).toBe(true);
  });

  it('keeps a photo with an EXIF orientation as sent unless asked to turn it: written again it would lose it (Strapi: shown turned)', async () => {
    const upload = await noisyJpeg(400, 200, 6);
    const r = await u.upload([filePart(upload, 'turned.jpg', 'image/jpeg')]);
    expect([r.body[0].width, r.body[0].height]).toEqual([400, 200]);
    expect(stored(u, r.body[0]).equals(upload)).toBe(true);
  });
});

describe('UPLOAD_SIZE_OPTIMIZATION=false', () => {
  let u: UploadApp;
  beforeAll(async () => {
    u = await startUploadApp({ UPLOAD_SIZE_OPTIMIZATION: 'false' });
  });
  afterAll(async () => u.close());

  it('stores the upload byte for byte', async () => {
    const upload = await noisyJpeg(400, 300);
    const r = await u.upload([filePart(upload, 'photo.jpg', 'image/jpeg')]);
    expect(r.status).toBe(201);
    expect(stored(u, r.body[0]).equals(upload)).toBe(true);
    expect(r.body[0].size).toBe(Math.round((upload.length / 1000) * 100) / 100);
  });
});

describe('UPLOAD_AUTO_ORIENTATION=true', () => {
  let u: UploadApp;
  beforeAll(async () => {
    u = await startUploadApp({ UPLOAD_AUTO_ORIENTATION: 'true', UPLOAD_SIZE_OPTIMIZATION: 'false' });
  });
  afterAll(async () => u.close());

  it('turns a photo upright by its EXIF orientation: the stored image and its dimensions are the turned ones', async () => {
    const r = await u.upload([filePart(await noisyJpeg(40, 20, 6), 'turned.jpg', 'image/jpeg')]);
    expect(r.status).toBe(201);
    expect([r.body[0].width, r.body[0].height]).toEqual([20, 40]);
    const meta = await sharp(stored(u, r.body[0])).metadata();
    expect([meta.width, meta.height, meta.orientation]).toEqual([20, 40, undefined]);
  });
});

it('a setting that is no yes or no stops start-up', async () => {
  await expect(startUploadApp({ UPLOAD_SIZE_OPTIMIZATION: 'sometimes' })).rejects.toThrow('UPLOAD_SIZE_OPTIMIZATION=sometimes: expected true or false');
});
