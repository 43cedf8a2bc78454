// What the router and Node's HTTP parser refuse before a route runs is answered in the API's error
// shape, with the response headers every answer carries, and never echoes the URL back.
import { request as rawRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

/** a request sent as written (fetch would refuse or re-encode some of these) */
function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  const { hostname, port } = new URL(t.url);
  return new Promise((resolve, reject) => {
    const req = rawRequest({ hostname, port, method, path, headers: { authorization: `Bearer ${t.token}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('requests refused before any route runs', () => {
  it('a path whose percent-encoding does not decode is a 400 "failed to decode", as Strapi 5.54 answers, with the security headers', async () => {
    for (const path of ['/api/articles%c0', '/api/articles/%E0%A4%A', '/api/users/%ff', '/uploads/%ff']) {
      const r = await send('GET', path);
      expect(JSON.parse(r.body), path).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'failed to decode' } });
      expect(r.headers['x-content-type-options'], path).toBe('nosniff');
      expect(r.headers['content-security-policy'], path).toBeDefined();
    }
  });

  it('an id over 100 characters reaches its route: the document it names is not found', async () => {
    const long = 'a'.repeat(300);
    expect(JSON.parse((await send('GET', `/api/articles/${long}`)).body)).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'Document not found', details: {} },
    });
    expect(JSON.parse((await send('GET', `/api/users/${'1'.repeat(101)}`)).body)).toEqual({
      data: null,
      error: { status: 404, name: 'NotFoundError', message: 'User not found', details: {} },
    });
  });

  it("a method Node's parser does not know is a 400 in the error shape", async () => {
    const r = await send('FOO', '/api/articles');
    expect(r.status).toBe(400);
    expect(JSON.parse(r.body)).toEqual({ data: null, error: { status: 400, name: 'BadRequestError', message: 'Bad Request' } });
    expect(r.headers['x-content-type-options']).toBe('nosniff');
  });

  it('headers over the limit are a 431 in the error shape', async () => {
    const r = await send('GET', '/api/articles', { 'x-big': 'a'.repeat(20_000) });
    expect(r.status).toBe(431);
    expect(JSON.parse(r.body)).toEqual({ data: null, error: { status: 431, name: 'RequestHeaderFieldsTooLargeError', message: 'Request Header Fields Too Large' } });
  });
});
