// Accounts for the users-permissions tests: registered through the API, as a client would.
import type { TestApp } from '../support/app.js';

export interface Account {
  readonly id: number;
  readonly jwt: string;
  readonly username: string;
  readonly email: string;
}

let n = 0;

export async function register(t: TestApp, name = `user${++n}`, password = 'secret123'): Promise<Account> {
  const r = await t.request('POST', '/api/auth/local/register', { token: null, body: { username: name, email: `${name}@example.com`, password } });
  if (r.status !== 200) throw new Error(`register ${name}: ${r.status} ${r.text}`);
  return { id: r.body.user.id as number, jwt: r.body.jwt as string, username: name, email: `${name}@example.com` };
}

export const PRIVATE_KEYS = ['password', 'resetPasswordToken', 'confirmationToken'] as const;

/** every key of every object in a JSON value, at any depth */
export function allKeys(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) for (const x of v) allKeys(x, out);
  else if (typeof v === 'object' && v !== null)
    for (const [k, x] of Object.entries(v)) {
      out.add(k);
      allKeys(x, out);
    }
  return out;
}

export const err = (status: number, name: string, message: string, details: unknown = {}) => ({ data: null, error: { status, name, message, details } });
