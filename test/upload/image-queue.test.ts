// Uploads with images are capped while their work waits or runs: at most UPLOAD_MAX_IMAGE_UPLOADS in
// all and UPLOAD_MAX_IMAGE_UPLOADS_PER_CLIENT from one client (token, user or address). Past a cap an
// upload is refused at once — 429 for the client over its share, 503 when the server is full — and
// nothing of it is stored; uploads without images, and uploads once the work has ended, go through.
// Real uploads sent in parallel over HTTP, real image work in the child process.
import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, filePart, png, startUploadApp, type UploadApp } from './helpers.js';

const TOTAL = 3;
const PER_CLIENT = 2;
let u: UploadApp;
/** a PNG of a few KB whose 25 million pixels take the child seconds to decode, optimize and resize */
let heavy: Buffer;

beforeAll(async () => {
  u = await startUploadApp({ UPLOAD_MAX_IMAGE_UPLOADS: String(TOTAL), UPLOAD_MAX_IMAGE_UPLOADS_PER_CLIENT: String(PER_CLIENT) });
  heavy = await png(5000, 5000);
}, 60_000);
afterAll(async () => {
  await u.close();
});

const uploadImage = (token?: string) => u.upload([filePart(heavy, 'poster.png', 'image/png')], { token });
const PER_CLIENT_REFUSAL = errorOf(429, 'RateLimitError', `Too many uploads with images at once: at most ${PER_CLIENT} per client, send this one when one of them has ended`);
const FULL_REFUSAL = errorOf(503, 'ServiceUnavailableError', `The server is working on as many uploads with images as it takes (${TOTAL}): send this one again shortly`);
const stored = (): number => readdirSync(u.uploadsDir).length;

describe('uploads with images waiting or worked on', () => {
  it('one client gets its share at once; the rest are refused 429 without being stored, and a text file still goes through', async () => {
    const before = stored();
    const [images, text] = await Promise.all([
      Promise.all(Array.from({ length: 5 }, () => uploadImage())),
      // sent while the images are worked on
      new Promise((r) => setTimeout(r, 300)).then(() => u.upload([filePart('notes', 'notes.txt', 'text/plain')])),
    ]);
    const statuses = images.map((r) => r.status).sort();
    expect(statuses).toEqual([201, 201, 429, 429, 429]);
    for (const r of images.filter((x) => x.status === 429)) expect(r.body).toEqual(PER_CLIENT_REFUSAL);
    expect(text.status, text.text).toBe(201);
    // two images (each with its formats) and the text file; nothing of the refused ones
    const made = images.filter((x) => x.status === 201).flatMap((r) => r.body as { formats: Record<string, unknown> | null }[]);
    expect(stored() - before).toBe(made.reduce((n, f) => n + 1 + Object.keys(f.formats ?? {}).length, 0) + 1);
  }, 120_000);

  it('several clients together get at most the server-wide number at once; the others are refused 503 with a retry-after', async () => {
    const tokens = await Promise.all(Array.from({ length: 5 }, () => u.t.tokenOf('full-access')));
    const answers = await Promise.all(tokens.map((t) => uploadImage(t)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 201, 503, 503]);
    for (const r of answers.filter((x) => x.status === 503)) {
      expect(r.body).toEqual(FULL_REFUSAL);
      expect(r.headers.get('retry-after')).toBe('1');
    }
  }, 120_000);

  it('once the work has ended (refused, failed or done), the same client uploads again', async () => {
    const broken = await u.upload([filePart(Buffer.from('not a png at all'), 'broken.png', 'image/png')]);
    expect(broken.status).toBe(400);
    const again = await Promise.all([uploadImage(), uploadImage()]);
    expect(again.map((r) => r.status)).toEqual([201, 201]);
  }, 120_000);
});
