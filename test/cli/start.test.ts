import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project } from './helpers.js';

const TAG = 'src/api/tag/content-types/tag/schema.json';
let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
});
afterAll(() => project.remove());

function setTagColourType(dir: string, type: string): void {
  const file = join(dir, TAG);
  const schema = JSON.parse(readFileSync(file, 'utf8')) as { attributes: Record<string, { type: string }> };
  schema.attributes['color']!.type = type;
  writeFileSync(file, JSON.stringify(schema, null, 2));
}

describe('folio start', () => {
  it('serves the project: /api/articles answers 403 without a token, 200 with one; SIGTERM exits 0', async () => {
    const server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)\n/);
      const base = `http://127.0.0.1:${m[1]}`;
      expect((await fetch(`${base}/api/articles`)).status).toBe(403);
      expect(server.stdout()).toMatch(/^Generated API_TOKEN_SALT and kept it in .+\.env$/m);
      // a token made by the CLI while the server runs works at once
      const key = folio(project, ['api-token', 'create', '--name', 'live', '--type', 'read-only']).stdout.trim();
      const ok = await fetch(`${base}/api/articles`, { headers: { authorization: `Bearer ${key}` } });
      expect(ok.status).toBe(200);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('--workers N serves from N processes sharing the port; SIGTERM stops them all', async () => {
    const server = spawnFolio(project, ['start', '--workers', '2', '--port', '0', '--host', '127.0.0.1']);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+) with 2 workers\n/);
      expect(m[1]).not.toBe('0');
      expect((await fetch(`http://127.0.0.1:${m[1]}/api/articles`)).status).toBe(403);
      // the mail setting, said once by the primary (this project has a token: no first steps to give)
      await server.waitFor(/^Email: /m);
      expect(server.stdout().match(/^Email: /gm)).toHaveLength(1);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('a bad schema file stops start-up: exit 1, one line naming the file and attribute, no stack', () => {
    setTagColourType(project.dir, 'colour');
    try {
      const r = folio(project, ['start', '--port', '0']);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`${TAG}: attribute "color": unknown type "colour"\n`);
    } finally {
      setTagColourType(project.dir, 'string');
    }
  });

  it('in production a missing secret stops start-up naming the variable', () => {
    const r = folio(project, ['start', '--port', '0'], { NODE_ENV: 'production', API_TOKEN_SALT: 's', JWT_SECRET: 'j', APP_KEYS: '' });
    // .env of the earlier test holds APP_KEYS; an empty variable in the environment wins over it
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('Missing required environment variable APP_KEYS (needed in production)\n');
  });

  it('a bad setting stops start-up with one line naming it', () => {
    const r = folio(project, ['start'], { PORT: 'abc' });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe('PORT must be a whole number from 0 to 65535, got "abc"\n');
    const c = folio(project, ['start'], { DATABASE_CLIENT: 'oracle' });
    expect(c.status).toBe(1);
    expect(c.stderr).toBe('DATABASE_CLIENT must be sqlite, postgres or mysql, got "oracle"\n');
  });

  it('a PostgreSQL server without TLS, asked for TLS, stops start-up with one line naming the setting', () => {
    const r = folio(project, ['start', '--port', '0'], {
      DATABASE_CLIENT: 'postgres',
      DATABASE_HOST: '127.0.0.1',
      DATABASE_PORT: '5432',
      DATABASE_USERNAME: 'postgres',
      DATABASE_NAME: 'postgres',
      DATABASE_SSL: 'true',
    });
    expect(r.status).toBe(1);
    expect(r.stderr).toBe(
      "PostgreSQL: The server does not support SSL connections, but ssl is on for this connection (config/database's connection.ssl, or DATABASE_SSL=true): set it to false for a server without TLS\n",
    );
  });

  it('usage errors exit 2', () => {
    expect(folio(project, ['start', '--port', 'http']).status).toBe(2);
    expect(folio(project, ['start', 'now']).stderr).toContain('folio start: unexpected argument "now"');
    expect(folio(project, ['serve']).stderr).toContain('Unknown command "serve"');
    expect(folio(null, []).status).toBe(2);
  });

  it('--help and --version', () => {
    const help = folio(null, ['--help']);
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('api-token create --name N');
    const version = folio(null, ['--version']);
    expect(version.status).toBe(0);
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    expect(version.stdout).toBe(`${pkg.version}\n`);
  });
});

describe('folio develop', () => {
  it('restarts on a schema change, reports a bad schema and waits, then recovers', async () => {
    const server = spawnFolio(project, ['develop', '--port', '0', '--host', '127.0.0.1']);
    try {
      const m = await server.waitFor(/Folio listening on http:\/\/127\.0\.0\.1:(\d+)/);
      const base = `http://127.0.0.1:${m[1]}`;
      expect((await fetch(`${base}/api/tags`)).status).toBe(403);

      setTagColourType(project.dir, 'colour');
      await server.waitFor(/unknown type "colour"\n.*Waiting for a change/);
      expect(server.stderr()).not.toMatch(/\n\s+at /);
      expect(
        await fetch(`${base}/api/tags`).then(
          (r) => r.status,
          () => 0,
        ),
      ).toBe(0);

      setTagColourType(project.dir, 'string');
      await server.waitFor(/schema\.json changed: restarted on http:\/\/127\.0\.0\.1:(\d+)/);
      expect(server.stdout()).toContain(`restarted on ${base}`);
      expect((await fetch(`${base}/api/tags`)).status).toBe(403);

      // a schema written as a module is run again on each change
      const noteDir = join(project.dir, 'src/api/note/content-types/note');
      mkdirSync(noteDir, { recursive: true });
      const noteSchema = (attrs: string): string =>
        `export default { kind: 'collectionType', info: { singularName: 'note', pluralName: 'notes' }, options: { draftAndPublish: false }, attributes: { ${attrs} } };`;
      writeFileSync(join(noteDir, 'schema.ts'), noteSchema("title: { type: 'string' }"));
      await server.waitFor(/note[\\/]schema\.ts changed: restarted/);
      const key = folio(project, ['api-token', 'create', '--name', 'dev', '--type', 'full-access']).stdout.trim();
      const post = (data: unknown): Promise<Response> =>
        fetch(`${base}/api/notes`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ data }) });
      expect((await post({ title: 'a', body: 'b' })).status).toBe(400);
      const restarts = server.stdout().split('restarted').length;
      writeFileSync(join(noteDir, 'schema.ts'), noteSchema("title: { type: 'string' }, body: { type: 'text' }"));
      for (let i = 0; server.stdout().split('restarted').length === restarts && i < 200; i++) await new Promise((r) => setTimeout(r, 50));
      expect((await post({ title: 'a', body: 'b' })).status).toBe(201);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });
});
