// A throwaway project folder holding the given files (and an empty src/, which makes it a project).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll } from 'vitest';

const made: string[] = [];
afterAll(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

export function project(files: Record<string, string> = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'folio-config-'));
  made.push(dir);
  mkdirSync(join(dir, 'src'));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, name)), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

/** Secrets present, so a load neither generates nor writes any. */
export const SECRETS = { API_TOKEN_SALT: 'salt', JWT_SECRET: 'jwt', APP_KEYS: 'k1,k2' } as const;
