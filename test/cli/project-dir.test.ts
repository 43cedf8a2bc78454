// A command run in a folder that is not a project (a repository root with a src/ of its own) is
// refused before it writes anything there: no .env of generated secrets, no .tmp/data.db.
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, folio } from './helpers.js';

let dir: string;

beforeAll(async () => {
  await ensureBuilt();
  dir = mkdtempSync(join(tmpdir(), 'folio-not-a-project-'));
  mkdirSync(join(dir, 'src', 'cli'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a folder with neither src/api nor src/components', () => {
  it.each([
    ['start', '--port', '0'],
    ['develop', '--port', '0'],
    ['api-token', 'create', '--name', 'x', '--type', 'read-only'],
    ['locales', 'list'],
    ['permissions', 'list'],
    ['users', 'create', '--email', 'you@example.com', '--password', 'change-me'],
  ])('%s is refused, naming the folder and --dir, and nothing is written there', (...args) => {
    const r = folio(null, [...args, '--dir', dir], { DATABASE_CLIENT: 'sqlite' });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`${dir} is not a Folio project: it has neither src/api nor src/components. Run the command in the project folder, or pass --dir PATH\n`);
    expect(readdirSync(dir)).toEqual(['src']);
  });
});

describe('a project with only one of them', () => {
  it('src/components alone is a project', () => {
    const only = mkdtempSync(join(tmpdir(), 'folio-components-only-'));
    try {
      mkdirSync(join(only, 'src', 'components', 'shared'), { recursive: true });
      writeFileSync(
        join(only, 'src', 'components', 'shared', 'seo.json'),
        JSON.stringify({ collectionName: 'components_shared_seos', info: { displayName: 'seo' }, attributes: { title: { type: 'string' } } }),
      );
      const r = folio(null, ['locales', 'list', '--dir', only], { DATABASE_CLIENT: 'sqlite' });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/^CODE/);
    } finally {
      rmSync(only, { recursive: true, force: true });
    }
  });
});
