import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService } from '../../src/auth/api-tokens.js';
import { loadConfig } from '../../src/config/load-config.js';
import { connect } from '../../src/database/connect.js';
import { copyProject, ensureBuilt, folio, type Project } from './helpers.js';

let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
});
afterAll(() => project.remove());

/** What the server would make of a key: the same .env salt and database as the CLI used. */
async function serverSees(accessKey: string): Promise<unknown> {
  const { config } = await loadConfig(project.dir, { ...project.env }, { writeEnvFile: false });
  const database = await connect(config.database);
  try {
    return await new ApiTokenService(database, config.secrets.apiTokenSalt).verify(accessKey);
  } finally {
    await database.close();
  }
}

describe('folio api-token create', () => {
  it('prints the access key alone; development secrets are generated into .env once, on stderr', async () => {
    const r = folio(project, ['api-token', 'create', '--name', 'one', '--type', 'full-access']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^[0-9a-f]{128}\n$/);
    expect(r.stderr).toContain(`Generated API_TOKEN_SALT and kept it in ${join(project.dir, '.env')}`);
    const env = readFileSync(join(project.dir, '.env'), 'utf8');
    expect(env).toMatch(/^API_TOKEN_SALT=.+$/m);
    expect(env).toMatch(/^JWT_SECRET=.+$/m);
    expect(env).toMatch(/^APP_KEYS=.+$/m);
    // the key is not stored: only its hash
    expect(env).not.toContain(r.stdout.trim());
    expect(await serverSees(r.stdout.trim())).toMatchObject({ name: 'one', type: 'full-access' });

    const again = folio(project, ['api-token', 'create', '--name', 'two', '--type', 'read-only']);
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(readFileSync(join(project.dir, '.env'), 'utf8')).toBe(env);
  });

  it('--json gives the token and its key', () => {
    const r = folio(project, [
      'api-token',
      'create',
      '--name',
      'three',
      '--type',
      'custom',
      '--permissions',
      'api::article.article.find, api::tag.tag.findOne',
      '--lifespan',
      '7',
      '--description',
      'for the site',
      '--json',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const j = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(j).sort()).toEqual(['accessKey', 'expiresAt', 'id', 'name', 'permissions', 'type']);
    expect(j).toMatchObject({ id: expect.any(Number), name: 'three', type: 'custom', permissions: ['api::article.article.find', 'api::tag.tag.findOne'] });
    expect(j['accessKey']).toMatch(/^[0-9a-f]{128}$/);
    const days = (Date.parse(String(j['expiresAt'])) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(6.99);
    expect(days).toBeLessThanOrEqual(7);
  });

  it('a duplicate name is refused with one line, exit 1', () => {
    const r = folio(project, ['api-token', 'create', '--name', 'one', '--type', 'read-only']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('Name already taken\n');
  });

  it('a lifespan ending past the year 9999 is refused with one line, exit 1 (it was a stack trace)', () => {
    const r = folio(project, ['api-token', 'create', '--name', 'forever', '--type', 'read-only', '--lifespan', '99999999']);
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('lifespan must end by the year 9999\n');
  });

  it('a permission naming no action Folio has is refused, exit 1, as Strapi refuses unknown permissions', () => {
    for (const p of ['articles.read', 'api::nope.nope.find', 'api::article.article.nope']) {
      const r = folio(project, ['api-token', 'create', '--name', 'x', '--type', 'custom', '--permissions', `api::tag.tag.find,${p}`]);
      expect(r.status, p).toBe(1);
      expect(r.stderr).toBe(`Unknown action ${p}. Actions look like api::article.article.find or plugin::users-permissions.user.me; \`folio permissions list --all\` lists them\n`);
    }
    expect(folio(project, ['api-token', 'list', '--json']).stdout).not.toContain('"x"');
  });

  it('a permission ending in .* names every action of that controller, as permissions grant reads it', () => {
    const r = folio(project, ['api-token', 'create', '--name', 'tags', '--type', 'custom', '--permissions', 'api::tag.tag.*', '--json']);
    expect(r.status, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { permissions: string[] }).permissions.sort()).toEqual(['create', 'delete', 'find', 'findOne', 'update'].map((a) => `api::tag.tag.${a}`));
    expect(folio(project, ['api-token', 'revoke', 'tags']).status).toBe(0);
  });

  it.each([
    [['--name', 'x', '--type', 'root'], 'api-token create needs --type read-only|full-access|custom, got "root"'],
    [['--type', 'read-only'], 'api-token create needs --name'],
    [['--name', 'x', '--type', 'custom'], '--type custom needs --permissions'],
    [['--name', 'x', '--type', 'read-only', '--permissions', 'api::a.a.find'], '--permissions only applies to --type custom'],
    [['--name', 'x', '--type', 'read-only', '--lifespan', 'soon'], '--lifespan takes a whole number, got "soon"'],
    [['--name', 'x', '--type', 'read-only', '--lifespan', '0'], '--lifespan takes a number of days'],
    [['--name', 'x', '--type', 'read-only', '--port', '1'], 'folio api-token create does not take --port'],
    [['--name', 'x', '--type', 'read-only', '--colour', 'red'], "Unknown option '--colour'"],
    // the helper appends --dir, so this reads as `--name --dir …`
    [['--name'], "Option '--name' argument is ambiguous"],
  ])('usage error %j exits 2 with the message and the usage', (args, message) => {
    const r = folio(project, ['api-token', 'create', ...args]);
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(message);
    expect(r.stderr).toContain('Usage: folio <command>');
  });
});

describe('folio api-token list and revoke', () => {
  it('list shows the tokens as a table and never a key', () => {
    const created = folio(project, ['api-token', 'create', '--name', 'listed', '--type', 'read-only']).stdout.trim();
    const r = folio(project, ['api-token', 'list']);
    expect(r.status, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^ID\s+NAME\s+TYPE\s+EXPIRES\s+LAST USED\s+PERMISSIONS$/);
    expect(lines.slice(1).map((l) => l.split(/\s+/)[1])).toEqual(['one', 'two', 'three', 'listed']);
    expect(r.stdout).toContain('api::article.article.find,api::tag.tag.findOne');
    expect(r.stdout).not.toContain(created);
    expect(r.stdout).not.toMatch(/[0-9a-f]{64}/);
  });

  it('list --json gives every field but the key', () => {
    const r = folio(project, ['api-token', 'list', '--json']);
    expect(r.status, r.stderr).toBe(0);
    const list = JSON.parse(r.stdout) as Record<string, unknown>[];
    expect(list.map((t) => t['name'])).toEqual(['one', 'two', 'three', 'listed']);
    expect(list[2]).toEqual({
      id: expect.any(Number),
      name: 'three',
      description: 'for the site',
      type: 'custom',
      permissions: ['api::article.article.find', 'api::tag.tag.findOne'],
      lifespan: 7 * 86_400_000,
      expiresAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      lastUsedAt: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    expect(r.stdout).not.toMatch(/accessKey|access_key|[0-9a-f]{64}/);
  });

  it('revoke by name and by id; the key stops working; an unknown one exits 1', async () => {
    const key = folio(project, ['api-token', 'create', '--name', 'doomed', '--type', 'read-only']).stdout.trim();
    expect(await serverSees(key)).not.toBeNull();
    const byName = folio(project, ['api-token', 'revoke', 'doomed']);
    expect(byName.status, byName.stderr).toBe(0);
    expect(await serverSees(key)).toBeNull();

    const list = JSON.parse(folio(project, ['api-token', 'list', '--json']).stdout) as { id: number; name: string }[];
    const two = list.find((t) => t.name === 'two')!;
    expect(folio(project, ['api-token', 'revoke', String(two.id)]).status).toBe(0);
    const names = (JSON.parse(folio(project, ['api-token', 'list', '--json']).stdout) as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(['one', 'three', 'listed']);

    const none = folio(project, ['api-token', 'revoke', 'doomed']);
    expect(none.status).toBe(1);
    expect(none.stderr).toBe('No API token named or numbered "doomed"\n');
  });

  it('revoke without a name, or an unknown subcommand, is a usage error', () => {
    expect(folio(project, ['api-token', 'revoke']).status).toBe(2);
    expect(folio(project, ['api-token', 'rotate']).stderr).toContain('api-token: unknown subcommand "rotate"');
    expect(folio(project, ['api-token']).status).toBe(2);
    expect(folio(project, ['api-token', 'list', 'extra']).stderr).toContain('unexpected argument "extra"');
  });
});
