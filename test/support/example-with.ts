// A copy of the example app with extra project files (schema files of a real project's shape), for a
// test that starts Folio on it; `remove` deletes the copy.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeFiles } from '../schema/write-files.js';
import { EXAMPLE_DIR, startTestApp, type TestApp } from './app.js';

export function exampleWith(files: Record<string, string>): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'folio-example-'));
  cpSync(EXAMPLE_DIR, dir, { recursive: true });
  writeFiles(dir, files);
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Folio started on a copy of the example app with `files` added; closing it also deletes the copy. */
export async function startExampleWith(files: Record<string, string>): Promise<TestApp> {
  const project = exampleWith(files);
  let t: TestApp;
  try {
    t = await startTestApp({ dir: project.dir });
  } catch (e) {
    project.remove();
    throw e;
  }
  return {
    ...t,
    async close() {
      try {
        await t.close();
      } finally {
        project.remove();
      }
    },
  };
}
