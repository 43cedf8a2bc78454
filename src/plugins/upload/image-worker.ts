// Entry point of the image child process: runs sharp (libvips) jobs sent by image-process.ts.
// It imports nothing of Folio's but the message types, so it starts in a few milliseconds.
import type { SharpOptions } from 'sharp';
import type { ImageJob, ImageReply, ImageRequest, ImageResult } from './image-jobs.js';

type Sharp = (typeof import('sharp'))['default'];

function input(maxPixels: number): SharpOptions {
  return { limitInputPixels: maxPixels, failOn: 'warning' };
}

async function run(sharp: Sharp, job: ImageJob): Promise<ImageResult> {
  if (job.op === 'inspect') {
    const meta = await sharp(job.path, input(job.maxPixels)).metadata();
    if (!meta.width || !meta.height || meta.width * meta.height > job.maxPixels) throw new Error('no usable dimensions');
    // metadata reads the header only; stats decodes every pixel, which is what finds damage
    await sharp(job.path, input(job.maxPixels)).stats();
    return { width: meta.width, height: meta.height, size: 0 };
  }
  if (job.op === 'measure') {
    // a vector image is stored as sent, whatever its header says: a size that can't be read is no size
    try {
      const meta = await sharp(job.path, { limitInputPixels: job.maxPixels }).metadata();
      return { width: meta.width ?? 0, height: meta.height ?? 0, size: 0 };
    } catch {
      return { width: 0, height: 0, size: 0 };
    }
  }
  if (job.op === 'optimize') {
    // written again, the image would lose its EXIF orientation and show turned: left as it is
    const { orientation } = await sharp(job.src, input(job.maxPixels)).metadata();
    if (!job.rotate && orientation !== undefined && orientation !== 1) return { width: 0, height: 0, size: 0 };
    // every frame of an animated image, as Strapi reads it
    const image = sharp(job.src, { ...input(job.maxPixels), animated: true }).toFormat(job.format, { quality: job.quality });
    const info = await (job.rotate ? image.rotate() : image).toFile(job.dest);
    // an animation is written as frames stacked one above the other: its height is one frame's
    return { width: info.width, height: info.pageHeight ?? info.height, size: info.size };
  }
  const info = await sharp(job.src, input(job.maxPixels))
    .resize({ width: job.width, height: job.height, fit: 'inside', withoutEnlargement: true })
    .toFormat(job.format)
    .toFile(job.dest);
  return { width: info.width, height: info.height, size: info.size };
}

const send = (reply: ImageReply): void => {
  process.send?.(reply);
};

// a media library rarely reads one image twice: libvips' cache would only hold memory
const loading: Promise<Sharp | Error> = import('sharp').then(
  (m) => {
    m.default.cache(false);
    return m.default;
  },
  (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
);

// listening at once: a message that arrives before a listener exists is lost
process.on('message', (msg: ImageRequest) => {
  void loading.then(async (sharp) => {
    if (sharp instanceof Error) {
      send({ id: msg.id, ok: false, reason: 'failed', message: `sharp could not be loaded: ${sharp.message}` });
      return;
    }
    try {
      send({ id: msg.id, ok: true, result: await run(sharp, msg) });
    } catch (e) {
      send({ id: msg.id, ok: false, reason: 'invalid', message: e instanceof Error ? e.message : String(e) });
    }
  });
});
// the server went away, or let this process go when idle
process.on('disconnect', () => process.exit(0));
