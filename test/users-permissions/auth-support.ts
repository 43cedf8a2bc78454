// What the users-permissions auth tests share: an app with a real SMTP server behind it, the
// Strapi-shaped error body, the private fields no response may carry, and small request helpers.
import { expect } from 'vitest';
import type { ParsedMail } from 'mailparser';
import { startTestApp, type Response, type TestApp } from '../support/app.js';
import { startSmtpSink, type SmtpSink, type SmtpSinkOptions } from '../support/smtp.js';
import { usersPermissionsConfig } from '../../src/plugins/users-permissions/config.js';
import { emailConfig } from '../../src/config/email-config.js';
import type { FolioConfig } from '../../src/config/types.js';

/** the JWT secret testConfig() gives every test app */
export const JWT_SECRET = 'test-jwt';
export const RESET_PAGE = 'http://front.test/reset';
export const WELCOME_PAGE = 'http://front.test/welcome';
export const FROM = 'cms@example.test';
/** testConfig()'s publicUrl: the start of every link Folio puts in a mail */
export const PUBLIC_URL = 'http://127.0.0.1';

export interface AuthEnv {
  readonly t: TestApp;
  readonly sink: SmtpSink;
  close(): Promise<void>;
}

export interface AuthEnvOptions {
  /** users-permissions.config.advanced, over email_reset_password and email_confirmation_redirection */
  advanced?: Record<string, unknown>;
  /** other users-permissions.config keys (register.allowedFields, jwt, …) */
  plugin?: Record<string, unknown>;
  smtp?: SmtpSinkOptions;
  /** config/server proxy.koa, read */
  proxy?: FolioConfig['proxy'];
}

export async function startAuthApp(opts: AuthEnvOptions = {}): Promise<AuthEnv> {
  const sink = await startSmtpSink(opts.smtp);
  const advanced = { email_reset_password: RESET_PAGE, email_confirmation_redirection: WELCOME_PAGE, ...opts.advanced };
  const t = await startTestApp({
    proxy: opts.proxy ?? null,
    usersPermissions: usersPermissionsConfig({ 'users-permissions': { config: { ...opts.plugin, advanced } } }),
    email: emailConfig({
      email: {
        config: {
          provider: 'nodemailer',
          providerOptions: { host: '127.0.0.1', port: sink.port, secure: false, ignoreTLS: true },
          settings: { defaultFrom: FROM },
        },
      },
    }),
  });
  return {
    t,
    sink,
    async close() {
      await t.close();
      await sink.close();
    },
  };
}

export interface ErrorShape {
  data: null;
  error: { status: number; name: string; message: string; details: Record<string, unknown> };
}

export function errorOf(status: number, name: string, message: string, details: Record<string, unknown> = {}): ErrorShape {
  return { data: null, error: { status, name, message, details } };
}

/** a yup-style field error as Folio (and Strapi) put it in `details.errors` */
export function fieldErr(path: string[], message: string, value?: unknown): Record<string, unknown> {
  const e: Record<string, unknown> = { path, message, name: 'ValidationError' };
  if (value !== undefined) e['value'] = value;
  return e;
}

/** a ValidationError carrying yup's field errors: the message is the single one's or "n errors occurred" */
export function validationOf(...errors: Record<string, unknown>[]): ErrorShape {
  const message = errors.length === 1 ? String(errors[0]!['message']) : `${errors.length} errors occurred`;
  return errorOf(400, 'ValidationError', message, { errors });
}

export function expectError(r: Response, expected: ErrorShape): void {
  expect(r.status, r.text).toBe(expected.error.status);
  expect(r.body).toEqual(expected);
}

const PRIVATE_KEYS = ['password', 'resetPasswordToken', 'confirmationToken', 'reset_password_token', 'confirmation_token'];

/** no private user field (nor a bcrypt hash) anywhere in a response */
export function expectNoSecrets(r: Response): void {
  const walk = (v: unknown, path: string): void => {
    if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${path}[${i}]`));
    else if (typeof v === 'object' && v !== null) {
      for (const [k, x] of Object.entries(v)) {
        expect(PRIVATE_KEYS, `${path}.${k} in ${r.text}`).not.toContain(k);
        walk(x, `${path}.${k}`);
      }
    }
  };
  walk(r.body, '$');
  expect(r.text).not.toMatch(/\$2[aby]\$\d\d\$/);
}

/** the fields a user shows on every endpoint (behaviour.md §10.2): no role unless populated */
export const USER_KEYS = ['blocked', 'confirmed', 'createdAt', 'documentId', 'email', 'id', 'provider', 'publishedAt', 'updatedAt', 'username'];

export function expectPublicUser(user: unknown, expected: Record<string, unknown>): void {
  expect(Object.keys(user as object).sort()).toEqual(USER_KEYS);
  expect(user).toMatchObject(expected);
}

export function post(t: TestApp, path: string, body: unknown, token: string | null = null): Promise<Response> {
  return t.request('POST', path, { token, body });
}

/** a request whose body is sent exactly as given (malformed JSON and the like) */
export function postRaw(t: TestApp, path: string, raw: string, token: string | null = null): Promise<Response> {
  return t.request('POST', path, { token, raw, headers: { 'content-type': 'application/json' } });
}

export function register(t: TestApp, username: string, email: string, password = 'secret123'): Promise<Response> {
  return post(t, '/api/auth/local/register', { username, email, password });
}

export function login(t: TestApp, identifier: string, password: string): Promise<Response> {
  return post(t, '/api/auth/local', { identifier, password });
}

/** a user made through the users API with the full-access token (any account state) */
export async function createUser(t: TestApp, fields: { username: string; email: string; password?: string; confirmed?: boolean; blocked?: boolean }): Promise<number> {
  const r = await t.request('POST', '/api/users', { body: { password: 'secret123', ...fields } });
  expect(r.status, r.text).toBe(201);
  return Number(r.body.id);
}

/** every user row with this email, as the users API (full access) lists them */
export async function usersWithEmail(t: TestApp, email: string): Promise<Array<Record<string, unknown>>> {
  const r = await t.get(`/api/users?filters[email][$eq]=${encodeURIComponent(email)}`);
  expect(r.status, r.text).toBe(200);
  return r.body as Array<Record<string, unknown>>;
}

/** GET without following redirects (the redirection target is another site) */
export async function getManual(
  t: TestApp,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; location: string | null; type: string | null; text: string }> {
  const res = await fetch(t.url + path, { redirect: 'manual', headers });
  return { status: res.status, location: res.headers.get('location'), type: res.headers.get('content-type'), text: await res.text() };
}

export interface DecodedJwt {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
}

export function decodeJwt(token: string): DecodedJwt {
  const parts = token.split('.');
  expect(parts).toHaveLength(3);
  const json = (s: string): Record<string, unknown> => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: json(parts[0]!), payload: json(parts[1]!) };
}

/** the one link of a mail's text part matching `re` (its first group) */
export function linkIn(mail: ParsedMail, re: RegExp): string {
  const m = re.exec(mail.text ?? '');
  expect(m, mail.text).not.toBeNull();
  return m![1] ?? m![0];
}

/** the envelope recipient of a mail, as the SMTP server received it */
export function recipientOf(sink: SmtpSink, mail: ParsedMail): string[] {
  return sink.recipients[sink.mails.indexOf(mail)] ?? [];
}

/** the statuses of a batch of responses, counted */
export function statuses(rs: Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}
