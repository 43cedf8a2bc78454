// Folio ships with Node flags on the CLI's first line (`#!/usr/bin/env -S node …`): run as `folio`,
// `./dist/cli/main.js` or `npm start`, the server gets them. --no-concurrent-recompilation keeps
// V8's optimizing compiler on the main thread: on worker threads, each kept a glibc malloc arena
// of several MB after compiling (13 MB of a seeded server's idle RSS, README "Memory").
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from './helpers.js';

const ROOT = join(CLI, '..', '..', '..');

/** the flags after `node` on a script's first line */
function firstLineFlags(file: string): string[] {
  const first = readFileSync(file, 'utf8').split('\n', 1)[0]!;
  const m = /^#!\/usr\/bin\/env -S node((?: --\S+)*)$/.exec(first);
  if (!m) throw new Error(`not a node shebang with flags: ${first}`);
  return m[1]!.split(' ').filter(Boolean);
}

describe('the Node flags Folio is started with', () => {
  beforeAll(ensureBuilt);

  it('the folio command names --no-concurrent-recompilation on its first line, in the source and the build', () => {
    expect(firstLineFlags(join(ROOT, 'src', 'cli', 'main.ts'))).toEqual(['--no-concurrent-recompilation']);
    expect(firstLineFlags(CLI)).toEqual(['--no-concurrent-recompilation']);
  });

  it('npm start and npm run develop start node with the same flags', () => {
    const flags = firstLineFlags(CLI).join(' ');
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts['start']).toContain(`node ${flags} dist/cli/main.js start`);
    expect(scripts['develop']).toContain(`node ${flags} dist/cli/main.js develop`);
  });

  it('the built command runs by itself through its first line (node accepts the flags)', () => {
    const out = execFileSync(CLI, ['--version'], { encoding: 'utf8' });
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(out.trim()).toBe(version);
  });
});
