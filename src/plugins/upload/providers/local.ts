// The default provider: files in `<project>/public/uploads`, served by Folio at `/uploads/<name>`.
import { constants } from 'node:fs';
import { copyFile, link, mkdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isSafeObjectName } from '../names.js';
import type { PutObject, StoredRef, UploadProvider } from '../provider.js';

export const LOCAL_URL_PREFIX = '/uploads/';

function nameOf(ref: StoredRef): string | null {
  const fromUrl = ref.url.startsWith(LOCAL_URL_PREFIX) ? ref.url.slice(LOCAL_URL_PREFIX.length) : `${ref.hash}${ref.ext}`;
  return isSafeObjectName(fromUrl) ? fromUrl : null;
}

export class LocalProvider implements UploadProvider {
  readonly name = 'local';
  readonly isPrivate = false;

  constructor(readonly dir: string) {}

  async put(object: PutObject): Promise<string> {
    if (!isSafeObjectName(object.name)) throw new Error(`unsafe object name ${object.name}`);
    await mkdir(this.dir, { recursive: true });
    const target = join(this.dir, object.name);
    // a hard link moves no bytes; both refuse to replace an existing file (EEXIST)
    try {
      await link(object.file, target);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw e;
      await copyFile(object.file, target, constants.COPYFILE_EXCL);
    }
    return `${LOCAL_URL_PREFIX}${object.name}`;
  }

  async remove(ref: StoredRef): Promise<void> {
    const name = nameOf(ref);
    if (name === null) return;
    await unlink(join(this.dir, name)).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== 'ENOENT') throw e;
    });
  }

  async signedUrl(ref: StoredRef): Promise<string> {
    return ref.url;
  }

  async close(): Promise<void> {}
}
