// users-permissions.config.validationRules.validatePassword, a project's own password rule (Strapi
// 5.54 runs it as one more yup test of the password on register, reset-password and change-password):
// false is "Password validation failed.", a thrown error answers its message. Every body here was sent
// to the reference with the same rule and got the same errors (values aside: Folio never echoes a password).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, fieldErr, login, post, register, startAuthApp, usersWithEmail, validationOf, type AuthEnv } from './auth-support.js';
import type { TestApp } from '../support/app.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';

const FAILED = fieldErr(['password'], 'Password validation failed.');

let env: AuthEnv;
let t: TestApp;
const seen: string[] = [];

beforeAll(async () => {
  const validatePassword = async (password: string): Promise<boolean> => {
    seen.push(password);
    if (password === 'explode1') throw new Error('No explosions, please');
    if (password === 'explode2') throw new Error('');
    return /\d/.test(password);
  };
  env = await startAuthApp({ plugin: { validationRules: { validatePassword } } });
  t = env.t;
});
afterAll(async () => {
  await env?.close();
});

describe('validationRules.validatePassword', () => {
  it('register refuses what the rule refuses, with its message, and writes nothing', async () => {
    expectError(await register(t, 'nodigit', 'nodigit@example.com', 'abcdefgh'), validationOf(FAILED));
    expect(await usersWithEmail(t, 'nodigit@example.com')).toEqual([]);
    expectError(await register(t, 'boom', 'boom@example.com', 'explode1'), validationOf(fieldErr(['password'], 'No explosions, please')));
    expectError(await register(t, 'boom', 'boom@example.com', 'explode2'), validationOf(fieldErr(['password'], 'An error occurred.')));
    expect((await register(t, 'digit', 'digit@example.com', 'abcdefg1')).status).toBe(200);
    expect(seen).toContain('abcdefg1');
  });

  it("its error joins the password's others, in yup's order; a password that is no string never reaches it", async () => {
    expectError(
      await register(t, 'long', 'bad', 'x'.repeat(80)),
      validationOf(fieldErr(['email'], 'email must be a valid email', 'bad'), fieldErr(['password'], 'Password must be less than 73 bytes'), FAILED),
    );
    // an empty password is missing, and the rule sees it too
    expectError(await register(t, 'empty', 'empty@example.com', ''), validationOf(fieldErr(['password'], 'password is a required field'), FAILED));
    const before = seen.length;
    expectError(await register(t, 'typed', 'typed@example.com', 12345678 as unknown as string), validationOf(fieldErr(['password'], 'password must be a `string` type')));
    expect(seen.length).toBe(before);
  });

  it('reset-password and change-password run it too: before the code or the current password is looked at', async () => {
    expectError(await post(t, '/api/auth/reset-password', { code: 'whatever', password: 'nodigits', passwordConfirmation: 'nodigits' }), validationOf(FAILED));
    expectError(
      await post(t, '/api/auth/reset-password', { password: 'nodigits', passwordConfirmation: 'nodigits' }),
      validationOf(FAILED, fieldErr(['code'], 'code is a required field')),
    );
    expect((await register(t, 'chg', 'chg@example.com', 'chg-pass1')).status).toBe(200);
    const jwt = (await login(t, 'chg', 'chg-pass1')).body.jwt as string;
    expectError(await post(t, '/api/auth/change-password', { currentPassword: 'wrong-pass1', password: 'nodigits', passwordConfirmation: 'nodigits' }, jwt), validationOf(FAILED));
    expect((await post(t, '/api/auth/change-password', { currentPassword: 'chg-pass1', password: 'chg-pass2', passwordConfirmation: 'chg-pass2' }, jwt)).status).toBe(200);
  });

  it('is refused at start-up when it is no function', () => {
    expect(() => usersPermissionsConfig({ 'users-permissions': { config: { validationRules: { validatePassword: 'strong' } } } })).toThrow(
      'plugins.users-permissions.config.validationRules.validatePassword must be a function of the password',
    );
  });
});
