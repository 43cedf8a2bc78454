import { spawnSync, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR } from '../support/app.js';

const CLI = join(EXAMPLE_DIR, '..', '..', 'dist', 'cli', 'main.js');
let dir: string;

function folio(args: string[], env: Record<string, string> = {}): { status: number | null; stdout: string; stderr: string } {
  const r = spawnSync('node', [CLI, ...args, '--dir', dir], {
    encoding: 'utf8', timeout: 20_000, env: { PATH: process.env['PATH'] ?? '', DATABASE_CLIENT: 'sqlite', NODE_ENV: 'development', ...env },
  });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'folio-cli-'));
  cpSync(join(EXAMPLE_DIR, 'src'), join(dir, 'src'), { recursive: true });
  cpSync(join(EXAMPLE_DIR, 'config'), join(dir, 'config'), { recursive: true });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('folio api-token', () => {
  it('create prints the access key alone, once; development secrets are generated into .env', () => {
    const r = folio(['api-token', 'create', '--name', 'one', '--type', 'full-access']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{128}\n$/);
    expect(readFileSync(join(dir, '.env'), 'utf8')).toMatch(/API_TOKEN_SALT=.+\nJWT_SECRET=.+\nAPP_KEYS=.+/);
  });

  it('create --json gives the token and its key; list never shows keys; revoke removes it', () => {
    const r = folio(['api-token', 'create', '--name', 'two', '--type', 'custom', '--permissions', 'api::article.article.find', '--lifespan', '7', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j).toMatchObject({ name: 'two', type: 'custom', permissions: ['api::article.article.find'] });
    expect(j.accessKey).toMatch(/^[0-9a-f]{128}$/);
    expect(Date.parse(j.expiresAt) - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    const list = folio(['api-token', 'list', '--json']);
    expect(JSON.parse(list.stdout).map((t: { name: string }) => t.name)).toEqual(['one', 'two']);
    expect(list.stdout).not.toContain(j.accessKey);
    expect(folio(['api-token', 'revoke', 'two']).status).toBe(0);
    expect(JSON.parse(folio(['api-token', 'list', '--json']).stdout).map((t: { name: string }) => t.name)).toEqual(['one']);
  });

  it('usage errors exit 2 with the usage', () => {
    const r = folio(['api-token', 'create', '--name', 'x', '--type', 'root']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('Usage: folio');
    expect(folio(['nonsense']).status).toBe(2);
  });

  it('a duplicate name is refused', () => {
    const r = folio(['api-token', 'create', '--name', 'one', '--type', 'read-only']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toBe('Error: Name already taken');
  });
});

describe('folio start', () => {
  it('a bad schema stops start-up with exit 1 and one line naming the file and attribute', () => {
    const bad = mkdtempSync(join(tmpdir(), 'folio-bad-'));
    try {
      cpSync(join(EXAMPLE_DIR, 'src'), join(bad, 'src'), { recursive: true });
      const file = join(bad, 'src/api/tag/content-types/tag/schema.json');
      const schema = JSON.parse(readFileSync(file, 'utf8'));
      schema.attributes.color.type = 'colour';
      writeFileSync(file, JSON.stringify(schema));
      const r = spawnSync('node', [CLI, 'start', '--dir', bad], { encoding: 'utf8', timeout: 10_000, env: { PATH: process.env['PATH'] ?? '', PORT: '0' } });
      expect(r.status).toBe(1);
      expect(r.stderr.trim().split('\n')).toEqual(['Error: src/api/tag/content-types/tag/schema.json: attribute "color": unknown type "colour"']);
    } finally {
      rmSync(bad, { recursive: true, force: true });
    }
  });

  it('in production a missing secret stops start-up naming the variable', () => {
    const fresh = mkdtempSync(join(tmpdir(), 'folio-prod-'));
    try {
      cpSync(join(EXAMPLE_DIR, 'src'), join(fresh, 'src'), { recursive: true });
      const r = spawnSync('node', [CLI, 'start', '--dir', fresh], {
        encoding: 'utf8', timeout: 10_000,
        env: { PATH: process.env['PATH'] ?? '', NODE_ENV: 'production', API_TOKEN_SALT: 's', JWT_SECRET: 'j', PORT: '0' },
      });
      expect(r.status).toBe(1);
      expect(r.stderr.trim()).toBe('Error: Missing required environment variable APP_KEYS (needed in production)');
    } finally {
      rmSync(fresh, { recursive: true, force: true });
    }
  });

  it('serves the project: content routes answer over HTTP', async () => {
    const port = 20000 + Math.floor(Math.random() * 20000);
    const child = spawn('node', [CLI, 'start', '--dir', dir, '--port', String(port), '--host', '127.0.0.1'], {
      env: { PATH: process.env['PATH'] ?? '', DATABASE_CLIENT: 'sqlite' }, stdio: 'pipe',
    });
    try {
      let status = 0;
      for (let i = 0; i < 100 && status === 0; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = await fetch(`http://127.0.0.1:${port}/api/articles`).then((r) => r.status, () => 0);
      }
      expect(status).toBe(403);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
