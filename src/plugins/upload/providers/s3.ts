// Amazon S3 and S3-compatible stores. Objects are streamed from the temp file; a private bucket's
// URLs are handed out as signed GETs that expire after `signedUrlExpires` seconds.
import { createReadStream } from 'node:fs';
import type { S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '../config.js';
import type { ObjectContent, PutObject, StoredRef, UploadProvider } from '../provider.js';

/** The public URL prefix of the bucket's objects (no trailing slash). */
export function objectUrlPrefix(s: S3Settings): string {
  if (s.baseUrl) return s.baseUrl;
  if (!s.endpoint) return `https://${s.bucket}.s3.${s.region}.amazonaws.com`;
  if (s.forcePathStyle) return `${s.endpoint}/${s.bucket}`;
  const u = new URL(s.endpoint);
  return `${u.protocol}//${s.bucket}.${u.host}`;
}

type S3Sdk = typeof import('@aws-sdk/client-s3');
type Presigner = typeof import('@aws-sdk/s3-request-presigner');

/**
 * The SDK is imported here, when an S3 provider is made, not at the top of the module: the bundle
 * hoists a package's static imports to its own top, which loaded the whole SDK (≈1.5 MB of source
 * kept in the heap) at every start, S3 or not.
 */
export async function createS3Provider(settings: S3Settings): Promise<S3Provider> {
  const [sdk, presigner] = await Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner')]);
  return new S3Provider(settings, sdk, presigner);
}

export class S3Provider implements UploadProvider {
  readonly name = 'aws-s3';
  readonly isPrivate: boolean;
  readonly signedUrlSeconds: number;
  private readonly client: S3Client;
  private readonly prefix: string;

  constructor(
    private readonly settings: S3Settings,
    private readonly sdk: S3Sdk,
    private readonly presigner: Presigner,
  ) {
    this.isPrivate = settings.private;
    this.signedUrlSeconds = settings.signedUrlExpires;
    this.prefix = objectUrlPrefix(settings);
    this.client = new sdk.S3Client({
      region: settings.region,
      ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
      forcePathStyle: settings.forcePathStyle,
      ...(settings.accessKeyId && settings.secretAccessKey ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } } : {}),
      // S3-compatible servers often reject the SDK's default streaming checksums (aws-chunked trailers)
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(ref: StoredRef): string {
    const url = ref.url.split('?')[0] ?? '';
    if (url.startsWith(`${this.prefix}/`)) return url.slice(this.prefix.length + 1);
    return `${ref.path ? `${ref.path}/` : ''}${ref.hash}${ref.ext}`;
  }

  async put(object: PutObject): Promise<string> {
    return this.send(`${object.path ? `${object.path}/` : ''}${object.name}`, object);
  }

  /** a PUT replaces the object at its key whole: readers get the old bytes or the new */
  async overwrite(ref: StoredRef, content: ObjectContent): Promise<string> {
    return this.send(this.key(ref), content);
  }

  private async send(key: string, object: ObjectContent): Promise<string> {
    await this.client.send(
      new this.sdk.PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: createReadStream(object.file),
        ContentLength: object.size,
        ContentType: object.mime,
        ...(object.inline ? {} : { ContentDisposition: 'attachment' }),
      }),
    );
    return `${this.prefix}/${key}`;
  }

  folderOf(ref: StoredRef): string | null {
    const key = this.key(ref);
    const slash = key.lastIndexOf('/');
    return slash > 0 ? key.slice(0, slash) : null;
  }

  async remove(ref: StoredRef): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.key(ref) }));
  }

  async signedUrl(ref: StoredRef): Promise<string> {
    const command = new this.sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.key(ref) });
    return this.presigner.getSignedUrl(this.client, command, { expiresIn: this.settings.signedUrlExpires });
  }

  async close(): Promise<void> {
    this.client.destroy();
  }
}
