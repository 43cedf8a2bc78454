// folio permissions and folio users: a newcomer's way in without an admin panel, seen by a running
// server from its next request on.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, spawnFolio, type Project, type Server } from './helpers.js';

let project: Project;
let server: Server;
let base: string;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
  server = spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1'], { FOLIO_LOG: 'false' });
  const m = await server.waitFor(/listening on (http:\/\/\S+)/);
  base = m[1]!;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  await project?.remove();
});

describe('folio permissions', () => {
  it('start-up tells a newcomer the commands that open the project', async () => {
    await server.waitFor(/users create --email/);
    expect(server.stdout()).toContain('Nothing can be read yet');
    expect(server.stdout()).toMatch(/permissions grant public api::\S+\.find api::\S+\.findOne --dir /);
    expect(server.stdout()).toContain('api-token create --name dev --type full-access');
    expect(server.stdout()).toContain('users create --email');
  });

  it('grant lets Public read at once on the running server; revoke takes it back', async () => {
    expect((await fetch(`${base}/api/tags`)).status).toBe(403);
    const g = folio(project, ['permissions', 'grant', 'public', 'api::tag.tag.find', 'api::tag.tag.findOne']);
    expect(g.status, g.stderr).toBe(0);
    expect(g.stdout).toBe('Granted api::tag.tag.find, api::tag.tag.findOne to public\n');
    expect((await fetch(`${base}/api/tags`)).status).toBe(200);
    expect(folio(project, ['permissions', 'grant', 'public', 'api::tag.tag.find']).stdout).toContain('Nothing to change');
    const list = folio(project, ['permissions', 'list', 'public', '--json']);
    expect(JSON.parse(list.stdout)[0].actions).toContain('api::tag.tag.find');
    expect(folio(project, ['permissions', 'revoke', 'public', 'api::tag.tag.*']).status).toBe(0);
    expect((await fetch(`${base}/api/tags`)).status).toBe(403);
  });

  it('refuses unknown actions and roles by name', () => {
    const a = folio(project, ['permissions', 'grant', 'public', 'api::nope.nope.find']);
    expect(a.status).toBe(1);
    expect(a.stderr).toContain('Unknown action api::nope.nope.find');
    const r = folio(project, ['permissions', 'grant', 'admins', 'api::tag.tag.find']);
    expect(r.status).toBe(1);
    expect(r.stderr).toContain('No role of type "admins"; roles: authenticated, public');
    expect(folio(project, ['permissions', 'grant', 'public']).status).toBe(2);
  });
});

describe('folio users create', () => {
  it('creates a confirmed account that logs in on the running server', async () => {
    const c = folio(project, ['users', 'create', '--email', 'Owner@Example.com', '--password', 'secret123']);
    expect(c.status, c.stderr).toBe(0);
    expect(c.stdout).toMatch(/^Created user owner <owner@example.com> \(id \d+\) with role authenticated\n$/);
    const login = await fetch(`${base}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'owner@example.com', password: 'secret123' }),
    });
    expect(login.status).toBe(200);
    const body = (await login.json()) as { jwt: string; user: Record<string, unknown> };
    expect(body.user).toMatchObject({ username: 'owner', confirmed: true });
    expect(body.user).not.toHaveProperty('password');
    const dup = folio(project, ['users', 'create', '--email', 'owner@example.com', '--password', 'secret123']);
    expect(dup.status).toBe(1);
    expect(dup.stderr).toContain('Email or Username are already taken');
    const short = folio(project, ['users', 'create', '--email', 'x@example.com', '--password', '123']);
    expect(short.status).toBe(1);
    expect(short.stderr).toContain('password must be at least 6 characters');
    // a username made from the email is named when it is the one refused
    const made = folio(project, ['users', 'create', '--email', 'o@example.com', '--password', 'secret123']);
    expect([made.status, made.stderr.trim().split('\n').at(-1)]).toEqual([1, `username must be at least 3 characters (username "o" is the email's first part; pass --username)`]);
    const again = folio(project, ['users', 'create', '--email', 'owner@other.example', '--password', 'secret123']);
    expect(again.stderr.trim().split('\n').at(-1)).toBe(`Email or Username are already taken (username "owner" is the email's first part; pass --username)`);
    const given = folio(project, ['users', 'create', '--email', 'y@example.com', '--username', 'o', '--password', 'secret123']);
    expect(given.stderr.trim().split('\n').at(-1)).toBe('username must be at least 3 characters');
  });
});
