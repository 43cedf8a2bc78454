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
