// Registering with email confirmation on, through a real SMTP server (contract: account states,
// error table rows "email-confirmation" and "send-email-confirmation"; behaviour.md §10.6 point 8,
// §10.7): the `{user}` answer, the mail and its link, the redirect, single use, re-sending, and a
// refused recipient leaving no account behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import {
  createUser,
  errorOf,
  expectError,
  JWT_SECRET,
  expectNoSecrets,
  expectPublicUser,
  FROM,
  getManual,
  linkIn,
  login,
  post,
  PUBLIC_URL,
  recipientOf,
  register,
  startAuthApp,
  statuses,
  usersWithEmail,
  validationOf,
  fieldErr,
  WELCOME_PAGE,
  type AuthEnv,
} from './auth-support.js';
import type { TestApp } from '../support/app.js';
import type { SmtpSink } from '../support/smtp.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';

const SEND = '/api/auth/send-email-confirmation';
const LINK = /(http:\/\/127\.0\.0\.1\/api\/auth\/email-confirmation\?confirmation=([0-9a-f]+))/;
const INVALID_TOKEN = errorOf(400, 'ValidationError', 'Invalid token');

let env: AuthEnv;
let t: TestApp;
let sink: SmtpSink;
/** the SMTP server refuses recipients starting with "bounce" while this is true */
let refuse = true;

beforeAll(async () => {
  env = await startAuthApp({ advanced: { email_confirmation: true }, smtp: { rejectRecipient: (a) => refuse && a.startsWith('bounce') } });
  t = env.t;
  sink = env.sink;
});
afterAll(async () => {
  await env?.close();
});

/** the confirmation code of the next mail, checked to be for `email` */
async function nextCode(email: string): Promise<{ link: string; code: string }> {
  const mail = await sink.next();
  expect(recipientOf(sink, mail)).toEqual([email]);
  const link = linkIn(mail, LINK);
  const code = link.split('=')[1]!;
  return { link, code };
}

