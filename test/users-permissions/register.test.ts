// POST /api/auth/local/register without email confirmation (contract: authentication endpoints,
// error table rows "register", Authentication rule 5; behaviour.md §10.6): the body's keys, the
// duplicate rules, the model's checks, the 72-byte limit, the default role, and one winner among
// simultaneous registers with one email.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  decodeJwt,
  errorOf,
  expectError,
  expectNoSecrets,
  expectPublicUser,
  fieldErr,
  login,
  post,
  postRaw,
  register,
  startAuthApp,
  statuses,
  usersWithEmail,
  validationOf,
  type AuthEnv,
} from './auth-support.js';
import type { TestApp } from '../support/app.js';

const REGISTER = '/api/auth/local/register';
const TAKEN = errorOf(400, 'ApplicationError', 'Email or Username are already taken');

let env: AuthEnv;
let t: TestApp;

beforeAll(async () => {
  // nickname is no attribute of the example's user type: allowedFields only lets the key past the
  // parameter check; role is an account field a registering client never sets, listed or not
  env = await startAuthApp({ plugin: { register: { allowedFields: ['nickname', 'role'] } } });
  t = env.t;
});
afterAll(async () => {
  await env?.close();
});

describe('register', () => {
  it('register answers {jwt, user}: a confirmed local user with the lowercased email, no role shown to an anonymous caller', async () => {
    const r = await register(t, 'Newton', 'Isaac.Newton@Example.com');
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
    expectPublicUser(r.body.user, { username: 'Newton', email: 'isaac.newton@example.com', provider: 'local', confirmed: true, blocked: false });
    expectNoSecrets(r);
    const { header, payload } = decodeJwt(r.body.jwt as string);
    expect(header['alg']).toBe('HS256');
    expect(payload['id']).toBe(r.body.user.id);
    expect(Number(payload['exp']) - Number(payload['iat'])).toBe(30 * 24 * 3600);
    const me = await t.get('/api/users/me', { token: r.body.jwt as string });
    expect(me.status, me.text).toBe(200);
    expect(me.body.id).toBe(r.body.user.id);
  });

  it('register gives the new user the Authenticated role', async () => {
    const r = await register(t, 'roley', 'roley@example.com');
    expect(r.status, r.text).toBe(200);
    const u = await t.get(`/api/users/${r.body.user.id as number}?populate=role`);
    expect(u.status, u.text).toBe(200);
    expect(u.body.role).toMatchObject({ id: 1, name: 'Authenticated', type: 'authenticated' });
    expectNoSecrets(u);
    // and the user logs in with the password it chose
    const l = await login(t, 'roley@example.com', 'secret123');
    expect(l.status, l.text).toBe(200);
    expect(l.body.user.id).toBe(r.body.user.id);
  });

  it('register shows the new user its role when the caller may find roles (a full-access token), and only then, as Strapi 5.54', async () => {
    const withRole = await post(t, REGISTER, { username: 'tokened', email: 'tokened@example.com', password: 'secret123' }, t.token);
    expect(withRole.status, withRole.text).toBe(200);
    expect(withRole.body.user.role).toEqual({
      id: 1,
      documentId: expect.any(String),
      name: 'Authenticated',
      description: 'Default role given to authenticated user.',
      type: 'authenticated',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
      publishedAt: expect.any(String),
    });
    expectNoSecrets(withRole);
    const registerOnly = await t.tokenOf('custom', ['plugin::users-permissions.auth.register']);
    const without = await post(t, REGISTER, { username: 'customed', email: 'customed@example.com', password: 'secret123' }, registerOnly);
    expect(without.status, without.text).toBe(200);
    expect(without.body.user).not.toHaveProperty('role');
    const alsoRoles = await t.tokenOf('custom', ['plugin::users-permissions.auth.register', 'plugin::users-permissions.role.find']);
    const withFind = await post(t, REGISTER, { username: 'rolefinder', email: 'rolefinder@example.com', password: 'secret123' }, alsoRoles);
    expect(withFind.status, withFind.text).toBe(200);
    expect(withFind.body.user.role).toMatchObject({ id: 1, type: 'authenticated' });
    // a login answers the user without its role, whoever asks
    const l = await post(t, '/api/auth/local', { identifier: 'tokened', password: 'secret123' }, t.token);
    expect(l.status, l.text).toBe(200);
    expect(l.body.user).not.toHaveProperty('role');
  });

  it('register refuses keys outside username, email, password and allowedFields, naming them all', async () => {
    const r = await post(t, REGISTER, { username: 'extra', email: 'extra@example.com', password: 'secret123', confirmed: true, blocked: false, x: 1 });
    expectError(r, errorOf(400, 'ValidationError', 'Invalid parameters: confirmed, blocked, x'));
    expect(await usersWithEmail(t, 'extra@example.com')).toEqual([]);
  });

  it("register reads an array body's indexes as its keys, as Strapi 5.54 does", async () => {
    expectError(await postRaw(t, REGISTER, '[1, 2]'), errorOf(400, 'ValidationError', 'Invalid parameters: 0, 1'));
    expectError(
      await postRaw(t, REGISTER, '[]'),
      validationOf(
        fieldErr(['email'], 'email is a required field'),
        fieldErr(['username'], 'username is a required field'),
        fieldErr(['password'], 'password is a required field'),
      ),
    );
    expectError(
      await post(t, REGISTER, { username: null, email: null, password: null }),
      validationOf(
        fieldErr(['email'], 'email must be a `string` type, but the final value was: `null`.', null),
        fieldErr(['username'], 'username must be a `string` type, but the final value was: `null`.', null),
        fieldErr(['password'], 'password must be a `string` type'),
      ),
    );
  });

  it('register takes __proto__ and constructor as keys like any other', async () => {
    const raw = '{"username":"proto","email":"proto@example.com","password":"secret123","__proto__":{"role":3},"constructor":{"x":1}}';
    expectError(await postRaw(t, REGISTER, raw), errorOf(400, 'ValidationError', 'Invalid parameters: __proto__, constructor'));
    expect(await usersWithEmail(t, 'proto@example.com')).toEqual([]);
  });

  it('register takes no account field from the client, even when allowedFields lists it: the key is accepted and its value ignored, as in Strapi 5.54', async () => {
    // allowedFields lists role here (as luisguve/farmapaz-strapi does); Strapi answers 200 and gives the default role
    const r = await post(t, REGISTER, { username: 'admin1', email: 'admin1@example.com', password: 'secret123', role: 3 });
    expect(r.status, r.text).toBe(200);
    const users = await t.get(`/api/users?filters[email][$eq]=admin1@example.com&populate=role`);
    expect(users.body.map((u: { role: { type: string } }) => u.role.type)).toEqual(['authenticated']);
    // an account field allowedFields doesn't list is still refused
    expectError(
      await post(t, REGISTER, { username: 'admin2', email: 'admin2@example.com', password: 'secret123', blocked: false }),
      errorOf(400, 'ValidationError', 'Invalid parameters: blocked'),
    );
  });

  it('register accepts a key that allowedFields lists but the user type lacks, and stores nothing for it, as Strapi 5.54', async () => {
    // the example's user type has no nickname; seen on the reference: 200 and the user without it
    // (an attribute added by the project is registered: extension.test.ts)
    const r = await post(t, REGISTER, { username: 'nicky', email: 'nicky@example.com', password: 'secret123', nickname: 'Nick' });
    expect(r.status, r.text).toBe(200);
    expect(r.body.user).not.toHaveProperty('nickname');
    expectPublicUser(r.body.user, { username: 'nicky', email: 'nicky@example.com' });
    expect(await usersWithEmail(t, 'nicky@example.com')).toHaveLength(1);
  });

  it('register refuses an email taken in another case, a username equal to an email, and an email equal to a username', async () => {
    expect((await register(t, 'dupont', 'dup@example.com')).status).toBe(200);
    expectError(await register(t, 'dupond', 'DUP@Example.com'), TAKEN);
    expectError(await register(t, 'dup@example.com', 'other1@example.com'), TAKEN);
    // (Strapi's rule compares the username as given with the stored, lowercased emails:
    // 'DUP@example.com' as a username is not refused — behaviour.md §10.6 point 5)
    expect((await register(t, 'grace@example.com', 'g.hopper@example.com')).status).toBe(200);
    expectError(await register(t, 'gracie', 'grace@example.com'), TAKEN);
    expectError(await register(t, 'dupont', 'other3@example.com'), TAKEN);
    expect(await usersWithEmail(t, 'dup@example.com')).toHaveLength(1);
    for (const e of ['other1@example.com', 'other3@example.com']) expect(await usersWithEmail(t, e)).toEqual([]);
  });

  it('register matches usernames case-sensitively', async () => {
    expect((await register(t, 'Casey', 'casey1@example.com')).status).toBe(200);
    const r = await register(t, 'casey', 'casey2@example.com');
    expect(r.status, r.text).toBe(200);
    expect(r.body.user.username).toBe('casey');
  });

  it('register applies the model: username at least 3 characters, password at least 6', async () => {
    expectError(await register(t, 'ab', 'ab@example.com'), validationOf(fieldErr(['username'], 'username must be at least 3 characters', 'ab')));
    expectError(await register(t, 'shorty', 'shorty@example.com', '12345'), validationOf(fieldErr(['password'], 'password must be at least 6 characters')));
    expect(await usersWithEmail(t, 'ab@example.com')).toEqual([]);
    expect(await usersWithEmail(t, 'shorty@example.com')).toEqual([]);
  });

  it('register takes a password of 72 bytes and refuses 73, counting UTF-8 bytes', async () => {
    const ok = await register(t, 'long72', 'long72@example.com', 'p'.repeat(72));
    expect(ok.status, ok.text).toBe(200);
    expect((await login(t, 'long72', 'p'.repeat(72))).status).toBe(200);
    const tooLong = 'p'.repeat(73);
    expectError(await register(t, 'long73', 'long73@example.com', tooLong), validationOf(fieldErr(['password'], 'Password must be less than 73 bytes')));
    // 37 characters, 74 bytes
    const wide = 'é'.repeat(37);
    expectError(await register(t, 'wide74', 'wide74@example.com', wide), validationOf(fieldErr(['password'], 'Password must be less than 73 bytes')));
    expect(await usersWithEmail(t, 'long73@example.com')).toEqual([]);
  });
});

