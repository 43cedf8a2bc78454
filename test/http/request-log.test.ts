// Request logs: one pino line per request with method, url, status and time, and never a credential:
// no Authorization header, no API token, no secret carried in a query string.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load-config.js';
import { redactUrl } from '../../src/http/request-log.js';
import { startTestApp, type TestApp } from '../support/app.js';
import { project, SECRETS } from '../config/helpers.js';

interface Line {
  level: number;
  msg: string;
  method?: string;
  url?: string;
  statusCode?: number;
  responseTime?: number;
  reqId?: string;
}

describe('with logging on', () => {
  const written: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(
      { logger: true },
      {
        logStream: {
          write: (line: string) => {
            written.push(line);
          },
        },
      },
    );
  });
  afterAll(async () => {
    await t.close();
  });

  const linesSince = (n: number): Line[] => written.slice(n).map((l) => JSON.parse(l) as Line);

  it('writes one line per request: method, url, status, response time', async () => {
    const n = written.length;
    const r = await t.get('/api/articles?pagination[pageSize]=2');
    expect(r.status).toBe(200);
    const lines = linesSince(n);
    expect(lines).toHaveLength(1);
    const [line] = lines;
    expect(line).toMatchObject({ level: 30, method: 'GET', url: '/api/articles?pagination[pageSize]=2', statusCode: 200 });
    expect(line!.responseTime).toBeGreaterThanOrEqual(0);
    expect(line!.reqId).toEqual(expect.any(String));
    expect(line!.msg).toMatch(/^GET \/api\/articles\?pagination\[pageSize\]=2 200 [\d.]+ ms$/);
  });

  it('refusals and unknown routes are one line each too', async () => {
    const n = written.length;
    await t.get('/api/articles', { token: 'not-a-token' });
    await t.get('/api/nothing-here');
    await fetch(`${t.url}/api/articles`, { method: 'OPTIONS', headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' } });
    expect(linesSince(n).map((l) => [l.method, l.url, l.statusCode])).toEqual([
      ['GET', '/api/articles', 401],
      ['GET', '/api/nothing-here', 404],
      ['OPTIONS', '/api/articles', 204],
    ]);
  });

  it('never holds a token: not the Authorization header, not a secret in the query string', async () => {
    const n = written.length;
    const reader = await t.tokenOf('read-only');
    await t.get('/api/articles', { token: reader });
    await t.get('/api/articles', { token: `${reader}x` });
    await t.get(`/api/nothing?access_token=${reader}&confirmation=c0nf1rm&code=oauthc0de&filters[title][$eq]=kept`, { token: reader });
    await t.get(`/api/connect/github/callback?id_token=${reader}`, { token: null, headers: { cookie: `jwtRefresh=${reader}` } });
    const text = written.slice(n).join('');
    expect(text).not.toContain(reader);
    expect(text).not.toContain(t.token);
    expect(text).not.toMatch(/bearer/i);
    expect(text).not.toContain('c0nf1rm');
    expect(text).not.toContain('oauthc0de');
    expect(text).toContain('access_token=[redacted]&confirmation=[redacted]&code=[redacted]&filters[title][$eq]=kept');
    expect(linesSince(n)).toHaveLength(4);
  });
});

describe('redactUrl', () => {
  it.each([
    ['/api/articles', '/api/articles'],
    ['/api/articles?sort=title&populate=*', '/api/articles?sort=title&populate=*'],
    ['/api/auth/email-confirmation?confirmation=abc', '/api/auth/email-confirmation?confirmation=[redacted]'],
    [
      '/x?refresh_token=a&jwt=b&apiKey=c&api-key=d&password=e&secret=f&X-Amz-Signature=g&session=h',
      '/x?refresh_token=[redacted]&jwt=[redacted]&apiKey=[redacted]&api-key=[redacted]&password=[redacted]&secret=[redacted]&X-Amz-Signature=[redacted]&session=[redacted]',
    ],
    ['/x?%61ccess_token=a&code=b&zipcode=c', '/x?%61ccess_token=[redacted]&code=[redacted]&zipcode=c'],
    ['/x?filters[password][$eq]=hunter2', '/x?filters[password][$eq]=[redacted]'],
    ['/x?token', '/x?token'],
  ])('%s', (url, expected) => {
    expect(redactUrl(url)).toBe(expected);
  });
});

describe('default', () => {
  it('on in development and production, as Strapi logs each request; off under NODE_ENV=test; FOLIO_LOG decides when set', async () => {
    const dir = project();
    const logger = async (env: Record<string, string>): Promise<boolean> => (await loadConfig(dir, { ...SECRETS, ...env }, { writeEnvFile: false })).config.logger;
    expect(await logger({})).toBe(true);
    expect(await logger({ NODE_ENV: 'production' })).toBe(true);
    expect(await logger({ NODE_ENV: 'test' })).toBe(false);
    expect(await logger({ NODE_ENV: 'production', FOLIO_LOG: 'false' })).toBe(false);
    expect(await logger({ NODE_ENV: 'test', FOLIO_LOG: 'true' })).toBe(true);
  });
});
