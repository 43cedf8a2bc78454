// Folio is meant to run with --no-concurrent-recompilation, which keeps V8's optimizing compiler on
// the main thread: on worker threads, each kept a glibc malloc arena of several MB after compiling
// (13 MB of a seeded server's idle RSS, README "Compiler threads and the SQLite page cache"). npm
// start and npm run develop pass it; the folio command's first line stays `#!/usr/bin/env node`,
// since `env -S` (the only way to give a flag there) is missing from BusyBox, Alpine's env.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from './helpers.js';

const ROOT = join(CLI, '..', '..', '..');
const FLAG = '--no-concurrent-recompilation';
const pkg = (): { version: string; scripts: Record<string, string> } =>
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string; scripts: Record<string, string> };

describe('the Node flags Folio is started with', () => {
  beforeAll(ensureBuilt);

  it('npm start and npm run develop start node with --no-concurrent-recompilation', () => {
    const { scripts } = pkg();
    expect(scripts['start']).toContain(`node ${FLAG} dist/cli/main.js start`);
    expect(scripts['develop']).toContain(`node ${FLAG} dist/cli/main.js develop`);
  });

  it('the folio command starts with a first line every env understands, and runs by itself through it', () => {
    for (const file of [join(ROOT, 'src', 'cli', 'main.ts'), CLI]) expect(readFileSync(file, 'utf8').split('\n', 1)[0]).toBe('#!/usr/bin/env node');
    expect(execFileSync(CLI, ['--version'], { encoding: 'utf8' }).trim()).toBe(pkg().version);
  });
});
