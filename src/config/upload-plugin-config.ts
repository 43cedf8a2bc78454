// config/plugins → upload.config: Strapi's upload settings. `sizeLimit` (bytes), `breakpoints` and
// `security` (the allowed and denied MIME types: a project relying on them must not lose them) are honoured; a provider other than local, and the settings Folio has no use for, are named at start-up rather than ignored in
// silence (a project storing files on S3 through Strapi's aws-s3 provider would otherwise find them on
// local disk).
import { ConfigError } from '../errors.js';
import type { Breakpoint } from '../plugins/upload/config.js';
import { isObj, type Obj } from './config-files.js';

export interface UploadPluginConfig {
  /** the largest file accepted, in bytes; null: Folio's default (or UPLOAD_SIZE_LIMIT) */
  readonly sizeLimit: number | null;
  /** the responsive formats an image gets, in the order written; null: Strapi's defaults */
  readonly breakpoints: readonly Breakpoint[] | null;
  /** `security.allowedTypes`: the only types stored; null: any (or UPLOAD_ALLOWED_TYPES) */
  readonly allowedTypes: readonly string[] | null;
  /** `security.deniedTypes`: types refused besides markup; null: none more (or UPLOAD_DENIED_TYPES) */
  readonly deniedTypes: readonly string[] | null;
  /** `providerOptions.localServer`: the Cache-Control of `/uploads/*`; null: `max-age=0`, Strapi's default */
  readonly uploadsCacheControl: string | null;
}

const KEY = 'plugins.upload.config';
/** what Folio reads elsewhere or has no counterpart for, said once each */
const NOT_RUN: Readonly<Record<string, string>> = {
  actionOptions: 'the provider is chosen with UPLOAD_PROVIDER',
};
const PROVIDER_OPTIONS_NOT_RUN = 'the provider\'s settings are the UPLOAD_* and S3_* variables (README, "Media library")';
/** the static server's options that say how long a client may keep a file (koa-static's, which Strapi passes on) */
const CACHE_OPTIONS: ReadonlySet<string> = new Set(['maxage', 'maxAge', 'immutable']);

/**
 * `providerOptions.localServer` → the Cache-Control `/uploads/*` answers: `maxage` in milliseconds
 * becomes whole seconds and `immutable` is added, as Strapi's static server writes them. Its other
 * options, and the other provider options, are named as ignored.
 */
function uploadsCacheControl(providerOptions: unknown, warnings: string[]): string | null {
  if (providerOptions === undefined) return null;
  if (!isObj(providerOptions)) {
    warnings.push(`Ignored ${KEY}.providerOptions: ${PROVIDER_OPTIONS_NOT_RUN}`);
    return null;
  }
  for (const k of Object.keys(providerOptions)) if (k !== 'localServer') warnings.push(`Ignored ${KEY}.providerOptions.${k}: ${PROVIDER_OPTIONS_NOT_RUN}`);
  const local = providerOptions['localServer'];
  if (local === undefined) return null;
  if (!isObj(local)) throw new ConfigError(`${KEY}.providerOptions.localServer must be an object such as { maxage: 300000 }`);
  for (const k of Object.keys(local)) if (!CACHE_OPTIONS.has(k)) warnings.push(`Ignored ${KEY}.providerOptions.localServer.${k}: only maxage and immutable are read`);
  const given = local['maxage'] ?? local['maxAge'] ?? 0;
  // env('UPLOADS_MAXAGE') gives a string of digits, which Strapi's static server takes as a number
  const raw = typeof given === 'string' && /^\d+$/.test(given.trim()) ? Number(given) : given;
  if (typeof raw !== 'number' || !Number.isFinite(raw) || raw < 0) {
    throw new ConfigError(`${KEY}.providerOptions.localServer.maxage must be a number of milliseconds, got ${JSON.stringify(given)}`);
  }
  return `max-age=${Math.floor(raw / 1000)}${local['immutable'] === true ? ',immutable' : ''}`;
}

export function uploadPluginConfig(plugins: Obj, warnings: string[]): UploadPluginConfig {
  const upload = plugins['upload'];
  const cfg = isObj(upload) && isObj(upload['config']) ? upload['config'] : {};
  const provider = cfg['provider'];
  if (provider !== undefined && provider !== 'local') {
    warnings.push(
      `${KEY}.provider ${JSON.stringify(provider)} is not run by Folio: files are stored on local disk unless UPLOAD_PROVIDER=s3 and S3_* are set (README, "Media library")`,
    );
  }
  for (const [k, why] of Object.entries(NOT_RUN)) if (cfg[k] !== undefined) warnings.push(`Ignored ${KEY}.${k}: ${why}`);
  const security = cfg['security'];
  if (security !== undefined && security !== null && !isObj(security)) throw new ConfigError(`${KEY}.security must be an object with allowedTypes and/or deniedTypes`);
  const sec = isObj(security) ? security : {};
  for (const k of Object.keys(sec)) if (k !== 'allowedTypes' && k !== 'deniedTypes') warnings.push(`Ignored ${KEY}.security.${k}: only allowedTypes and deniedTypes are read`);
  return {
    sizeLimit: sizeLimit(cfg['sizeLimit']),
    breakpoints: breakpoints(cfg['breakpoints']),
    allowedTypes: mimeList(sec['allowedTypes'], 'allowedTypes'),
    deniedTypes: mimeList(sec['deniedTypes'], 'deniedTypes'),
    uploadsCacheControl: uploadsCacheControl(cfg['providerOptions'], warnings),
  };
}

/** `['image/*', 'application/pdf']`: MIME types, `type/*` for a whole family */
function mimeList(raw: unknown, name: string): readonly string[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || !raw.every((t) => typeof t === 'string' && t.trim() !== '')) {
    throw new ConfigError(`${KEY}.security.${name} must be a list of MIME types such as ['image/*', 'application/pdf'], got ${JSON.stringify(raw)}`);
  }
  return raw.map((t: string) => t.trim().toLowerCase());
}

function sizeLimit(raw: unknown): number | null {
  if (raw === undefined || raw === null) return null;
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${KEY}.sizeLimit must be a positive whole number of bytes, got ${JSON.stringify(raw)}`);
  return n;
}

/** `{ xlarge: 1920, large: 1000, … }`: a format per name, for images wider or taller than its size */
function breakpoints(raw: unknown): readonly Breakpoint[] | null {
  if (raw === undefined || raw === null) return null;
  if (!isObj(raw)) throw new ConfigError(`${KEY}.breakpoints must be an object of format names and sizes, such as { large: 1000, small: 500 }`);
  return Object.entries(raw).map(([key, size]) => {
    // every image gets its thumbnail besides the breakpoints' formats
    if (key === 'thumbnail') throw new ConfigError(`${KEY}.breakpoints.thumbnail: the thumbnail format is always made; name the breakpoint otherwise`);
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0) {
      throw new ConfigError(`${KEY}.breakpoints.${key} must be a positive whole number of pixels, got ${JSON.stringify(size)}`);
    }
    return { key, size };
  });
}
