// POST /api/auth/local (contract: authentication endpoints, error table rows "login"; behaviour.md
// §10.3, §10.4): email in any case or username in its exact case, the one message for every wrong
// pair, the account states, the `{jwt, user}` shape and the token's payload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  decodeJwt,
  errorOf,
  expectError,
  expectNoSecrets,
  expectPublicUser,
  fieldErr,
  login,
  post,
  postRaw,
  startAuthApp,
  validationOf,
  type AuthEnv,
} from './auth-support.js';
import type { Response, TestApp } from '../support/app.js';

let env: AuthEnv;
let t: TestApp;
let aliceId: number;
const INVALID = errorOf(400, 'ValidationError', 'Invalid identifier or password');

beforeAll(async () => {
  // confirmation on, so an unconfirmed account exists; the users API makes each state directly
  env = await startAuthApp({ advanced: { email_confirmation: true } });
  t = env.t;
  aliceId = await createUser(t, { username: 'Alice', email: 'alice@example.com', password: 'alice-pass', confirmed: true });
  await createUser(t, { username: 'bob', email: 'bob@example.com', password: 'bob-pass', confirmed: false });
  await createUser(t, { username: 'mallory', email: 'mallory@example.com', password: 'mallory-pass', confirmed: true, blocked: true });
});
afterAll(async () => {
  await env?.close();
});

describe('login', () => {
  it('login by email in any case answers {jwt, user} with the public fields only (no role)', async () => {
    for (const identifier of ['alice@example.com', 'ALICE@Example.COM']) {
      const r = await login(t, identifier, 'alice-pass');
      expect(r.status, r.text).toBe(200);
      expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
      expectPublicUser(r.body.user, { id: aliceId, username: 'Alice', email: 'alice@example.com', provider: 'local', confirmed: true, blocked: false });
      expectNoSecrets(r);
    }
  });

  it('login by username matches the exact case only', async () => {
    const ok = await login(t, 'Alice', 'alice-pass');
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.user.id).toBe(aliceId);
    expectError(await login(t, 'alice', 'alice-pass'), INVALID);
    expectError(await login(t, 'ALICE', 'alice-pass'), INVALID);
  });

  it('login answers the same message for an unknown identifier and a wrong password', async () => {
    const unknown = await login(t, 'nobody@example.com', 'alice-pass');
    const wrong = await login(t, 'alice@example.com', 'not-the-password');
    const unknownName = await login(t, 'nobody', 'whatever1');
    expectError(unknown, INVALID);
    expect(wrong.body).toEqual(unknown.body);
    expect(unknownName.body).toEqual(unknown.body);
  });

  it('login refuses an unconfirmed account while email confirmation is on, but only with the right password', async () => {
    expectError(await login(t, 'bob', 'bob-pass'), errorOf(400, 'ApplicationError', 'Your account email is not confirmed'));
    // a wrong password says nothing about the account's state
    expectError(await login(t, 'bob', 'wrong-pass'), INVALID);
  });

  it('login refuses a blocked account, but only with the right password', async () => {
    expectError(await login(t, 'mallory@example.com', 'mallory-pass'), errorOf(400, 'ApplicationError', 'Your account has been blocked by an administrator'));
    expectError(await login(t, 'mallory@example.com', 'wrong-pass'), INVALID);
  });

  it('login gives an HS256 JWT whose payload is {id, iat, exp}, 30 days long, that /users/me accepts', async () => {
    const r = await login(t, 'Alice', 'alice-pass');
    const before = Math.floor(Date.now() / 1000);
    const { header, payload } = decodeJwt(r.body.jwt as string);
    expect(header).toEqual({ alg: 'HS256', typ: 'JWT' });
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'id']);
    expect(payload['id']).toBe(aliceId);
    expect(Number(payload['exp']) - Number(payload['iat'])).toBe(30 * 24 * 3600);
    expect(Math.abs(Number(payload['iat']) - before)).toBeLessThanOrEqual(5);
    const me = await t.get('/api/users/me', { token: r.body.jwt as string });
    expect(me.status, me.text).toBe(200);
    expectPublicUser(me.body, { id: aliceId, username: 'Alice' });
    expectNoSecrets(me);
  });

  it('login ignores keys other than identifier and password', async () => {
    const r = await post(t, '/api/auth/local', { identifier: 'Alice', password: 'alice-pass', provider: 'github', role: 1 });
    expect(r.status, r.text).toBe(200);
    expectPublicUser(r.body.user, { id: aliceId });
  });
});

