#!/usr/bin/env node
// Login and register throughput, Folio next to the reference Strapi 5, each on a fresh SQLite database,
// bcrypt cost 10 on both, one process each, measured one after the other with autocannon.
//
//   npm run build && STRAPI_DIR=/path/to/strapi-ref node bench/auth.mjs
//
// Env: STRAPI_DIR (a folder prepared with ../shared/reference/setup.sh; without it Folio alone),
//      BENCH_DURATION (s, default 10), BENCH_CONNECTIONS (10), BENCH_JWT_MANAGEMENT=refresh (both servers
//      in refresh mode: logins open sessions, and a "refresh" row rotates refresh tokens, each connection
//      presenting the token its previous refresh returned). Both run with their rate limits off
//      (Strapi: UP_RATELIMIT=off; Folio: ratelimit.enabled false): with them, nearly every request would be a 429.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const shared = join(root, '..', 'shared');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const STRAPI_DIR = process.env.STRAPI_DIR;
const REFRESH = process.env.BENCH_JWT_MANAGEMENT === 'refresh';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function waitUp(url, child) {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const r = await fetch(`${url}/api/auth/local`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
      if (r.status === 400) return;
    } catch {
      /* not yet */
    }
    await sleep(200);
  }
  throw new Error(`${url} did not come up`);
}

function stop(child) {
  return new Promise((r) => {
    if (child.exitCode !== null) return r();
    child.on('exit', r);
    child.kill('SIGTERM');
  });
}

async function folio(port) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-auth-bench-'));
  cpSync(join(root, 'examples', 'blog'), dir, { recursive: true });
  // the rate limit off, as Strapi's is for this bench (5 logins per 5 minutes would answer 429s)
  const plugins = JSON.parse(readFileSync(join(dir, 'config', 'plugins.json'), 'utf8'));
  plugins['users-permissions'] = { config: { ratelimit: { enabled: false }, ...(REFRESH ? { jwtManagement: 'refresh' } : {}) } };
  writeFileSync(join(dir, 'config', 'plugins.json'), JSON.stringify(plugins));
  const child = spawn(process.execPath, [join(root, 'dist', 'cli', 'main.js'), 'start', '--dir', dir, '--port', String(port), '--host', '127.0.0.1'], {
    env: { ...process.env, NODE_ENV: 'production', FOLIO_LOG: 'false', API_TOKEN_SALT: 'bench', JWT_SECRET: 'bench-jwt', APP_KEYS: 'a,b', DATABASE_FILENAME: join(dir, 'data.db') },
    stdio: 'ignore',
  });
  return { name: 'Folio', url: `http://127.0.0.1:${port}`, child, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

async function strapi(port) {
  const db = join(mkdtempSync(join(tmpdir(), 'strapi-auth-bench-')), 'data.db');
  const child = spawn('bash', [join(shared, 'reference', 'start.sh'), STRAPI_DIR, String(port)], {
    env: { ...process.env, UP_RATELIMIT: 'off', DATABASE_FILENAME: db, ...(REFRESH ? { UP_JWT_MANAGEMENT: 'refresh' } : {}) },
    stdio: 'ignore',
    detached: true,
  });
  return {
    name: 'Strapi',
    url: `http://127.0.0.1:${port}`,
    child,
    cleanup: () => {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
    },
  };
}

async function load(url, path, body) {
  let n = 0;
  const r = await autocannon({
    url: `${url}${path}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'content-type': 'application/json' },
    requests: [{ setupRequest: (req) => ({ ...req, body: JSON.stringify(body(++n)) }) }],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

/** Rotation under load: one login per connection, then each refresh presents a token the last refresh returned. */
async function refreshLoad(url) {
  const pool = [];
  for (let i = 0; i < CONNECTIONS; i++) {
    const r = await fetch(`${url}/api/auth/local`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ identifier: 'benchuser', password: 'secret123' }),
    });
    const body = await r.json();
    if (!body.refreshToken) throw new Error(`no refresh token: ${JSON.stringify(body)}`);
    pool.push(body.refreshToken);
  }
  const r = await autocannon({
    url: `${url}/api/auth/refresh`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: DURATION,
    headers: { 'content-type': 'application/json' },
    requests: [
      {
        // autocannon clears a connection's context before each request: the tokens not in flight wait in one queue
        setupRequest: (req) => ({ ...req, body: JSON.stringify({ refreshToken: pool.shift() }) }),
        onResponse: (status, body) => {
          if (status === 200) pool.push(JSON.parse(body).refreshToken);
        },
      },
    ],
  });
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, non2xx: r.non2xx, errors: r.errors };
}

async function measure(server) {
  await waitUp(server.url, server.child);
  const run = Date.now().toString(36);
  const reg = await fetch(`${server.url}/api/auth/local/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username: 'benchuser', email: 'bench@example.com', password: 'secret123' }),
  });
  if (reg.status !== 200) throw new Error(`${server.name} register: ${reg.status} ${await reg.text()}`);
  // warm-up
  await autocannon({
    url: `${server.url}/api/auth/local`,
    method: 'POST',
    connections: 2,
    duration: 2,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: 'benchuser', password: 'secret123' }),
  });
  const login = await load(server.url, '/api/auth/local', () => ({ identifier: 'benchuser', password: 'secret123' }));
  const wrong = await load(server.url, '/api/auth/local', () => ({ identifier: 'benchuser', password: 'wrong-password' }));
  const register = await load(server.url, '/api/auth/local/register', (i) => ({ username: `u${run}${i}`, email: `u${run}${i}@example.com`, password: 'secret123' }));
  const refresh = REFRESH ? await refreshLoad(server.url) : undefined;
  return { login, wrong, register, refresh };
}

const servers = [await folio(13501)];
if (STRAPI_DIR) servers.push(await strapi(13502));
const results = {};
try {
  for (const s of servers) {
    results[s.name] = await measure(s);
    await stop(s.child);
    s.cleanup();
  }
} finally {
  for (const s of servers) {
    if (s.child.exitCode === null) await stop(s.child);
    s.cleanup();
  }
}
const row = (label, f, st) =>
  `| ${label} | ${f.rps.toFixed(0)} | ${f.p50} | ${f.p99} | ${f.non2xx} |${st ? ` ${st.rps.toFixed(0)} | ${st.p50} | ${st.p99} | ${st.non2xx} | ${(f.rps / st.rps).toFixed(1)}× |` : ''}`;
console.log(`\n${DURATION} s, ${CONNECTIONS} connections, bcrypt cost 10, SQLite, ${REFRESH ? 'refresh mode' : 'legacy JWTs'}, ${new Date().toISOString()}`);
console.log(`| scenario | Folio req/s | p50 | p99 | non-2xx |${STRAPI_DIR ? ' Strapi req/s | p50 | p99 | non-2xx | ratio |' : ''}`);
console.log(`|---|---|---|---|---|${STRAPI_DIR ? '---|---|---|---|---|' : ''}`);
const st = results['Strapi'];
console.log(row('login', results['Folio'].login, st?.login));
console.log(row('login, wrong password (400)', results['Folio'].wrong, st?.wrong));
console.log(row('register', results['Folio'].register, st?.register));
if (REFRESH) console.log(row('refresh (rotation)', results['Folio'].refresh, st?.refresh));
