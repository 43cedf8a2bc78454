// The messages between the server and its image child process (image-process.ts ↔ image-worker.ts).

/** Decode the whole image and report its size. */
export interface InspectJob {
  readonly op: 'inspect';
  readonly path: string;
  readonly maxPixels: number;
}

/** Read an image's size from its header, nothing decoded; 0 × 0 when none can be read (an SVG without one). */
export interface MeasureJob {
  readonly op: 'measure';
  readonly path: string;
  readonly maxPixels: number;
}

/** The formats sharp writes a resized copy in (the copy keeps its original's format). */
export type ResizeFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'gif';

/** Write a copy scaled to fit inside width × height (never enlarged), in the given format. */
export interface ResizeJob {
  readonly op: 'resize';
  readonly src: string;
  readonly dest: string;
  readonly format: ResizeFormat;
  readonly width: number;
  readonly height: number;
  readonly maxPixels: number;
}

/** The formats an upload is written again in to make it smaller (Strapi's size optimization). */
export type OptimizeFormat = 'jpeg' | 'png' | 'webp' | 'tiff' | 'avif';

/** Write the image again in its own format at `quality`, turned upright by its EXIF orientation when `rotate`. */
export interface OptimizeJob {
  readonly op: 'optimize';
  readonly src: string;
  readonly dest: string;
  readonly format: OptimizeFormat;
  readonly quality: number;
  readonly rotate: boolean;
  readonly maxPixels: number;
}

export type ImageJob = InspectJob | MeasureJob | ResizeJob | OptimizeJob;

export interface ImageResult {
  readonly width: number;
  readonly height: number;
  /** bytes written (resize and optimize; 0 when an optimize job left the image as it is) */
  readonly size: number;
}

/** `invalid`: the image can't be decoded or is too large; `failed`: the child can't work (sharp missing). */
export type ImageReply =
  | { readonly id: number; readonly ok: true; readonly result: ImageResult }
  | { readonly id: number; readonly ok: false; readonly reason: 'invalid' | 'failed'; readonly message: string };

export type ImageRequest = ImageJob & { readonly id: number };
