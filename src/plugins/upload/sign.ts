// Signed URLs for a private store: applied to every file object handed out, its formats included.
import type { UploadProvider } from './provider.js';
import type { FileObject } from './file-row.js';

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function ref(o: Record<string, unknown>): { hash: string; ext: string; url: string; path: string | null } | null {
  if (typeof o['url'] !== 'string') return null;
  return { hash: String(o['hash'] ?? ''), ext: String(o['ext'] ?? ''), url: o['url'], path: typeof o['path'] === 'string' ? o['path'] : null };
}

/**
 * Replaces `url` (and each format's) with a signed one when the file lives in this provider's
 * private store; returns whether it did. A file stored by another provider keeps its URL.
 */
export async function signFile(provider: UploadProvider, file: FileObject): Promise<boolean> {
  if (!provider.isPrivate) return false;
  if (file['provider'] !== undefined && file['provider'] !== provider.name) return false;
  const main = ref(file);
  if (!main) return false;
  file['url'] = await provider.signedUrl(main);
  const formats = file['formats'];
  if (isObject(formats)) {
    await Promise.all(
      Object.values(formats).map(async (f) => {
        const r = isObject(f) ? ref(f) : null;
        if (r && isObject(f)) f['url'] = await provider.signedUrl(r);
      }),
    );
  }
  return true;
}

/** For upload-plugin responses: signs, and always says whether it did (`isUrlSigned`). */
export async function presentFiles(provider: UploadProvider, files: FileObject[]): Promise<FileObject[]> {
  await Promise.all(
    files.map(async (f) => {
      f['isUrlSigned'] = await signFile(provider, f);
    }),
  );
  return files;
}

/**
 * Signs media populated inside content responses, in place (documents/read.ts hands them over, each
 * file object once). A no-op unless the provider is a private bucket. Signed files get
 * `isUrlSigned: true`; unsigned ones are left exactly as they were (Strapi omits the key on
 * populated media).
 */
export async function signFileUrls(provider: UploadProvider, files: readonly FileObject[]): Promise<void> {
  if (!provider.isPrivate) return;
  await Promise.all(
    files.map(async (f) => {
      if (await signFile(provider, f)) f['isUrlSigned'] = true;
    }),
  );
}
