// config/plugins → upload.config: Strapi's upload settings. `sizeLimit` (bytes) is honoured; a provider
// other than local, and the settings Folio has no use for, are named at start-up rather than ignored in
// silence (a project storing files on S3 through Strapi's aws-s3 provider would otherwise find them on
// local disk).
import { ConfigError } from '../errors.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface UploadPluginConfig {
  /** the largest file accepted, in bytes; null: Folio's default (or UPLOAD_SIZE_LIMIT) */
  readonly sizeLimit: number | null;
}

const KEY = 'plugins.upload.config';
/** what Folio reads elsewhere or has no counterpart for, said once each */
const NOT_RUN: Readonly<Record<string, string>> = {
  providerOptions: 'the provider is chosen with UPLOAD_PROVIDER (local or s3) and S3_* variables (README, "Media library")',
  breakpoints: 'responsive formats use Strapi\u2019s default breakpoints',
  actionOptions: 'the provider is chosen with UPLOAD_PROVIDER',
  security: 'allowed and denied types come from UPLOAD_ALLOWED_TYPES / UPLOAD_DENIED_TYPES',
};

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
  const raw = cfg['sizeLimit'];
  if (raw === undefined || raw === null) return { sizeLimit: null };
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n <= 0) throw new ConfigError(`${KEY}.sizeLimit must be a positive whole number of bytes, got ${JSON.stringify(raw)}`);
  return { sizeLimit: n };
}
