// The messages between the server and its image child process (image-process.ts ↔ image-worker.ts).

/** Decode the whole image and report its size. */
export interface InspectJob {
  readonly op: 'inspect';
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

export type ImageJob = InspectJob | ResizeJob;

export interface ImageResult {
  readonly width: number;
  readonly height: number;
  /** bytes written (resize only) */
  readonly size: number;
}

/** `invalid`: the image can't be decoded or is too large; `failed`: the child can't work (sharp missing). */
export type ImageReply =
  | { readonly id: number; readonly ok: true; readonly result: ImageResult }
  | { readonly id: number; readonly ok: false; readonly reason: 'invalid' | 'failed'; readonly message: string };

export type ImageRequest = ImageJob & { readonly id: number };