describe('register with email confirmation', () => {
  it('register answers {user} only, unconfirmed, and mails a link that confirms and redirects', async () => {
    const r = await register(t, 'ada', 'Ada@Example.com', 'ada-pass1');
    expect(r.status, r.text).toBe(200);
    expect(Object.keys(r.body)).toEqual(['user']);
    expectPublicUser(r.body.user, { username: 'ada', email: 'ada@example.com', confirmed: false, blocked: false, provider: 'local' });
    expectNoSecrets(r);

    const mail = await sink.next();
    expect(recipientOf(sink, mail)).toEqual(['ada@example.com']);
    expect(mail.subject).toBe('Account confirmation');
    expect(mail.from?.value[0]?.address).toBe(FROM);
    const link = linkIn(mail, LINK);
    expect(link).toMatch(new RegExp(`^${PUBLIC_URL.replace(/\./g, '\\.')}/api/auth/email-confirmation\\?confirmation=[0-9a-f]{40}$`));
    expect(mail.html).toContain(link);

    expectError(await login(t, 'ada', 'ada-pass1'), errorOf(400, 'ApplicationError', 'Your account email is not confirmed'));
    // nor does a well-signed token of the unconfirmed account act (Strapi's strategy refuses it)
    const forged = await new SignJWT({ id: r.body.user.id as number })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(JWT_SECRET));
    expectError(await t.get('/api/users/me', { token: forged }), errorOf(401, 'UnauthorizedError', 'Invalid credentials'));

    const follow = await getManual(t, link.slice(PUBLIC_URL.length));
    expect(follow.status, follow.text).toBe(302);
    expect(follow.location).toBe(WELCOME_PAGE);
    // Koa's redirect body, as Strapi answers: HTML for a client that takes it (fetch sends */*)
    expect(follow.type).toBe('text/html; charset=utf-8');
    expect(follow.text).toBe(`Redirecting to ${WELCOME_PAGE}.`);

    const l = await login(t, 'ada@example.com', 'ada-pass1');
    expect(l.status, l.text).toBe(200);
    expectPublicUser(l.body.user, { id: r.body.user.id, confirmed: true });
    const me = await t.get('/api/users/me', { token: l.body.jwt as string });
    expect(me.status, me.text).toBe(200);

    // the link is used up
    const again = await t.get(link.slice(PUBLIC_URL.length), { token: null });
    expectError(again, INVALID_TOKEN);
  });

  it('email-confirmation refuses a missing, empty, unknown or malformed token', async () => {
    const required = validationOf(fieldErr(['confirmation'], 'confirmation is a required field'));
    expectError(await t.get('/api/auth/email-confirmation', { token: null }), required);
    expectError(await t.get('/api/auth/email-confirmation?confirmation=', { token: null }), validationOf(fieldErr(['confirmation'], 'confirmation is a required field', '')));
    for (const q of [`confirmation=${'0'.repeat(40)}`, 'confirmation=abc', `confirmation=${'a'.repeat(10_000)}`, 'confirmation=null']) {
      const r = await t.get(`/api/auth/email-confirmation?${q}`, { token: null });
      expectError(r, INVALID_TOKEN);
    }
    // a list or an object is yup's type error, as in Strapi 5.54
    expectError(
      await t.get('/api/auth/email-confirmation?confirmation[]=a&confirmation[]=b', { token: null }),
      validationOf(fieldErr(['confirmation'], 'confirmation must be a `string` type, but the final value was: `[\n  "\\"a\\"",\n  "\\"b\\""\n]`.', ['a', 'b'])),
    );
    expectError(
      await t.get('/api/auth/email-confirmation?confirmation[$ne]=x', { token: null }),
      validationOf(fieldErr(['confirmation'], 'confirmation must be a `string` type, but the final value was: `{\n  "$ne": "\\"x\\""\n}`.', { $ne: 'x' })),
    );
    // U+0000 is refused with every URL, before the route
    const nul = await t.get('/api/auth/email-confirmation?confirmation=%00', { token: null });
    expect(nul.status, nul.text).toBe(400);
  });

  it('send-email-confirmation sends a new code that works, and the old one no longer does', async () => {
    const r = await register(t, 'babbage', 'babbage@example.com', 'babbage-pass');
    expect(r.status, r.text).toBe(200);
    const first = await nextCode('babbage@example.com');

    const s = await post(t, SEND, { email: 'Babbage@Example.com' });
    expect(s.status, s.text).toBe(200);
    expect(s.body).toEqual({ email: 'babbage@example.com', sent: true });
    const second = await nextCode('babbage@example.com');
    expect(second.code).toMatch(/^[0-9a-f]{40}$/);
    expect(second.code).not.toBe(first.code);

    expectError(await t.get(first.link.slice(PUBLIC_URL.length), { token: null }), INVALID_TOKEN);
    // exactly the code: MySQL's PAD SPACE collations would take this for it
    expectError(await t.get(`${second.link.slice(PUBLIC_URL.length)}%20`, { token: null }), INVALID_TOKEN);
    const follow = await getManual(t, second.link.slice(PUBLIC_URL.length), { accept: 'application/json' });
    expect(follow.status).toBe(302);
    expect(follow.location).toBe(WELCOME_PAGE);
    // a client that takes no HTML gets the same words as text
    expect(follow.type).toBe('text/plain; charset=utf-8');
    expect(follow.text).toBe(`Redirecting to ${WELCOME_PAGE}.`);
    expect((await login(t, 'babbage', 'babbage-pass')).status).toBe(200);

    // now confirmed
    expectError(await post(t, SEND, { email: 'babbage@example.com' }), errorOf(400, 'ApplicationError', 'Already confirmed'));
  });

  it('send-email-confirmation answers an unknown address as sent, echoing it, and mails nothing', async () => {
    const before = sink.mails.length;
    const r = await post(t, SEND, { email: 'Nobody@Example.com' });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ email: 'Nobody@Example.com', sent: true });
    // a known, unconfirmed address mails; the unknown one before it did not
    await createUser(t, { username: 'lovelace', email: 'lovelace@example.com', confirmed: false });
    expect((await post(t, SEND, { email: 'lovelace@example.com' })).status).toBe(200);
    await nextCode('lovelace@example.com');
    expect(sink.mails.length).toBe(before + 1);
  });

  it('send-email-confirmation refuses a confirmed and a blocked account', async () => {
    await createUser(t, { username: 'confirmed1', email: 'confirmed1@example.com', confirmed: true });
    await createUser(t, { username: 'blocked1', email: 'blocked1@example.com', confirmed: false, blocked: true });
    expectError(await post(t, SEND, { email: 'confirmed1@example.com' }), errorOf(400, 'ApplicationError', 'Already confirmed'));
    expectError(await post(t, SEND, { email: 'blocked1@example.com' }), errorOf(400, 'ApplicationError', 'User blocked'));
  });

  it('send-email-confirmation checks its body', async () => {
    expectError(await post(t, SEND, {}), validationOf(fieldErr(['email'], 'email is a required field')));
    expectError(await post(t, SEND, { email: 'nope' }), validationOf(fieldErr(['email'], 'email must be a valid email', 'nope')));
    expectError(await post(t, SEND, { email: 42 }), validationOf(fieldErr(['email'], 'email must be a `string` type, but the final value was: `42`.', 42)));
    // a long address is well-formed (yup's grammar has no length limit): it names nobody
    const long = `${'a'.repeat(300)}@example.com`;
    const sent = await post(t, SEND, { email: long });
    expect(sent.status, sent.text).toBe(200);
    expect((await post(t, SEND, { email: 'a@b' })).status).toBe(400);
    const r = await t.request('POST', SEND, { token: null, raw: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(r.status, r.text).toBe(400);
  });
});

