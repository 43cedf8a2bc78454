// How many uploads may have image work (decode, optimize, formats) waiting or running at once, in all
// and per client. The image child works on one image at a time, and a large one takes seconds per
// step (a 10,000 × 10,000 PNG: 13 s to decode): without a cap one client could queue any number of
// them, and every other upload would wait behind its work. Past the cap an upload is refused at its
// first image, before any work is queued; uploads without images are never counted.
import { RateLimitError, ServiceUnavailableError } from '../../errors.js';
import type { ImageJob, ImageResult } from './image-jobs.js';

export interface ImageRunner {
  run(job: ImageJob): Promise<ImageResult>;
}

export interface ImageLimits {
  /** uploads with image work waiting or running, in all */
  readonly uploads: number;
  /** of those, from one client */
  readonly perClient: number;
}

// a gallery or a seeding script sends a handful of images at once; a queue of hundreds is what the cap stops
export const DEFAULT_IMAGE_LIMITS: ImageLimits = { uploads: 20, perClient: 10 };

export class ImageAdmission {
  private admitted = 0;
  private readonly byClient = new Map<string, number>();

  constructor(private readonly limits: ImageLimits) {}

  /** Counts one more upload of `client`, or refuses it; the function returned lets it go (once). */
  admit(client: string): () => void {
    const mine = this.byClient.get(client) ?? 0;
    if (mine >= this.limits.perClient) {
      throw new RateLimitError(`Too many uploads with images at once: at most ${this.limits.perClient} per client, send this one when one of them has ended`);
    }
    if (this.admitted >= this.limits.uploads) {
      throw new ServiceUnavailableError(`The server is working on as many uploads with images as it takes (${this.limits.uploads}): send this one again shortly`);
    }
    this.admitted++;
    this.byClient.set(client, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.admitted--;
      const left = (this.byClient.get(client) ?? 1) - 1;
      if (left === 0) this.byClient.delete(client);
      else this.byClient.set(client, left);
    };
  }
}

/** One upload's image work: counted from its first job until end(). */
export class AdmittedImages implements ImageRunner {
  private release: (() => void) | null = null;

  constructor(
    private readonly images: ImageRunner,
    private readonly admission: ImageAdmission,
    private readonly client: string,
  ) {}

  run(job: ImageJob): Promise<ImageResult> {
    try {
      this.release ??= this.admission.admit(this.client);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
    return this.images.run(job);
  }

  end(): void {
    this.release?.();
    this.release = null;
  }
}
