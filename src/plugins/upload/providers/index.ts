// The provider the configuration names. The S3 client is loaded only when it is used: it is the
// largest module Folio depends on, and most projects store files locally.
import type { UploadConfig } from '../config.js';
import type { UploadProvider } from '../provider.js';
import { LocalProvider } from './local.js';

export async function createProvider(config: UploadConfig): Promise<UploadProvider> {
  if (config.provider === 's3' && config.s3) {
    const { createS3Provider } = await import('./s3.js');
    return createS3Provider(config.s3);
  }
  const local = new LocalProvider(config.uploadsDir);
  await local.sweepPending();
  return local;
}
