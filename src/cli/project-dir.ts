// The folder a command works on must look like a project: loading one writes .env (development
// secrets) and opens .tmp/data.db, which a command run in the wrong folder (a repository root with
// a src/ of its own) should not leave behind.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../errors.js';

/** Throws unless `dir` has src/api or src/components, where a project's types are. */
export function checkProjectDir(dir: string): void {
  const abs = resolve(dir);
  if (existsSync(join(abs, 'src', 'api')) || existsSync(join(abs, 'src', 'components'))) return;
  throw new ConfigError(`${abs} is not a Folio project: it has neither src/api nor src/components. Run the command in the project folder, or pass --dir PATH`);
}
