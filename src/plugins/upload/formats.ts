// Images: dimensions, a full-decode validity check, and the thumbnail + responsive formats.
// Everything reads from and writes to files; libvips streams, so memory doesn't follow file size.
import { join } from 'node:path';
import type { OptimizeFormat, ResizeFormat } from './image-jobs.js';
import type { ImageRunner } from './image-admission.js';
import type { Breakpoint } from './config.js';

const THUMBNAIL = { key: 'thumbnail', width: 245, height: 156 } as const;

/** Types sharp resizes (the output keeps the input's format). */
const RESIZABLE: Readonly<Record<string, ResizeFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/gif': 'gif',
};

/** Types written again smaller on upload, as Strapi's size optimization does (gif and svg are not). */
const OPTIMIZABLE: Readonly<Record<string, OptimizeFormat>> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
  'image/tiff': 'tiff',
  'image/avif': 'avif',
};

/** Types whose dimensions are read (and which must decode) but that are stored as they are. */
const MEASURED: ReadonlySet<string> = new Set([...Object.keys(RESIZABLE), 'image/avif']);

export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

export interface FormatFile extends Dimensions {
  readonly key: string;
  readonly path: string;
  readonly size: number;
}

export function isMeasuredImage(mime: string): boolean {
  return MEASURED.has(mime);
}

/**
 * Width and height of an image whose every pixel decodes. A truncated, corrupt or oversized
 * (decompression bomb) image is a 400, never a crash.
 */
export async function inspectImage(images: ImageRunner, path: string, maxPixels: number): Promise<Dimensions> {
  const { width, height } = await images.run({ op: 'inspect', path, maxPixels });
  return { width, height };
}

/** Types measured from their header only and stored whatever it says, as Strapi reads an SVG's width and height. */
const VECTOR: ReadonlySet<string> = new Set(['image/svg+xml']);

/** The width and height a vector image declares, or null when it declares none Folio can read. */
export async function measureVector(images: ImageRunner, mime: string, path: string, maxPixels: number): Promise<Dimensions | null> {
  if (!VECTOR.has(mime)) return null;
  const { width, height } = await images.run({ op: 'measure', path, maxPixels });
  return width > 0 && height > 0 ? { width, height } : null;
}

interface Target {
  readonly key: string;
  readonly width: number;
  readonly height: number;
}

/** The formats an image of this size gets: thumbnail first, then the breakpoints it exceeds. */
export function plannedFormats(size: Dimensions, breakpoints: readonly Breakpoint[]): Target[] {
  const out: Target[] = [];
  if (size.width > THUMBNAIL.width || size.height > THUMBNAIL.height) out.push(THUMBNAIL);
  for (const b of breakpoints) {
    if (size.width > b.size || size.height > b.size) out.push({ key: b.key, width: b.size, height: b.size });
  }
  return out;
}

/**
 * The formats in the order Strapi 5.54 lists them with its local provider (and so on SQLite, where
 * `formats` is kept as written): it stores the thumbnail, then every responsive format at once, and adds
 * each to `formats` when its write ends, so the thumbnail comes first and the others smallest first
 * (`thumbnail, small, medium, large` by default). Ties keep the planned order.
 */
export function strapiFormatOrder<T extends { readonly key: string; readonly size: number }>(formats: readonly T[]): T[] {
  const thumbnail = formats.filter((f) => f.key === THUMBNAIL.key);
  const rest = formats.filter((f) => f.key !== THUMBNAIL.key);
  return [
    ...thumbnail,
    ...rest
      .map((f, i) => ({ f, i }))
      .sort((a, b) => a.f.size - b.f.size || a.i - b.i)
      .map(({ f }) => f),
  ];
}

/** Writes each format into `dir`, one at a time (bounded memory and CPU per request), in Strapi's order of `formats`. */
export async function generateFormats(
  images: ImageRunner,
  src: string,
  mime: string,
  size: Dimensions,
  breakpoints: readonly Breakpoint[],
  dir: string,
  stem: string,
  maxPixels: number,
): Promise<FormatFile[]> {
  const format = RESIZABLE[mime];
  if (!format) return [];
  const out: FormatFile[] = [];
  for (const t of plannedFormats(size, breakpoints)) {
    const path = join(dir, `${stem}-${t.key}`);
    const info = await images.run({ op: 'resize', src, dest: path, format, width: t.width, height: t.height, maxPixels });
    out.push({ key: t.key, path, width: info.width, height: info.height, size: info.size });
  }
  return strapiFormatOrder(out);
}

export interface Optimization {
  /** write images again at quality 80 (Strapi's `sizeOptimization`, on by default) */
  readonly sizeOptimization: boolean;
  /** turn images upright by their EXIF orientation (Strapi's `autoOrientation`, off by default) */
  readonly autoOrientation: boolean;
}

export interface OptimizedImage extends Dimensions {
  readonly path: string;
  readonly size: number;
}

/**
 * The upload written again as Strapi writes it — at quality 80 with size optimization, 100 for turning
 * it upright alone — or null when it is kept as sent: a copy no smaller than the upload unless it was
 * turned upright (Strapi keeps it: it compares against a size sharp does not report for files), and an
 * image with an EXIF orientation that is not to be turned (written again, it would lose it and show
 * turned, as Strapi's copy does; README).
 */
export async function optimizeImage(
  images: ImageRunner,
  src: string,
  srcSize: number,
  mime: string,
  dest: string,
  how: Optimization,
  maxPixels: number,
): Promise<OptimizedImage | null> {
  const format = OPTIMIZABLE[mime];
  if (!format || !(how.sizeOptimization || how.autoOrientation)) return null;
  const quality = how.sizeOptimization ? 80 : 100;
  const info = await images.run({ op: 'optimize', src, dest, format, quality, rotate: how.autoOrientation, maxPixels });
  if (info.size === 0 || (!how.autoOrientation && info.size >= srcSize)) return null;
  return { path: dest, size: info.size, width: info.width, height: info.height };
}
