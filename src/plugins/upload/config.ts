// Upload settings, read from the environment once at start-up and checked there, so a typo in a
// bucket setting fails the start rather than the first upload.
import type { UploadPluginConfig } from '../../config/upload-plugin-config.js';
import { join, resolve } from 'node:path';
import { ConfigError } from '../../errors.js';
import { DEFAULT_IMAGE_LIMITS, type ImageLimits } from './image-admission.js';
import { IMAGE_JOB_TIMEOUT_MS } from './image-process.js';

export interface S3Settings {
  readonly bucket: string;
  readonly region: string;
  /** custom endpoint (MinIO, R2, s3rver…); null for AWS itself */
  readonly endpoint: string | null;
  readonly accessKeyId: string | null;
  readonly secretAccessKey: string | null;
  readonly forcePathStyle: boolean;
  /** a private bucket: every URL handed out is a signed GET that expires */
  readonly private: boolean;
  /** seconds */
  readonly signedUrlExpires: number;
  /** public URL prefix of the objects (a CDN); null = derived from endpoint and bucket */
  readonly baseUrl: string | null;
}

export interface Breakpoint {
  readonly key: string;
  readonly size: number;
}

export interface UploadConfig {
  readonly provider: 'local' | 's3';
  /** bytes, per file */
  readonly sizeLimit: number;
  /** most file parts in one request */
  readonly maxFiles: number;
  /** where the local provider writes: `<project>/public/uploads` */
  readonly uploadsDir: string;
  /** parent of the per-request working folders */
  readonly tmpDir: string | null;
  /** MIME patterns (`image/*`) a file's real type must match; null = anything not denied */
  readonly allowedTypes: readonly string[] | null;
  readonly deniedTypes: readonly string[];
  /** responsive formats, as configured (made in this order; `formats` lists them smallest first after the thumbnail) */
  readonly breakpoints: readonly Breakpoint[];
  /** images with more pixels than this are refused rather than decoded */
  readonly maxImagePixels: number;
  /** how long one step of an image's work may take before the image is refused (UPLOAD_IMAGE_TIMEOUT_MS) */
  readonly imageTimeoutMs: number;
  /** images written again smaller (UPLOAD_SIZE_OPTIMIZATION, default on) */
  readonly sizeOptimization: boolean;
  /** images turned upright by their EXIF orientation (UPLOAD_AUTO_ORIENTATION, default off) */
  readonly autoOrientation: boolean;
  /** uploads with image work at once, in all and per client (UPLOAD_MAX_IMAGE_UPLOADS[_PER_CLIENT]) */
  readonly imageLimits: ImageLimits;
  readonly s3: S3Settings | null;
  /** the Cache-Control of files served at /uploads */
  readonly uploadsCacheControl: string;
}

export const DEFAULT_SIZE_LIMIT = 200 * 1024 * 1024;

/**
 * Markup a browser would run. Refused by default: such a file can't be shown inline safely and has
 * no place in a media library. (SVG is accepted but only ever served as an attachment.)
 */
export const DEFAULT_DENIED_TYPES: readonly string[] = ['text/html', 'application/xhtml+xml'];

export const DEFAULT_BREAKPOINTS: readonly Breakpoint[] = [
  { key: 'large', size: 1000 },
  { key: 'medium', size: 750 },
  { key: 'small', size: 500 },
];

type Env = Readonly<Record<string, string | undefined>>;