describe('passwords with an unpaired surrogate', () => {
  const ILL = 'Password must be valid Unicode text (it holds an unpaired surrogate)';

  it('are refused on register and on /api/users: bcrypt would take "\\ud800" and "\\udfff" for one password', async () => {
    expectError(await register(t, 'lone1', 'lone1@example.com', '\ud800'.repeat(8)), validationOf(fieldErr(['password'], ILL)));
    expectError(await register(t, 'lone2', 'lone2@example.com', `secret${'\udfff'}x`), validationOf(fieldErr(['password'], ILL)));
    const api = await t.request('POST', '/api/users', { body: { username: 'lone3', email: 'lone3@example.com', password: 'abc\udc00def' } });
    expect([api.status, api.body.error.message]).toEqual([400, ILL]);
    expect(await usersWithEmail(t, 'lone1@example.com')).toEqual([]);
    // a pair is a character like any other
    const paired = await register(t, 'emoji', 'emoji@example.com', 'secret😀');
    expect(paired.status, paired.text).toBe(200);
    expect((await login(t, 'emoji', 'secret😀')).status).toBe(200);
  });

  it('never sign in: the replacement character does not stand for them', async () => {
    const ok = await register(t, 'fffd', 'fffd@example.com', '\ufffd'.repeat(8));
    expect(ok.status, ok.text).toBe(200);
    expect((await login(t, 'fffd', '\ufffd'.repeat(8))).status).toBe(200);
    for (const lone of ['\ud800', '\udfff', '\udbff']) {
      expectError(await login(t, 'fffd', lone.repeat(8)), errorOf(400, 'ValidationError', 'Invalid identifier or password'));
    }
  });
});

