// Image decoding and resizing run in a child process that comes and goes with the work.
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ApplicationError } from '../../src/errors.js';
import { ImageProcessor } from '../../src/plugins/upload/image-process.js';
import { jpeg } from './helpers.js';
import sharp from 'sharp';

/** a PNG of random pixels: nothing for an encoder to save work on */
async function noise(width: number, height: number): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 2654435761) >>> 24;
  return await sharp(pixels, { raw: { width, height, channels: 3 } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

const MAX = 268_402_689;
let dir: string;
let photo: string;
let images: ImageProcessor;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(cond: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-images-'));
  photo = join(dir, 'photo.jpg');
  writeFileSync(photo, await jpeg(1200, 800));
});
afterEach(async () => {
  await images.close();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the image child process', () => {
  it('measures and resizes in a child, not in the server process, and leaves when idle', async () => {
    images = new ImageProcessor({ idleMs: 200 });
    expect(images.pid).toBeNull();
    expect(await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).toEqual({ width: 1200, height: 800, size: 0 });
    const pid = images.pid;
    expect(pid).not.toBeNull();
    expect(pid).not.toBe(process.pid);
    const dest = join(dir, 'small.jpg');
    const r = await images.run({ op: 'resize', src: photo, dest, format: 'jpeg', width: 500, height: 500, maxPixels: MAX });
    expect(r).toEqual({ width: 500, height: 333, size: statSync(dest).size });
    expect(images.pid).toBe(pid);
    await until(() => !alive(pid!));
    expect(images.pid).toBeNull();
    // the next image starts a new one
    expect((await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).width).toBe(1200);
    expect(images.pid).not.toBe(pid);
  });

  it('an image that fails to decode is "File is not a valid image", and the child stays for the next', async () => {
    images = new ImageProcessor();
    const junk = join(dir, 'junk.png');
    writeFileSync(junk, Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.alloc(64, 7)]));
    const err = await images.run({ op: 'inspect', path: junk, maxPixels: MAX }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationError);
    expect((err as Error).message).toBe('File is not a valid image');
    const pid = images.pid;
    expect((await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).height).toBe(800);
    expect(images.pid).toBe(pid);
  });

  it('a child that dies mid-job (a decoder crash) refuses that file, and the next image gets a new child', async () => {
    images = new ImageProcessor();
    const job = images.run({ op: 'resize', src: photo, dest: join(dir, 'never.jpg'), format: 'jpeg', width: 100, height: 100, maxPixels: MAX });
    const pid = images.pid!;
    process.kill(pid, 'SIGKILL');
    const err = await job.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationError);
    expect((err as Error).message).toBe('File is not a valid image');
    expect((await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).width).toBe(1200);
    expect(images.pid).not.toBe(pid);
  });

  it('a job running past its time ends its child and refuses that file; the next image gets a new child', async () => {
    images = new ImageProcessor({ jobTimeoutMs: 1500 });
    // the child started and warm: the time below is the job's own
    expect((await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).width).toBe(1200);
    const pid = images.pid!;
    // an AVIF of 4,000 × 4,000 takes the encoder many seconds
    const big = join(dir, 'big.png');
    writeFileSync(big, await noise(4000, 4000));
    const started = Date.now();
    const err = await images.run({ op: 'optimize', src: big, dest: join(dir, 'big.avif'), format: 'avif', quality: 90, rotate: false, maxPixels: MAX }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationError);
    expect((err as Error).message).toBe('The image took longer than 1.5 s to process: send a smaller one');
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(alive(pid)).toBe(false);
    expect((await images.run({ op: 'inspect', path: photo, maxPixels: MAX })).width).toBe(1200);
    expect(images.pid).not.toBe(pid);
  });

  // the child works on one job at a time: a crash is the file being decoded, and parallel uploads
  // of huge images don't each take their decoding memory at once
  it('a decoder crash refuses only the job it was working on; jobs waiting their turn are answered by the next child', async () => {
    images = new ImageProcessor();
    const crashing = images.run({ op: 'resize', src: photo, dest: join(dir, 'crash.jpg'), format: 'jpeg', width: 100, height: 100, maxPixels: MAX });
    const pid = images.pid!;
    const next = images.run({ op: 'inspect', path: photo, maxPixels: MAX });
    process.kill(pid, 'SIGKILL');
    const err = await crashing.catch((e: unknown) => e);
    expect((err as Error).message).toBe('File is not a valid image');
    expect(await next).toEqual({ width: 1200, height: 800, size: 0 });
    expect(images.pid).not.toBe(pid);
  });

  it('a child let go when idle that ends after the next image went to a new child takes no job with it', async () => {
    images = new ImageProcessor({ idleMs: 20 });
    await images.run({ op: 'inspect', path: photo, maxPixels: MAX });
    const first = images.pid!;
    // the moment the idle child is let go, before it has ended
    while (images.pid !== null) await new Promise((r) => setImmediate(r));
    const dest = join(dir, 'after-idle.jpg');
    const next = images.run({ op: 'resize', src: photo, dest, format: 'jpeg', width: 500, height: 500, maxPixels: MAX });
    await until(() => !alive(first));
    expect(await next).toEqual({ width: 500, height: 333, size: statSync(dest).size });
  });

  it('jobs sent together are all answered, each with its own result', async () => {
    images = new ImageProcessor();
    const sizes = [100, 200, 300, 400];
    const results = await Promise.all(
      sizes.map((s) => images.run({ op: 'resize', src: photo, dest: join(dir, `p${s}.jpg`), format: 'jpeg', width: s, height: s, maxPixels: MAX })),
    );
    expect(results.map((r) => r.width)).toEqual(sizes);
  });

  it('close ends the child', async () => {
    images = new ImageProcessor();
    await images.run({ op: 'inspect', path: photo, maxPixels: MAX });
    const pid = images.pid!;
    await images.close();
    expect(alive(pid)).toBe(false);
    expect(images.pid).toBeNull();
  });
});
