// The login rate limit counts across processes: two `folio start` on one database, and one
// `folio start --workers 2`, refuse the (max+1)th login of a key whichever process answers it
// (counters in the database; an in-memory limiter would let each process pass `max`).
import { request } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, ensureBuilt, spawnFolio, type Project, type Server } from './helpers.js';

const MAX = 4;
let project: Project;

beforeAll(async () => {
  await ensureBuilt();
  project = await copyProject();
  const plugins = {
    i18n: { config: { defaultLocale: 'en', locales: [{ code: 'en', name: 'English (en)' }] } },
    'users-permissions': { config: { ratelimit: { interval: 60_000, max: MAX } } },
  };
  writeFileSync(join(project.dir, 'config', 'plugins.json'), JSON.stringify(plugins));
});
afterAll(() => project.remove());

/** One login on a new connection (no keep-alive), so `--workers` spreads them over its processes. */
function loginAt(base: string, identifier: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const body = JSON.stringify({ identifier, password: 'wrong-password' });
    const req = request(
      `${base}/api/auth/local`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const LISTENING = /Folio listening on (http:\/\/127\.0\.0\.1:\d+)/;

describe('the login limit across processes on one database', () => {
  it(`two servers, requests alternating: ${MAX} answered in all, the rest 429`, async () => {
    const servers: Server[] = [0, 1].map(() => spawnFolio(project, ['start', '--port', '0', '--host', '127.0.0.1']));
    try {
      const bases = await Promise.all(servers.map(async (s) => (await s.waitFor(LISTENING, 60_000))[1]!));
      const got: number[] = [];
      for (let i = 0; i < 3 * MAX; i++) got.push(await loginAt(bases[i % 2]!, `user${i}`));
      expect(got).toEqual([...Array<number>(MAX).fill(400), ...Array<number>(2 * MAX).fill(429)]);
      for (const s of servers) expect(s.stderr()).toBe('');
    } finally {
      for (const s of servers) await s.stop();
    }
  }, 60_000);

  it(`--workers 2: ${MAX} answered in all, the rest 429`, async () => {
    const server = spawnFolio(project, ['start', '--workers', '2', '--port', '0', '--host', '127.0.0.1']);
    try {
      const base = (await server.waitFor(/Folio listening on (http:\/\/127\.0\.0\.1:\d+) with 2 workers\n/, 60_000))[1]!;
      // the login key is spent by the test above (same database, path and address): register, keyed
      // per email, starts a fresh count; each request on its own connection, spread over both workers
      const statuses = await Promise.all(Array.from({ length: 3 * MAX }, () => registerAt(base, 'same@example.com')));
      const count = (s: number): number => statuses.filter((x) => x === s).length;
      expect(count(429)).toBe(2 * MAX);
      expect(statuses.filter((x) => x !== 429)).toHaveLength(MAX);
      expect(statuses).not.toContain(500);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});

function registerAt(base: string, email: string): Promise<number> {
  return new Promise((resolve, reject) => {
    // no password: a 400 after the limiter, without the cost of a hash
    const body = JSON.stringify({ username: 'same', email });
    const req = request(
      `${base}/api/auth/local/register`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