function positiveInt(env: Env, key: string, fallback: number): number {
  const raw = env[key];
  if (raw === undefined || raw.trim() === '') return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${key}=${raw}: expected a positive whole number`);
  return n;
}

function flag(env: Env, key: string, fallback = false): boolean {
  const raw = (env[key] ?? '').trim().toLowerCase();
  if (raw === '') return fallback;
  if (raw === 'false' || raw === '0' || raw === 'no') return false;
  if (raw === 'true' || raw === '1' || raw === 'yes') return true;
  throw new ConfigError(`${key}=${env[key]}: expected true or false`);
}

/** A comma-separated list; unset → fallback, set but empty → []. */
function list(env: Env, key: string, fallback: readonly string[] | null): readonly string[] | null {
  const raw = env[key];
  if (raw === undefined) return fallback;
  return raw
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter((s) => s !== '');
}

function optional(env: Env, key: string): string | null {
  const v = env[key]?.trim();
  return v ? v : null;
}

function s3Settings(env: Env): S3Settings {
  const bucket = optional(env, 'S3_BUCKET');
  if (!bucket) throw new ConfigError('UPLOAD_PROVIDER=s3 needs S3_BUCKET');
  const endpoint = optional(env, 'S3_ENDPOINT');
  if (endpoint !== null && !/^https?:\/\/[^/]+/.test(endpoint)) throw new ConfigError(`S3_ENDPOINT=${endpoint}: expected an http(s) URL`);
  const baseUrl = optional(env, 'S3_BASE_URL');
  return {
    bucket,
    region: optional(env, 'S3_REGION') ?? 'us-east-1',
    endpoint: endpoint?.replace(/\/+$/, '') ?? null,
    accessKeyId: optional(env, 'S3_ACCESS_KEY_ID'),
    secretAccessKey: optional(env, 'S3_SECRET_ACCESS_KEY'),
    forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE'),
    private: flag(env, 'S3_PRIVATE'),
    signedUrlExpires: positiveInt(env, 'S3_SIGNED_URL_EXPIRES', 900),
    baseUrl: baseUrl?.replace(/\/+$/, '') ?? null,
  };
}

/** `fromFile`: config/plugins' upload.config (its sizeLimit and security types are overridden by the UPLOAD_* variables) */
export function resolveUploadConfig(env: Env, projectDir: string, fromFile: UploadPluginConfig | undefined = undefined): UploadConfig {
  const provider = (optional(env, 'UPLOAD_PROVIDER') ?? 'local').toLowerCase();
  if (provider !== 'local' && provider !== 's3') throw new ConfigError(`UPLOAD_PROVIDER=${provider}: expected local or s3`);
  return {
    provider,
    sizeLimit: positiveInt(env, 'UPLOAD_SIZE_LIMIT', fromFile?.sizeLimit ?? DEFAULT_SIZE_LIMIT),
    maxFiles: positiveInt(env, 'UPLOAD_MAX_FILES', 50),
    uploadsDir: optional(env, 'UPLOAD_DIR') ? resolve(env['UPLOAD_DIR']!) : join(resolve(projectDir), 'public', 'uploads'),
    tmpDir: optional(env, 'UPLOAD_TMP_DIR'),
    allowedTypes: list(env, 'UPLOAD_ALLOWED_TYPES', fromFile?.allowedTypes ?? null),
    // the project's denied types add to the markup refused by default
    deniedTypes: list(env, 'UPLOAD_DENIED_TYPES', [...new Set([...DEFAULT_DENIED_TYPES, ...(fromFile?.deniedTypes ?? [])])]) ?? [],
    breakpoints: fromFile?.breakpoints ?? DEFAULT_BREAKPOINTS,
    maxImagePixels: positiveInt(env, 'UPLOAD_MAX_IMAGE_PIXELS', 100_000_000),
    imageTimeoutMs: positiveInt(env, 'UPLOAD_IMAGE_TIMEOUT_MS', IMAGE_JOB_TIMEOUT_MS),
    sizeOptimization: flag(env, 'UPLOAD_SIZE_OPTIMIZATION', true),
    autoOrientation: flag(env, 'UPLOAD_AUTO_ORIENTATION'),
    imageLimits: {
      uploads: positiveInt(env, 'UPLOAD_MAX_IMAGE_UPLOADS', DEFAULT_IMAGE_LIMITS.uploads),
      perClient: positiveInt(env, 'UPLOAD_MAX_IMAGE_UPLOADS_PER_CLIENT', DEFAULT_IMAGE_LIMITS.perClient),
    },
    s3: provider === 's3' ? s3Settings(env) : null,
    // as Strapi's static serving answers by default: a client revalidates instead of keeping a stale copy
    uploadsCacheControl: fromFile?.uploadsCacheControl ?? 'max-age=0',
  };
}

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** 209715200 → "200 MB" (binary multiples, as size limits are usually written). */
export function humanSize(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  return `${Math.round(v * 100) / 100} ${UNITS[u]}`;
}