describe('register with bad input', () => {
  it('register names every missing field', async () => {
    expectError(
      await post(t, REGISTER, {}),
      validationOf(
        fieldErr(['email'], 'email is a required field'),
        fieldErr(['username'], 'username is a required field'),
        fieldErr(['password'], 'password is a required field'),
      ),
    );
    expectError(await post(t, REGISTER, { username: 'nopass', email: 'nopass@example.com' }), validationOf(fieldErr(['password'], 'password is a required field')));
  });

  it("register checks the email with yup's grammar, as Strapi 5.54 does (compared with the reference), and not the user type's minLength", async () => {
    const ok = ['b@b.c', '"b c"@c.de', 'ö@exämple.de', 'user2@example.co_m', 'b@c_d.de', 'b@c~d.de', '"b\\"b"@c.de', `c@${'d'.repeat(66)}.de`];
    for (const [i, email] of ok.entries()) {
      const r = await register(t, `grammar${i}`, email);
      expect(r.status, `${email}: ${r.text}`).toBe(200);
      expect(r.body.user.email, email).toBe(email.toLowerCase());
    }
    for (const email of ['a@b', 'a..b@c.de', 'a@c.d1', 'a@[127.0.0.1]', 'a@c.de ', ' a@c.de', 'a@-c.de']) {
      expectError(await register(t, 'grammarbad', email), validationOf(fieldErr(['email'], 'email must be a valid email', email)));
    }
  });

  it("register refuses numbers for strings with yup's type message, and a malformed email", async () => {
    expectError(
      await post(t, REGISTER, { username: 123, email: 'num@example.com', password: 'secret123' }),
      validationOf(fieldErr(['username'], 'username must be a `string` type, but the final value was: `123`.', 123)),
    );
    expectError(
      await post(t, REGISTER, { username: 'num', email: 'not-an-email', password: 123456 }),
      validationOf(fieldErr(['email'], 'email must be a valid email', 'not-an-email'), fieldErr(['password'], 'password must be a `string` type')),
    );
  });

  it('register refuses over-long and U+0000 strings with a 400, never a 500, and writes nothing', async () => {
    const longName = 'u'.repeat(256);
    const r1 = await register(t, longName, 'longname@example.com');
    expectError(r1, validationOf(fieldErr(['username'], 'username must be at most 255 characters', longName)));
    // a well-formed address too long for the column (Strapi 5.54 stores it on SQLite, and fails on the others)
    const longEmail = `${'e'.repeat(250)}@example.com`;
    expectError(await register(t, 'longmail', longEmail), validationOf(fieldErr(['email'], 'email must be at most 255 characters', longEmail)));
    const r3 = await register(t, 'nul\u0000name', 'nul@example.com');
    expect(r3.status, r3.text).toBe(400);
    expect(r3.body.error.name).toBe('ValidationError');
    const r4 = await register(t, 'x'.repeat(100_000), 'huge@example.com', 'y'.repeat(100_000));
    expect(r4.status, r4.text).toBe(400);
    for (const e of ['longname@example.com', 'nul@example.com', 'huge@example.com']) expect(await usersWithEmail(t, e)).toEqual([]);
  });

  it('register answers malformed JSON with a 400, never a 500', async () => {
    for (const raw of ['{"username": "x",', '{"a":1}}', "{'username': 'x'}", 'true']) {
      const r = await postRaw(t, REGISTER, raw);
      expect(r.status, `${raw} → ${r.text}`).toBe(400);
      expect(r.body.data).toBeNull();
    }
  });
});

