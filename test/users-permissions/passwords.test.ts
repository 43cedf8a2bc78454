// forgot-password, reset-password and change-password through a real SMTP server (contract:
// authentication endpoints, error table rows "reset-password" and "change-password"; behaviour.md
// §10.7): `{ok:true}` whoever asks, the mailed code, single use (also when two resets race), and
// each refusal with its exact body.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUser,
  errorOf,
  expectError,
  expectNoSecrets,
  expectPublicUser,
  fieldErr,
  linkIn,
  login,
  post,
  postRaw,
  recipientOf,
  register,
  RESET_PAGE,
  startAuthApp,
  statuses,
  validationOf,
  FROM,
  type AuthEnv,
} from './auth-support.js';
import type { TestApp } from '../support/app.js';
import type { SmtpSink } from '../support/smtp.js';

const FORGOT = '/api/auth/forgot-password';
const RESET = '/api/auth/reset-password';
const CHANGE = '/api/auth/change-password';
const LINK = /(http:\/\/front\.test\/reset\?code=[0-9a-f]+)/;
const INCORRECT = errorOf(400, 'ValidationError', 'Incorrect code provided');
const INVALID_LOGIN = errorOf(400, 'ValidationError', 'Invalid identifier or password');

let env: AuthEnv;
let t: TestApp;
let sink: SmtpSink;

/** decides, while set, whether the SMTP server refuses a recipient (and when it answers) */
let bounce: ((address: string) => Promise<boolean>) | null = null;

beforeAll(async () => {
  env = await startAuthApp({ smtp: { rejectRecipient: (a) => bounce?.(a) ?? false } });
  t = env.t;
  sink = env.sink;
});
afterAll(async () => {
  await env?.close();
});

/** asks for a reset of `email` and returns the code the mail carries */
async function resetCode(email: string, asked = email): Promise<string> {
  const r = await post(t, FORGOT, { email: asked });
  expect(r.status, r.text).toBe(200);
  expect(r.body).toEqual({ ok: true });
  const mail = await sink.next();
  expect(recipientOf(sink, mail)).toEqual([email]);
  const link = linkIn(mail, LINK);
  expect(link).toMatch(new RegExp(`^${RESET_PAGE.replace(/\./g, '\\.')}\\?code=[0-9a-f]{128}$`));
  return link.split('=')[1]!;
}

function reset(code: string, password: string, passwordConfirmation = password): ReturnType<typeof post> {
  return post(t, RESET, { code, password, passwordConfirmation });
}

describe('forgot-password', () => {
  it('forgot-password answers {ok:true} for an unknown, a blocked and an existing address, and mails only the existing one', async () => {
    await register(t, 'fay', 'fay@example.com', 'fay-pass1');
    await createUser(t, { username: 'blocky', email: 'blocky@example.com', confirmed: true, blocked: true });
    const before = sink.mails.length;
    const unknown = await post(t, FORGOT, { email: 'nobody@example.com' });
    const blocked = await post(t, FORGOT, { email: 'blocky@example.com' });
    const existing = await post(t, FORGOT, { email: 'FAY@example.com' });
    for (const r of [unknown, blocked, existing]) {
      expect(r.status, r.text).toBe(200);
      expect(r.body).toEqual({ ok: true });
    }
    expect(existing.text).toBe(unknown.text);
    const mail = await sink.next();
    expect(recipientOf(sink, mail)).toEqual(['fay@example.com']);
    expect(mail.subject).toBe('Reset password');
    expect(mail.from?.value[0]?.address).toBe(FROM);
    const link = linkIn(mail, LINK);
    expect(link).toMatch(/^http:\/\/front\.test\/reset\?code=[0-9a-f]{128}$/);
    expect(sink.mails.length).toBe(before + 1);
  });

  it('forgot-password checks its body: required, a valid email, no other keys', async () => {
    expectError(await post(t, FORGOT, {}), validationOf(fieldErr(['email'], 'email is a required field')));
    expectError(await post(t, FORGOT, { email: 'nope' }), validationOf(fieldErr(['email'], 'email must be a valid email', 'nope')));
    expectError(await post(t, FORGOT, { email: 7 }), validationOf(fieldErr(['email'], 'email must be a `string` type, but the final value was: `7`.', 7)));
    const extra = { email: 'fay@example.com', x: 1 };
    expectError(await post(t, FORGOT, extra), validationOf(fieldErr([], 'this field has unspecified keys: x', extra)));
    // the root's error after the field's; null is no string
    expectError(
      await post(t, FORGOT, { email: 'nope', x: 1 }),
      validationOf(fieldErr(['email'], 'email must be a valid email', 'nope'), fieldErr([], 'this field has unspecified keys: x', { email: 'nope', x: 1 })),
    );
    expectError(await post(t, FORGOT, { email: null }), validationOf(fieldErr(['email'], 'email must be a `string` type, but the final value was: `null`.', null)));
    expectError(await postRaw(t, FORGOT, '[]'), validationOf(fieldErr([], 'this must be a `object` type, but the final value was: `[]`.', [])));
    // a long address is well-formed (yup's grammar has no length limit): it names nobody
    const long = `${'f'.repeat(300)}@example.com`;
    expect(await post(t, FORGOT, { email: long }).then((r) => [r.status, r.body])).toEqual([200, { ok: true }]);
    expectError(await post(t, FORGOT, { email: 'a@b' }), validationOf(fieldErr(['email'], 'email must be a valid email', 'a@b')));
    expect((await postRaw(t, FORGOT, '{"email": "fay@example.com"')).status).toBe(400);
  });
});

