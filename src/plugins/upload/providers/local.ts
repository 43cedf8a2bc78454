// The default provider: files in `<project>/public/uploads`, served by Folio at `/uploads/<name>`.
import { constants } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { copyFile, link, mkdir, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { isSafeObjectName } from '../names.js';
import type { ObjectContent, PutObject, StoredRef, UploadProvider } from '../provider.js';

export const LOCAL_URL_PREFIX = '/uploads/';

/** the name a replacement's bytes wait under before taking the file's (overwrite) */
const PENDING = /^\.[0-9a-f]{16}\.replacing$/;
/** a pending file older than this was left by a process that ended mid-copy: no replacement takes so long */
const PENDING_STALE_MS = 60 * 60 * 1000;

function nameOf(ref: StoredRef): string | null {
  const fromUrl = ref.url.startsWith(LOCAL_URL_PREFIX) ? ref.url.slice(LOCAL_URL_PREFIX.length) : `${ref.hash}${ref.ext}`;
  return isSafeObjectName(fromUrl) ? fromUrl : null;
}

/** Puts `file` at `target`, which must not exist yet (EEXIST otherwise). */
async function placeFile(file: string, target: string): Promise<void> {
  // a hard link moves no bytes; both refuse to replace an existing file
  try {
    await link(file, target);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EMLINK') throw e;
    await copyFile(file, target, constants.COPYFILE_EXCL);
  }
}

export class LocalProvider implements UploadProvider {
  readonly name = 'local';
  readonly isPrivate = false;

  constructor(readonly dir: string) {}

  async put(object: PutObject): Promise<string> {
    if (!isSafeObjectName(object.name)) throw new Error(`unsafe object name ${object.name}`);
    await mkdir(this.dir, { recursive: true });
    await placeFile(object.file, join(this.dir, object.name));
    return `${LOCAL_URL_PREFIX}${object.name}`;
  }

  async overwrite(ref: StoredRef, content: ObjectContent): Promise<string> {
    const name = nameOf(ref);
    if (name === null) throw new Error(`unsafe object name ${ref.hash}${ref.ext}`);
    await mkdir(this.dir, { recursive: true });
    // placed beside it under a name no object has (a dot first), then renamed over it: a reader
    // gets the old bytes or the new, never a part of either
    const pending = join(this.dir, `.${randomBytes(8).toString('hex')}.replacing`);
    await placeFile(content.file, pending);
    try {
      await rename(pending, join(this.dir, name));
    } catch (e) {
      await unlink(pending).catch(() => undefined);
      throw e;
    }
    return `${LOCAL_URL_PREFIX}${name}`;
  }

  /**
   * Removes the pending files of replacements a process ended in the middle of (never served: their
   * names start with a dot); the young ones may be another process's, under way.
   */
  async sweepPending(now = Date.now()): Promise<void> {
    const names = await readdir(this.dir).catch(() => [] as string[]);
    for (const name of names) {
      if (!PENDING.test(name)) continue;
      const path = join(this.dir, name);
      const info = await stat(path).catch(() => null);
      if (info && now - info.mtimeMs > PENDING_STALE_MS) await unlink(path).catch(() => undefined);
    }
  }

  folderOf(): null {
    return null;
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
