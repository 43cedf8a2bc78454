import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTokenService, hashAccessKey } from '../../src/auth/api-tokens.js';
import { connect } from '../../src/database/connect.js';
import type { Database } from '../../src/database/dialect.js';
import { syncSchema } from '../../src/database/sync.js';
import { ValidationError } from '../../src/errors.js';
import { loadModel } from '../../src/schema/load-model.js';
import { EXAMPLE_DIR } from '../support/app.js';
import { createTestDatabase, type TestDatabase } from '../support/database.js';

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const DAY = 86_400_000;
let testDb: TestDatabase;
let database: Database;
let tokens: ApiTokenService;

beforeAll(async () => {
  testDb = await createTestDatabase();
  database = await connect(testDb.config);
  await syncSchema(database, loadModel(EXAMPLE_DIR));
  tokens = new ApiTokenService(database, 'pepper');
});
afterAll(async () => {
  await database.close();
  await testDb.drop();
});

const row = (id: number) => database.db.selectFrom('folio_api_tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const setColumn = (id: number, column: string, at: Date) =>
  database.db
    .updateTable('folio_api_tokens')
    .set({ [column]: database.dialect.toDatetime(at) })
    .where('id', '=', id)
    .execute();

async function refused(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ValidationError);
  return (e as ValidationError).message;
}

describe('hashAccessKey', () => {
  it('is the hex HMAC-SHA512 of the key with the salt, as Strapi stores it', () => {
    expect(hashAccessKey('abc', 'salt')).toBe(createHmac('sha512', 'salt').update('abc').digest('hex'));
    expect(hashAccessKey('abc', 'salt')).toMatch(/^[0-9a-f]{128}$/);
    expect(hashAccessKey('abc', 'other')).not.toBe(hashAccessKey('abc', 'salt'));
  });
});

