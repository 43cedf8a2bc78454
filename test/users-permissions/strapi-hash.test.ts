// A user table copied from a Strapi database keeps logging in: Strapi stores bcryptjs `$2a$10$` hashes.
import bcryptjs from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';
import { register } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('passwords hashed by Strapi', () => {
  it('a $2a$ hash written by bcryptjs (as Strapi does) logs in; a wrong password does not', async () => {
    const u = await register(t, 'migrated');
    await t.app.database.db
      .updateTable('up_users')
      .set({ password: bcryptjs.hashSync('from-strapi', 10) })
      .where('id', '=', u.id)
      .execute();
    const ok = await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'migrated', password: 'from-strapi' } });
    expect(ok.status, ok.text).toBe(200);
    const wrong = await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'migrated', password: 'secret123' } });
    expect(wrong.body.error.message).toBe('Invalid identifier or password');
  });

  it('a stored value that is no bcrypt hash matches nothing (never a 500)', async () => {
    const u = await register(t, 'corrupt');
    await t.app.database.db.updateTable('up_users').set({ password: '$2a$10$not-a-real-hash' }).where('id', '=', u.id).execute();
    const r = await t.request('POST', '/api/auth/local', { token: null, body: { identifier: 'corrupt', password: '$2a$10$not-a-real-hash' } });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('Invalid identifier or password');
  });
});
