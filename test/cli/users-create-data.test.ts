// folio users create --data: the attributes a users-permissions extension adds, its required ones
// included, given as a JSON object and checked as POST /api/users checks them.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, folio, type Project } from './helpers.js';

let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
  const dir = join(project.dir, 'src', 'extensions', 'users-permissions', 'content-types', 'user');
  mkdirSync(dir, { recursive: true });
  const attributes = { telegramId: { type: 'string', required: true, unique: true }, favorite: { type: 'relation', relation: 'manyToOne', target: 'api::article.article' } };
  writeFileSync(join(dir, 'schema.json'), JSON.stringify({ kind: 'collectionType', collectionName: 'up_users', info: { singularName: 'user', pluralName: 'users' }, attributes }));
}, 60_000);
afterAll(async () => {
  await project?.remove();
});

const create = (email: string, ...more: string[]) => folio(project, ['users', 'create', '--email', email, '--password', 'secret123', ...more]);
const lastLine = (text: string): string => text.trim().split('\n').at(-1)!;

describe('folio users create --data', () => {
  it("sets a user extension's attributes; without its required one the account is refused, as POST /api/users refuses it", () => {
    const without = create('one@example.com');
    expect([without.status, lastLine(without.stderr)]).toEqual([1, 'telegramId must be defined.']);
    const made = create('one@example.com', '--data', '{"telegramId":"t-1"}', '--json');
    expect(made.status, made.stderr).toBe(0);
    expect(JSON.parse(made.stdout)).toMatchObject({ username: 'one', email: 'one@example.com', telegramId: 't-1', confirmed: true });
    expect(made.stdout).not.toContain('password');
    const again = create('two@example.com', '--data', '{"telegramId":"t-1"}');
    expect([again.status, lastLine(again.stderr)]).toEqual([1, 'This attribute must be unique']);
  });

  it('checks the attributes as the REST API does: an unknown key, a wrong type, a relation to nothing', () => {
    expect(lastLine(create('three@example.com', '--data', '{"telegramId":"t-3","nope":1}').stderr)).toBe('Invalid key nope');
    expect(lastLine(create('three@example.com', '--data', '{"telegramId":5}').stderr)).toBe('telegramId must be a `string` type, but the final value was: `5`.');
    expect(lastLine(create('three@example.com', '--data', '{"telegramId":"t-3","favorite":"none"}').stderr)).toBe('Document with id "none", locale "en" not found');
  });

  it('what is no JSON object, or sets what the command sets itself, is a usage error (exit 2)', () => {
    const bad = create('four@example.com', '--data', '[1');
    expect(bad.status).toBe(2);
    // then JSON.parse's own words, which differ between Node versions
    expect(bad.stderr.split('\n')[0]).toMatch(/^users create --data must be a JSON object of attributes: \S/);
    const list = create('four@example.com', '--data', '[]');
    expect([list.status, list.stderr.split('\n')[0]]).toEqual([2, `users create --data must be a JSON object of attributes, e.g. '{"phone":"555"}'`]);
    const role = create('four@example.com', '--data', '{"role":1}');
    expect([role.status, role.stderr.split('\n')[0]]).toEqual([2, 'users create --data may not set "role": use --role']);
    const confirmed = create('four@example.com', '--data', '{"confirmed":false}');
    expect(confirmed.stderr.split('\n')[0]).toBe('users create --data may not set "confirmed": the command sets it');
  });
});