describe('create', () => {
  it('returns a 128-hex key once and stores only its hash', async () => {
    const before = Date.now();
    const { token, accessKey } = await tokens.create({ name: 'site', type: 'read-only', description: 'the web site' });
    expect(accessKey).toMatch(/^[0-9a-f]{128}$/);
    expect(token).toEqual({
      id: expect.any(Number),
      name: 'site',
      description: 'the web site',
      type: 'read-only',
      permissions: [],
      lifespan: null,
      expiresAt: null,
      lastUsedAt: null,
      createdAt: expect.stringMatching(ISO),
    });
    expect(Date.parse(token.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    const stored = await row(token.id);
    expect(stored['access_key']).toBe(hashAccessKey(accessKey, 'pepper'));
    expect(JSON.stringify(stored)).not.toContain(accessKey);
  });

  it('a lifespan in days sets lifespan (ms) and expiresAt', async () => {
    const { token } = await tokens.create({ name: 'month', type: 'full-access', lifespanDays: 30 });
    expect(token.lifespan).toBe(30 * DAY);
    expect(token.expiresAt).toMatch(ISO);
    expect(Date.parse(token.expiresAt!) - Date.parse(token.createdAt)).toBe(30 * DAY);
    const odd = await tokens.create({ name: 'odd', type: 'full-access', lifespanDays: 3 });
    expect(odd.token.lifespan).toBe(3 * DAY);
  });

  it('custom tokens keep their permissions, de-duplicated; other types ignore them', async () => {
    const { token } = await tokens.create({
      name: 'custom',
      type: 'custom',
      permissions: ['api::article.article.find', 'plugin::upload.content-api.find', 'api::article.article.find'],
    });
    expect(token.permissions).toEqual(['api::article.article.find', 'plugin::upload.content-api.find']);
    const full = await tokens.create({ name: 'full', type: 'full-access', permissions: ['api::article.article.find'] });
    expect(full.token.permissions).toEqual([]);
  });

  it.each([
    [{ name: '  ', type: 'read-only' }, 'name is a required field'],
    [{ name: 'x'.repeat(256), type: 'read-only' }, 'name must be at most 255 characters'],
    [{ name: 'x', type: 'admin' }, 'type must be one of the following values: read-only, full-access, custom'],
    [{ name: 'x', type: 'custom' }, 'A custom token needs at least one permission'],
    [{ name: 'x', type: 'custom', permissions: [] }, 'A custom token needs at least one permission'],
    [{ name: 'x', type: 'custom', permissions: ['find'] }, 'Invalid permission "find": expected an action such as api::article.article.find'],
    [{ name: 'x', type: 'custom', permissions: ['api::article.find'] }, 'Invalid permission "api::article.find": expected an action such as api::article.article.find'],
    [{ name: 'x', type: 'read-only', lifespanDays: 0 }, 'lifespan must be a positive whole number of days'],
    [{ name: 'x', type: 'read-only', lifespanDays: 1.5 }, 'lifespan must be a positive whole number of days'],
    [{ name: 'x', type: 'read-only', lifespanDays: 99_999_999 }, 'lifespan must end by the year 9999'],
    [{ name: 'x', type: 'read-only', lifespanDays: 3_000_000 }, 'lifespan must end by the year 9999'],
  ])('%j is refused', async (input, message) => {
    expect(await refused(tokens.create(input as Parameters<ApiTokenService['create']>[0]))).toBe(message);
  });

  it('a taken name is refused', async () => {
    expect(await refused(tokens.create({ name: 'site', type: 'full-access' }))).toBe('Name already taken');
    expect(await refused(tokens.create({ name: ' site ', type: 'full-access' }))).toBe('Name already taken');
  });
});

describe('list', () => {
  it('lists every token in creation order, without keys or hashes', async () => {
    const list = await tokens.list();
    expect(list.map((t) => t.name)).toEqual(['site', 'month', 'odd', 'custom', 'full']);
    for (const t of list) expect(Object.keys(t).sort()).toEqual(['createdAt', 'description', 'expiresAt', 'id', 'lastUsedAt', 'lifespan', 'name', 'permissions', 'type']);
  });
});

describe('verify', () => {
  it('knows a key, not an unknown one, nor one hashed with another salt', async () => {
    const { token, accessKey } = await tokens.create({ name: 'v1', type: 'custom', permissions: ['api::tag.tag.find'] });
    expect(await tokens.verify(accessKey)).toMatchObject({ id: token.id, name: 'v1', type: 'custom', permissions: ['api::tag.tag.find'] });
    expect(await tokens.verify('0'.repeat(128))).toBeNull();
    expect(await new ApiTokenService(database, 'other-salt').verify(accessKey)).toBeNull();
  });

  it('records lastUsedAt, then at most hourly', async () => {
    const { token, accessKey } = await tokens.create({ name: 'v2', type: 'read-only' });
    const first = await tokens.verify(accessKey);
    expect(first).not.toBe('expired');
    const used = (first as { lastUsedAt: string }).lastUsedAt;
    expect(used).toMatch(ISO);
    expect(Math.abs(Date.parse(used) - Date.now())).toBeLessThan(5000);
    const stored = (await tokens.list()).find((t) => t.id === token.id)!;
    expect(stored.lastUsedAt).toBe(used);

    // within the hour: no write, whatever the database says
    const old = new Date(Date.now() - 30 * 60_000);
    await setColumn(token.id, 'last_used_at', old);
    const fresh = new ApiTokenService(database, 'pepper');
    await fresh.verify(accessKey);
    expect((await tokens.list()).find((t) => t.id === token.id)!.lastUsedAt).toBe(old.toISOString());

    // over an hour ago: written again
    await setColumn(token.id, 'last_used_at', new Date(Date.now() - 2 * 3_600_000));
    await new ApiTokenService(database, 'pepper').verify(accessKey);
    const again = Date.parse((await tokens.list()).find((t) => t.id === token.id)!.lastUsedAt!);
    expect(Math.abs(again - Date.now())).toBeLessThan(5000);
  });

  it('an expired token is "expired"', async () => {
    const { token, accessKey } = await tokens.create({ name: 'v3', type: 'read-only', lifespanDays: 7 });
    expect(await tokens.verify(accessKey)).toMatchObject({ name: 'v3' });
    await setColumn(token.id, 'expires_at', new Date(Date.now() - 1000));
    // a service that hasn't cached it yet reads the new expiry
    expect(await new ApiTokenService(database, 'pepper').verify(accessKey)).toBe('expired');
  });

  it('a cached token costs no query; revoking it here is seen at once', async () => {
    const { accessKey } = await tokens.create({ name: 'v4', type: 'full-access' });
    // the first use writes lastUsedAt, a write: the next verification reads the token again
    await tokens.verify(accessKey);
    await tokens.verify(accessKey);
    // at most one statement: the change mark's read (shared by the requests handled between two polls of the event loop), or on
    // MySQL, whose mark can't see other processes' writes, the token itself. PostgreSQL's mark moves with
    // any commit on the server (other test files run alongside): the cheapest of a few tries counts.
    const costs: number[] = [];
    for (let i = 0; i < 5 && !costs.some((c) => c <= 1); i++) {
      const before = database.statements();
      expect(await tokens.verify(accessKey)).toMatchObject({ name: 'v4' });
      costs.push(database.statements() - before);
    }
    expect(Math.min(...costs)).toBeLessThanOrEqual(1);
    expect(await tokens.revoke('v4')).toBe(true);
    expect(await tokens.verify(accessKey)).toBeNull();
  });

  it('a token revoked by another service (the CLI, another instance) stops working at once', async () => {
    const service = new ApiTokenService(database, 'pepper');
    const { accessKey } = await service.create({ name: 'v5', type: 'full-access' });
    expect(await service.verify(accessKey)).toMatchObject({ name: 'v5' });
    expect(await service.verify(accessKey)).toMatchObject({ name: 'v5' });
    expect(await new ApiTokenService(database, 'pepper').revoke('v5')).toBe(true);
    expect(await service.verify(accessKey)).toBeNull();
  });
});

describe('revoke', () => {
  it('by name, or by id; false when there is no such token', async () => {
    const a = await tokens.create({ name: 'r1', type: 'read-only' });
    const b = await tokens.create({ name: 'r2', type: 'read-only' });
    expect(await tokens.revoke('r1')).toBe(true);
    expect(await tokens.revoke(String(b.token.id))).toBe(true);
    expect(await tokens.verify(a.accessKey)).toBeNull();
    expect(await tokens.verify(b.accessKey)).toBeNull();
    expect(await tokens.revoke('r1')).toBe(false);
    expect(await tokens.revoke('999999')).toBe(false);
  });

  it('a name made of digits is matched as a name first', async () => {
    const named = await tokens.create({ name: '1', type: 'read-only' });
    const first = (await tokens.list())[0]!;
    expect(await tokens.revoke('1')).toBe(true);
    const names = (await tokens.list()).map((t) => t.name);
    expect(names).not.toContain('1');
    expect(names).toContain(first.name);
    expect(named.token.id).not.toBe(1);
  });
});