describe('register when the SMTP server refuses the recipient', () => {
  it('register answers "Error sending confirmation email" and leaves no user; once the server accepts, the same register works', async () => {
    const r = await register(t, 'bouncer', 'bounce@example.com', 'bounce-pass');
    expectError(r, errorOf(400, 'ApplicationError', 'Error sending confirmation email'));
    expect(await usersWithEmail(t, 'bounce@example.com')).toEqual([]);
    expectError(await login(t, 'bouncer', 'bounce-pass'), errorOf(400, 'ValidationError', 'Invalid identifier or password'));

    refuse = false;
    try {
      const ok = await register(t, 'bouncer', 'bounce@example.com', 'bounce-pass');
      expect(ok.status, ok.text).toBe(200);
      expectPublicUser(ok.body.user, { username: 'bouncer', confirmed: false });
      const { link } = await nextCode('bounce@example.com');
      expect((await getManual(t, link.slice(PUBLIC_URL.length))).status).toBe(302);
      expect((await login(t, 'bouncer', 'bounce-pass')).status).toBe(200);
      expect(await usersWithEmail(t, 'bounce@example.com')).toHaveLength(1);
    } finally {
      refuse = true;
    }
  });

  it('send-email-confirmation answers "Error sending confirmation email" when the server refuses; forgot-password still answers {ok:true}', async () => {
    await createUser(t, { username: 'bounce2', email: 'bounce2@example.com', confirmed: false });
    expectError(await post(t, SEND, { email: 'bounce2@example.com' }), errorOf(400, 'ApplicationError', 'Error sending confirmation email'));
    // the reset mail goes out after the answer, so a refusal can't tell the address exists
    const forgot = await post(t, '/api/auth/forgot-password', { email: 'bounce2@example.com' });
    expect(forgot.status, forgot.text).toBe(200);
    expect(forgot.body).toEqual({ ok: true });
  });
});

describe('register with email confirmation under concurrency', () => {
  it('two simultaneous registers with one email: one {user} and one mail, the other "already taken"', async () => {
    const before = sink.mails.length;
    const rs = await Promise.all([register(t, 'para-a', 'para@example.com'), register(t, 'para-b', 'Para@example.com')]);
    expect(statuses(rs), rs.map((r) => r.text).join('\n')).toEqual({ 200: 1, 400: 1 });
    const won = rs.find((r) => r.status === 200)!;
    expect(Object.keys(won.body)).toEqual(['user']);
    expectError(
      rs.find((r) => r.status === 400)!,
      errorOf(400, 'ApplicationError', 'Email or Username are already taken'),
    );
    await nextCode('para@example.com');
    expect(sink.mails.length).toBe(before + 1);
    expect(await usersWithEmail(t, 'para@example.com')).toHaveLength(1);
  });

  it('one confirmation link followed eight times at once: one redirect, seven "Invalid token"', async () => {
    expect((await register(t, 'twice', 'twice@example.com', 'twice-pass1')).status).toBe(200);
    const { link } = await nextCode('twice@example.com');
    const rs = await Promise.all(Array.from({ length: 8 }, () => getManual(t, link.slice(PUBLIC_URL.length), { accept: 'application/json' })));
    expect(rs.map((r) => r.status).sort(), rs.map((r) => r.text).join('\n')).toEqual([302, 400, 400, 400, 400, 400, 400, 400]);
    expect(rs.find((r) => r.status === 302)!.location).toBe(WELCOME_PAGE);
    for (const r of rs) if (r.status === 400) expect(JSON.parse(r.text)).toEqual(INVALID_TOKEN);
    expect((await login(t, 'twice', 'twice-pass1')).status).toBe(200);
  });
});

describe('the confirmation redirect target', () => {
  it('an absolute target that is no URL stops start-up, before a confirmation could be spent on it', () => {
    expect(() => usersPermissionsConfig({ 'users-permissions': { config: { advanced: { email_confirmation_redirection: 'https://exa mple.com' } } } })).toThrow(
      'plugins.users-permissions.config.advanced.email_confirmation_redirection must be a URL, got "https://exa mple.com"',
    );
  });

  it('a target outside printable ASCII goes out percent-encoded in Location', async () => {
    const other = await startAuthApp({ advanced: { email_confirmation: true, email_confirmation_redirection: '/bienvenüe à tous' } });
    try {
      expect((await post(other.t, '/api/auth/local/register', { username: 'uni', email: 'uni@example.com', password: 'secret123' })).status).toBe(200);
      const link = linkIn(await other.sink.next(), LINK);
      const follow = await getManual(other.t, link.slice(PUBLIC_URL.length), { accept: 'text/plain' });
      expect(follow.status, follow.text).toBe(302);
      expect(follow.location).toBe('/bienven%C3%BCe%20%C3%A0%20tous');
      expect(follow.text).toBe('Redirecting to /bienvenüe à tous.');
    } finally {
      await other.close();
    }
  });
});
