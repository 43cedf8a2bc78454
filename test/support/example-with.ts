// A copy of the example app with extra project files (schema files of a real project's shape), for a
// test that starts Folio on it; `remove` deletes the copy.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFiles } from '../schema/write-files.js';
import { EXAMPLE_DIR } from './app.js';

export function exampleWith(files: Record<string, string>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-example-'));
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, files);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