describe('register under concurrency', () => {
  it('two simultaneous registers with one email: exactly one succeeds and one row exists', async () => {
    const rs = await Promise.all([register(t, 'twin-a', 'twin@example.com'), register(t, 'twin-b', 'TWIN@example.com')]);
    expect(statuses(rs), rs.map((r) => r.text).join('\n')).toEqual({ 200: 1, 400: 1 });
    for (const r of rs) if (r.status === 400) expectError(r, TAKEN);
    expect(await usersWithEmail(t, 'twin@example.com')).toHaveLength(1);
  });

  it('twenty simultaneous registers with one email: exactly one succeeds and one row exists', async () => {
    const rs = await Promise.all(Array.from({ length: 20 }, (_, i) => register(t, `crowd-${i}`, 'crowd@example.com')));
    expect(
      statuses(rs),
      rs
        .filter((r) => r.status !== 200 && r.status !== 400)
        .map((r) => r.text)
        .join('\n'),
    ).toEqual({ 200: 1, 400: 19 });
    for (const r of rs) if (r.status === 400) expectError(r, TAKEN);
    const rows = await usersWithEmail(t, 'crowd@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]!['id']).toBe(rs.find((r) => r.status === 200)!.body.user.id);
  });

  it('two simultaneous registers with one username: exactly one succeeds', async () => {
    const rs = await Promise.all([register(t, 'samename', 'same1@example.com'), register(t, 'samename', 'same2@example.com')]);
    expect(statuses(rs), rs.map((r) => r.text).join('\n')).toEqual({ 200: 1, 400: 1 });
    for (const r of rs) if (r.status === 400) expectError(r, TAKEN);
    const count = await t.get('/api/users/count?filters[username][$eq]=samename');
    expect(count.body).toBe(1);
  });
});

describe('register when disabled', () => {
  let off: AuthEnv;
  beforeAll(async () => {
    off = await startAuthApp({ advanced: { allow_register: false } });
  });
  afterAll(async () => {
    await off?.close();
  });

  it('register answers "Register action is currently disabled" before looking at the body', async () => {
    const disabled = errorOf(400, 'ApplicationError', 'Register action is currently disabled');
    expectError(await register(off.t, 'closed', 'closed@example.com'), disabled);
    expectError(await post(off.t, REGISTER, { username: 'closed', email: 'closed@example.com', password: 'secret123', role: 1 }), disabled);
    expectError(await post(off.t, REGISTER, {}), disabled);
    expect(await usersWithEmail(off.t, 'closed@example.com')).toEqual([]);
  });
});

describe('register when advanced.default_role names another role', () => {
  let env: AuthEnv;
  beforeAll(async () => {
    env = await startAuthApp({ advanced: { default_role: 'reviewer' } });
    const role = await env.t.request('POST', '/api/users-permissions/roles', { body: { name: 'Reviewer', description: 'reads drafts' } });
    expect(role.status, role.text).toBe(200);
  });
  afterAll(async () => {
    await env?.close();
  });

  it('register and POST /api/users without role give the new user that role, not Authenticated', async () => {
    const r = await register(env.t, 'revuser', 'revuser@example.com');
    expect(r.status, r.text).toBe(200);
    const u = await env.t.get(`/api/users/${r.body.user.id as number}?populate=role`);
    expect(u.body.role).toMatchObject({ name: 'Reviewer', type: 'reviewer' });
    const created = await env.t.request('POST', '/api/users', { body: { username: 'revmade', email: 'revmade@example.com', password: 'secret123' } });
    expect(created.status, created.text).toBe(201);
    expect(created.body.role).toMatchObject({ name: 'Reviewer', type: 'reviewer' });
  });
});