describe('reset-password', () => {
  it('reset-password with the mailed code sets the password, answers {jwt, user}, and the code is single use', async () => {
    await register(t, 'gus', 'gus@example.com', 'old-pass1');
    const code = await resetCode('gus@example.com');
    const r = await reset(code, 'new-pass1');
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
    expectPublicUser(r.body.user, { username: 'gus', email: 'gus@example.com' });
    expectNoSecrets(r);
    expect((await t.get('/api/users/me', { token: r.body.jwt as string })).status).toBe(200);

    expect((await login(t, 'gus', 'new-pass1')).status).toBe(200);
    expectError(await login(t, 'gus', 'old-pass1'), INVALID_LOGIN);
    expectError(await reset(code, 'other-pass1'), INCORRECT);
    expect((await login(t, 'gus', 'new-pass1')).status).toBe(200);
  });

  it('reset-password refuses a wrong code, and a newer forgot-password replaces the older code', async () => {
    await register(t, 'hal', 'hal@example.com', 'hal-pass1');
    expectError(await reset('0'.repeat(128), 'whatever1'), INCORRECT);
    expectError(await reset('x', 'whatever1'), INCORRECT);
    expectError(await reset('a'.repeat(100_000), 'whatever1'), INCORRECT);
    expectError(await reset('abc\u0000def', 'whatever1'), INCORRECT);
    const first = await resetCode('hal@example.com');
    const second = await resetCode('hal@example.com', 'HAL@example.com');
    expect(second).not.toBe(first);
    expectError(await reset(first, 'whatever1'), INCORRECT);
    // exactly the code: MySQL's PAD SPACE collations would take these for it
    expectError(await reset(`${second} `, 'whatever1'), INCORRECT);
    expectError(await reset(`${second}\t`, 'whatever1'), INCORRECT);
    expect((await reset(second, 'whatever1')).status).toBe(200);
  });

  it('reset-password names a missing field, mismatched passwords and extra keys, and keeps the code', async () => {
    await register(t, 'ida', 'ida@example.com', 'ida-pass1');
    const code = await resetCode('ida@example.com');
    expectError(await post(t, RESET, { code, password: 'new-pass1' }), validationOf(fieldErr(['passwordConfirmation'], 'passwordConfirmation is a required field')));
    expectError(await post(t, RESET, { password: 'new-pass1', passwordConfirmation: 'new-pass1' }), validationOf(fieldErr(['code'], 'code is a required field')));
    expectError(await reset(code, 'new-pass1', 'new-pass2'), validationOf(fieldErr(['passwordConfirmation'], 'Passwords do not match')));
    const extra = { code, password: 'new-pass1', passwordConfirmation: 'new-pass1', x: 1 };
    // the body as the error shows it: passwords are never sent back
    expectError(await post(t, RESET, extra), validationOf(fieldErr([], 'this field has unspecified keys: x', { code, x: 1 })));
    expectError(
      await post(t, RESET, { code: 12, password: 'new-pass1', passwordConfirmation: 'new-pass1' }),
      validationOf(fieldErr(['code'], 'code must be a `string` type, but the final value was: `12`.', 12)),
    );
    // the model's minimum, after the code was found; the code still works afterwards
    expectError(await reset(code, 'short'), validationOf(fieldErr(['password'], 'password must be at least 6 characters')));
    const tooLong = 'p'.repeat(73);
    // the byte limit is the password's test only: an equal confirmation is no second error (Strapi 5.54)
    expectError(await reset(code, tooLong), validationOf(fieldErr(['password'], 'Password must be less than 73 bytes')));
    expect((await postRaw(t, RESET, `{"code": "${code}", `)).status).toBe(400);
    expect((await reset(code, 'new-pass1')).status).toBe(200);
    expect((await login(t, 'ida', 'new-pass1')).status).toBe(200);
  });

  it("reset-password lists yup's errors as Strapi 5.54 does: confirmation, password, code, then the root's; a mismatch beside a type error", async () => {
    const R = (body: unknown): Promise<Parameters<typeof expectError>[0]> => post(t, RESET, body);
    expectError(
      await R({}),
      validationOf(
        fieldErr(['passwordConfirmation'], 'passwordConfirmation is a required field'),
        fieldErr(['password'], 'password is a required field'),
        fieldErr(['code'], 'code is a required field'),
      ),
    );
    // '' beside another password fails the one-of test, and yup then skips required
    expectError(
      await R({ password: 'secret123', passwordConfirmation: '' }),
      validationOf(fieldErr(['passwordConfirmation'], 'Passwords do not match'), fieldErr(['code'], 'code is a required field')),
    );
    expectError(
      await R({ code: 'c', password: '', passwordConfirmation: '' }),
      validationOf(fieldErr(['passwordConfirmation'], 'passwordConfirmation is a required field'), fieldErr(['password'], 'password is a required field')),
    );
    // null is no string (yup's type test), and is not the password either
    expectError(
      await R({ code: 'c', password: 'secret123', passwordConfirmation: null }),
      validationOf(fieldErr(['passwordConfirmation'], 'passwordConfirmation must be a `string` type'), fieldErr(['passwordConfirmation'], 'Passwords do not match')),
    );
    expectError(
      await R({ passwordConfirmation: 'secret123' }),
      validationOf(
        fieldErr(['passwordConfirmation'], 'Passwords do not match'),
        fieldErr(['password'], 'password is a required field'),
        fieldErr(['code'], 'code is a required field'),
      ),
    );
    expectError(
      await R({ code: null, password: 3, passwordConfirmation: 3 }),
      validationOf(
        fieldErr(['passwordConfirmation'], 'passwordConfirmation must be a `string` type'),
        fieldErr(['password'], 'password must be a `string` type'),
        fieldErr(['code'], 'code must be a `string` type, but the final value was: `null`.', null),
      ),
    );
    expectError(
      await R({ code: 'c', password: 'p'.repeat(80), passwordConfirmation: 'y' }),
      validationOf(fieldErr(['passwordConfirmation'], 'Passwords do not match'), fieldErr(['password'], 'Password must be less than 73 bytes')),
    );
    expectError(
      await R({ code: 'c', password: 'a', passwordConfirmation: 'b', x: 1 }),
      validationOf(fieldErr(['passwordConfirmation'], 'Passwords do not match'), fieldErr([], 'this field has unspecified keys: x', { code: 'c', x: 1 })),
    );
    // an array is no object: that one error, and no field is checked
    expectError(await postRaw(t, RESET, '[1]'), validationOf(fieldErr([], 'this must be a `object` type, but the final value was: `[\n  "1"\n]`.', [1])));
  });

  it('a reset mail refused after a newer forgot-password took back its own code only: the newer mailed code works', async () => {
    const r0 = await register(t, 'lee', 'lee@example.com', 'lee-pass0');
    expect(r0.status, r0.text).toBe(200);
    let first = true;
    // the first mail is refused, slowly: by then the second forgot-password has saved its code
    bounce = async (a) => {
      if (a !== 'lee@example.com' || !first) return false;
      first = false;
      await new Promise((r) => setTimeout(r, 400));
      return true;
    };
    try {
      expect((await post(t, FORGOT, { email: 'lee@example.com' })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
      const code = await resetCode('lee@example.com');
      await new Promise((r) => setTimeout(r, 500));
      expect(first).toBe(false);
      const r = await reset(code, 'lee-pass1');
      expect(r.status, r.text).toBe(200);
    } finally {
      bounce = null;
    }
  });

  it('two simultaneous reset-passwords with one code: exactly one succeeds', async () => {
    await register(t, 'jay', 'jay@example.com', 'jay-pass1');
    const code = await resetCode('jay@example.com');
    const rs = await Promise.all([reset(code, 'race-pass-a'), reset(code, 'race-pass-b')]);
    expect(statuses(rs), rs.map((r) => r.text).join('\n')).toEqual({ 200: 1, 400: 1 });
    for (const r of rs) if (r.status === 400) expectError(r, INCORRECT);
    const winner = rs.findIndex((r) => r.status === 200) === 0 ? 'race-pass-a' : 'race-pass-b';
    const loser = winner === 'race-pass-a' ? 'race-pass-b' : 'race-pass-a';
    expect((await login(t, 'jay', winner)).status).toBe(200);
    expectError(await login(t, 'jay', loser), INVALID_LOGIN);
  });
});

describe('change-password', () => {
  let jwt: string;
  beforeAll(async () => {
    const r = await register(t, 'kim', 'kim@example.com', 'kim-pass1');
    expect(r.status, r.text).toBe(200);
    jwt = r.body.jwt as string;
  });
  const change = (body: unknown, token: string | null = jwt): ReturnType<typeof post> => post(t, CHANGE, body, token);

  it('change-password refuses an API token and answers 403 without a token', async () => {
    const body = { currentPassword: 'kim-pass1', password: 'kim-pass2', passwordConfirmation: 'kim-pass2' };
    expectError(await change(body, t.token), errorOf(400, 'ApplicationError', 'You must be authenticated to reset your password'));
    expectError(await change(body, null), errorOf(403, 'ForbiddenError', 'Forbidden'));
    expect((await login(t, 'kim', 'kim-pass1')).status).toBe(200);
  });

  it('change-password refuses a wrong current password and an unchanged one', async () => {
    expectError(
      await change({ currentPassword: 'wrong-pass', password: 'kim-pass2', passwordConfirmation: 'kim-pass2' }),
      errorOf(400, 'ValidationError', 'The provided current password is invalid'),
    );
    expectError(
      await change({ currentPassword: 'kim-pass1', password: 'kim-pass1', passwordConfirmation: 'kim-pass1' }),
      errorOf(400, 'ValidationError', 'Your new password must be different than your current password'),
    );
  });

  it('change-password checks its body: required fields, matching passwords, no other keys, the model minimum', async () => {
    expectError(
      await change({ currentPassword: 'kim-pass1', password: 'kim-pass2' }),
      validationOf(fieldErr(['passwordConfirmation'], 'passwordConfirmation is a required field')),
    );
    // in yup's order, as Strapi 5.54 lists them
    expectError(
      await change({}),
      validationOf(
        fieldErr(['passwordConfirmation'], 'passwordConfirmation is a required field'),
        fieldErr(['password'], 'password is a required field'),
        fieldErr(['currentPassword'], 'currentPassword is a required field'),
      ),
    );
    expectError(
      await change({ currentPassword: 'kim-pass1', password: 7, passwordConfirmation: 'kim-pass2', x: 1 }),
      validationOf(
        fieldErr(['passwordConfirmation'], 'Passwords do not match'),
        fieldErr(['password'], 'password must be a `string` type'),
        fieldErr([], 'this field has unspecified keys: x', { x: 1 }),
      ),
    );
    expectError(
      await change({ currentPassword: 'kim-pass1', password: 'kim-pass2', passwordConfirmation: 'kim-pass3' }),
      validationOf(fieldErr(['passwordConfirmation'], 'Passwords do not match')),
    );
    const extra = { currentPassword: 'kim-pass1', password: 'kim-pass2', passwordConfirmation: 'kim-pass2', x: 1 };
    expectError(await change(extra), validationOf(fieldErr([], 'this field has unspecified keys: x', { x: 1 })));
    expectError(
      await change({ currentPassword: 123456, password: 'kim-pass2', passwordConfirmation: 'kim-pass2' }),
      validationOf(fieldErr(['currentPassword'], 'currentPassword must be a `string` type')),
    );
    expectError(
      await change({ currentPassword: 'kim-pass1', password: 'short', passwordConfirmation: 'short' }),
      validationOf(fieldErr(['password'], 'password must be at least 6 characters')),
    );
    expect((await postRaw(t, CHANGE, '{"currentPassword":', jwt)).status).toBe(400);
    expect((await login(t, 'kim', 'kim-pass1')).status).toBe(200);
  });

  it("change-password with the user's JWT sets the password and answers a new jwt that works", async () => {
    const r = await change({ currentPassword: 'kim-pass1', password: 'kim-pass2', passwordConfirmation: 'kim-pass2' });
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body).sort()).toEqual(['jwt', 'user']);
    expectPublicUser(r.body.user, { username: 'kim' });
    expectNoSecrets(r);
    const me = await t.get('/api/users/me', { token: r.body.jwt as string });
    expect(me.status, me.text).toBe(200);
    expect(me.body.username).toBe('kim');
    expect((await login(t, 'kim', 'kim-pass2')).status).toBe(200);
    expectError(await login(t, 'kim', 'kim-pass1'), INVALID_LOGIN);
    // tokens are stateless (behaviour.md §10.4): the older one still works
    expect((await t.get('/api/users/me', { token: jwt })).status).toBe(200);
  });

  it('a reset code mailed before a change-password is refused after it: the change ends it, as it ends sessions', async () => {
    const r0 = await register(t, 'kai', 'kai@example.com', 'kai-pass0');
    expect(r0.status, r0.text).toBe(200);
    const code = await resetCode('kai@example.com');
    const r = await change({ currentPassword: 'kai-pass0', password: 'kai-pass1', passwordConfirmation: 'kai-pass1' }, r0.body.jwt as string);
    expect(r.status, r.text).toBe(200);
    expectError(await reset(code, 'taken-over1'), INCORRECT);
    expect((await login(t, 'kai', 'kai-pass1')).status).toBe(200);
    expectError(await login(t, 'kai', 'taken-over1'), INVALID_LOGIN);
    // a code asked for after the change works as ever
    expect((await reset(await resetCode('kai@example.com'), 'kai-pass2')).status).toBe(200);
  });

  it('eight simultaneous change-passwords with one current password: exactly one succeeds, the others are told the current password is invalid', async () => {
    const r0 = await register(t, 'kit', 'kit@example.com', 'kit-pass0');
    expect(r0.status, r0.text).toBe(200);
    const token = r0.body.jwt as string;
    const passwords = Array.from({ length: 8 }, (_, i) => `kit-race-${i}`);
    const rs = await Promise.all(passwords.map((p) => change({ currentPassword: 'kit-pass0', password: p, passwordConfirmation: p }, token)));
    expect(statuses(rs), rs.map((r) => r.text).join('\n')).toEqual({ 200: 1, 400: 7 });
    for (const r of rs) if (r.status === 400) expectError(r, errorOf(400, 'ValidationError', 'The provided current password is invalid'));
    // the winner's password is the one that counts; no loser's was stored
    const winner = passwords[rs.findIndex((r) => r.status === 200)]!;
    expect((await login(t, 'kit', winner)).status).toBe(200);
    for (const p of [...passwords.filter((p) => p !== winner), 'kit-pass0']) expectError(await login(t, 'kit', p), INVALID_LOGIN);
  });
});
