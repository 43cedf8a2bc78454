// Images: dimensions, a full-decode validity check, and the thumbnail + responsive formats.
// Everything reads from and writes to files; libvips streams, so memory doesn't follow file size.
import { join } from 'node:path';
import type { ResizeFormat } from './image-jobs.js';
import type { ImageProcessor } from './image-process.js';
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
export async function inspectImage(images: ImageProcessor, path: string, maxPixels: number): Promise<Dimensions> {
  const { width, height } = await images.run({ op: 'inspect', path, maxPixels });
  return { width, height };
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

/** Writes each format into `dir`, one at a time (bounded memory and CPU per request). */
export async function generateFormats(
  images: ImageProcessor,
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
  return out;
}
