// The bundled CLI loads optional heavy packages only where they are used: esbuild hoists a bundled
// module's static imports of external packages to the top of the bundle, so one static import
// anywhere loads that package at every start (the S3 client did: 13 MB of resident memory).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ensureBuilt } from './helpers.js';

/** Packages named by static `import … from "x"` statements of the bundle. */
function staticImports(source: string): Set<string> {
  const out = new Set<string>();
  for (const m of source.matchAll(/(?:^|[;\n}])\s*import\s*(?:[\w$*\s{},]+?\s*from\s*)?["']([^"']+)["']/g)) out.add(m[1]!);
  return out;
}

describe('the bundled CLI', () => {
  let source = '';
  beforeAll(async () => {
    await ensureBuilt();
    source = readFileSync(CLI, 'utf8');
  });

  it('is the bundle (npm test builds it)', () => {
    expect(source).toContain('folioCreateRequire');
  });

  it('imports at start-up only Node built-ins and better-sqlite3, never sharp, file-type, pg, mysql2 or the S3 client', () => {
    const external = [...staticImports(source)].filter((p) => !p.startsWith('node:'));
    expect(external.filter((p) => /^(@aws-sdk\/|sharp$|file-type$|pg$|mysql2$)/.test(p))).toEqual([]);
    // the regex does see the bundle's static imports
    expect(staticImports(source).has('node:module')).toBe(true);
  });

  it('loads the S3 client and sharp lazily, with import()', () => {
    expect(source).toMatch(/import\(\s*["']@aws-sdk\/client-s3["']\s*\)/);
    expect(readFileSync(CLI.replace('main.js', 'image-worker.js'), 'utf8')).toMatch(/import\(\s*["']sharp["']\s*\)/);
  });
});
