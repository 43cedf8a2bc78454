import { afterAll, beforeAll, it } from 'vitest';
import { register, startAuthApp, type AuthEnv } from './auth-support.js';
let env: AuthEnv;
beforeAll(async () => { env = await startAuthApp({}); });
afterAll(async () => { await env?.close(); });
it('probe', async () => {
  const long = 'a'.repeat(250) + '@example.com';
  const r = await register(env.t, 'longy', long);
  console.log('REGISTER', r.status, r.text.slice(0, 300));
  const u = await env.t.post('/api/users', { email: long, username: 'longy2', password: 'secret123' });
  console.log('USERS', u.status, u.text.slice(0, 300));
  const lu = await register(env.t, 'x'.repeat(300), 'ok@example.com');
  console.log('LONGUSER', lu.status, lu.text.slice(0, 300));
});