describe('login with bad input', () => {
  it('login names each missing field, and both as "2 errors occurred"', async () => {
    expectError(await post(t, '/api/auth/local', { password: 'alice-pass' }), validationOf(fieldErr(['identifier'], 'identifier is a required field')));
    expectError(await post(t, '/api/auth/local', { identifier: 'Alice' }), validationOf(fieldErr(['password'], 'password is a required field')));
    expectError(
      await post(t, '/api/auth/local', { identifier: '', password: '' }),
      validationOf(fieldErr(['identifier'], 'identifier is a required field', ''), fieldErr(['password'], 'password is a required field')),
    );
    expectError(
      await post(t, '/api/auth/local', {}),
      validationOf(fieldErr(['identifier'], 'identifier is a required field'), fieldErr(['password'], 'password is a required field')),
    );
  });

  it("login refuses numbers, objects and arrays for its strings with yup's type message", async () => {
    expectError(
      await post(t, '/api/auth/local', { identifier: 123, password: 'alice-pass' }),
      validationOf(fieldErr(['identifier'], 'identifier must be a `string` type, but the final value was: `123`.', 123)),
    );
    expectError(await post(t, '/api/auth/local', { identifier: 'Alice', password: true }), validationOf(fieldErr(['password'], 'password must be a `string` type')));
    // a password inside another field is never sent back either
    const nested = await post(t, '/api/auth/local', { identifier: { password: 'alice-pass', id: 1 }, password: 'alice-pass' });
    expectError(nested, validationOf(fieldErr(['identifier'], 'identifier must be a `string` type, but the final value was: `{\n  "id": "1"\n}`.', { id: 1 })));
    expect(nested.text).not.toContain('alice-pass');
    // null is no string (yup's type test), not a missing field
    expectError(
      await post(t, '/api/auth/local', { identifier: null, password: null }),
      validationOf(
        fieldErr(['identifier'], 'identifier must be a `string` type, but the final value was: `null`.', null),
        fieldErr(['password'], 'password must be a `string` type'),
      ),
    );
    const r = await post(t, '/api/auth/local', { identifier: ['Alice'], password: { $ne: 'x' } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toBe('2 errors occurred');
  });

  it('login answers malformed JSON and non-object bodies with a 400, never a 500', async () => {
    for (const raw of ['{"identifier": "Alice", "password": ', '{identifier: 1}', '"Alice"', '42', 'null']) {
      const r = await postRaw(t, '/api/auth/local', raw);
      expect(r.status, `${raw} → ${r.text}`).toBe(400);
      expect(r.body.data).toBeNull();
      expect(r.body.error.status).toBe(400);
    }
    // an array parses, and fails yup's object type test (its one error: no field is checked), as in Strapi 5.54
    expectError(await postRaw(t, '/api/auth/local', '[]'), validationOf(fieldErr([], 'this must be a `object` type, but the final value was: `[]`.', [])));
    expectError(
      await postRaw(t, '/api/auth/local', '["x", true, null]'),
      validationOf(fieldErr([], 'this must be a `object` type, but the final value was: `[\n  "\\"x\\"",\n  "true",\n  "null"\n]`.', ['x', true, null])),
    );
    // a password inside it is not sent back either
    const hidden = await postRaw(t, '/api/auth/local', '[{"identifier": "Alice", "password": "alice-pass"}]');
    expectError(
      hidden,
      validationOf(fieldErr([], 'this must be a `object` type, but the final value was: `[\n  {\n    "identifier": "\\"Alice\\""\n  }\n]`.', [{ identifier: 'Alice' }])),
    );
    expect(hidden.text).not.toContain('alice-pass');
  });

  it('login takes over-long and odd strings as a wrong pair, never a 500', async () => {
    for (const [identifier, password] of [
      ['a'.repeat(100_000), 'alice-pass'],
      ['Alice', 'p'.repeat(100_000)],
      ['Al\u0000ice', 'alice-pass'],
      ['alice@example.com\u0000', 'alice-pass'],
      ['\ud800Alice', 'alice-pass'],
      // MySQL's PAD SPACE collations would take these for 'Alice' and the email
      ['Alice ', 'alice-pass'],
      ['alice@example.com  ', 'alice-pass'],
    ] as const) {
      expectError(await login(t, identifier, password), INVALID);
    }
  });
});

describe('a sign-in form sent as multipart/form-data', () => {
  const form = (fields: Record<string, string>, file?: string): FormData => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    if (file !== undefined) f.append('avatar', new Blob([file], { type: 'image/png' }), 'a.png');
    return f;
  };

  it('logs in with its fields, as Strapi 5.54 reads the form (a file part is dropped)', async () => {
    for (const file of [undefined, 'x'.repeat(1000)]) {
      const r = await t.request('POST', '/api/auth/local', { token: null, raw: form({ identifier: 'alice@example.com', password: 'alice-pass' }, file) });
      expect(r.status, r.text).toBe(200);
      expect(r.body.user).toMatchObject({ id: aliceId, username: 'Alice' });
      expectNoSecrets(r);
    }
    const wrong = await t.request('POST', '/api/auth/local', { token: null, raw: form({ identifier: 'alice@example.com', password: 'nope' }) });
    expectError(wrong, INVALID);
    const forgot = await t.request('POST', '/api/auth/forgot-password', { token: null, raw: form({ email: 'alice@example.com' }) });
    expect(forgot.body).toEqual({ ok: true });
  });

  it('an over-long field is a wrong pair, as in JSON; an over-large file part is refused', async () => {
    const big = await t.request('POST', '/api/auth/local', { token: null, raw: form({ identifier: 'alice@example.com', password: 'p'.repeat(70 * 1024) }) });
    expectError(big, INVALID);
    const file = await t.request('POST', '/api/auth/local', { token: null, raw: form({ identifier: 'alice@example.com', password: 'alice-pass' }, 'x'.repeat(70 * 1024)) });
    expect(file.status, file.text).toBe(413);
    expect(file.body).toEqual({ data: null, error: { status: 413, name: 'PayloadTooLargeError', message: 'request entity too large' } });
  });
});

describe('a text/plain body on the auth routes', () => {
  const text = (path: string, body: string): Promise<Response> => t.request('POST', path, { token: null, raw: body, headers: { 'content-type': 'text/plain' } });
  const notObject = (v: string): unknown => {
    const message = `this must be a \`object\` type, but the final value was: \`"${v}"\`.`;
    return { data: null, error: { status: 400, name: 'ValidationError', message, details: { errors: [{ path: [], message, name: 'ValidationError', value: v }] } } };
  };

  it("fails the object's type test, text that looks like JSON included (seen on Strapi 5.54)", async () => {
    for (const path of ['/api/auth/local', '/api/auth/forgot-password', '/api/auth/reset-password', '/api/auth/send-email-confirmation']) {
      for (const body of ['x', '{"identifier":"a"}']) expect((await text(path, body)).body, `${path} ${body}`).toEqual(notObject(body));
    }
  });

  it('register reads its characters as keys, as its copy of the body does', async () => {
    expect((await text('/api/auth/local/register', 'x')).body).toEqual(errorOf(400, 'ValidationError', 'Invalid parameters: 0'));
    const json = '{"identifier":"a"}';
    const keys = Array.from({ length: json.length }, (_, i) => i).join(', ');
    expect((await text('/api/auth/local/register', json)).body).toEqual(errorOf(400, 'ValidationError', `Invalid parameters: ${keys}`));
  });
});

describe('a multipart body the form parser cannot read, on the auth routes', () => {
  const routes = [
    '/api/auth/local',
    '/api/auth/local/register',
    '/api/auth/forgot-password',
    '/api/auth/reset-password',
    '/api/auth/send-email-confirmation',
    '/api/auth/change-password',
  ];

  it('is a 400 naming the fault, never a 500 (Strapi 5.54 answers 500: behaviour.md §13)', async () => {
    for (const path of routes) {
      const cut = await t.request('POST', path, { token: null, raw: 'abc', headers: { 'content-type': 'multipart/form-data; boundary=x' } });
      expect(cut.body, path).toEqual(errorOf(400, 'ValidationError', 'Malformed multipart body: Unexpected end of multipart data'));
      const noBoundary = await t.request('POST', path, { token: null, raw: 'abc', headers: { 'content-type': 'multipart/form-data' } });
      expect(noBoundary.body, path).toEqual(errorOf(400, 'ValidationError', 'Malformed multipart body: Multipart: Boundary not found'));
    }
  });

  it('a field named like an Object.prototype member (__proto__, constructor, toString…) is refused as a bad name', async () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'hasOwnProperty']) {
      const f = new FormData();
      f.append(name, 'x');
      f.append('identifier', 'alice@example.com');
      const r = await t.request('POST', '/api/auth/local', { token: null, raw: f });
      expect(r.body, name).toEqual(errorOf(400, 'ValidationError', 'Invalid form field name'));
    }
  });
});
