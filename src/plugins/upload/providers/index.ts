// The provider the configuration names.
import type { UploadConfig } from '../config.js';
import type { UploadProvider } from '../provider.js';
import { LocalProvider } from './local.js';
import { S3Provider } from './s3.js';

export function createProvider(config: UploadConfig): UploadProvider {
  if (config.provider === 's3' && config.s3) return new S3Provider(config.s3);
  return new LocalProvider(config.uploadsDir);
}
