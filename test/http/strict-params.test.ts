// config/api `rest.strictParams: true` (Onzo191/strapi-template sets it): Strapi 5.54's core controllers
// refuse an unknown top-level query parameter, while the upload and users-permissions controllers
// validate their queries without the setting and ignore one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_REST, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ rest: { ...TEST_REST, strictParams: true } });
});
afterAll(async () => {
  await t?.close();
});

describe('rest.strictParams', () => {
  it('refuses an unknown query parameter on the content routes', async () => {
    const r = await t.get('/api/articles?foo=1');
    expect(r.status).toBe(400);
    expect(r.body.error).toMatchObject({ name: 'ValidationError', message: 'Invalid key foo', details: { key: 'foo', path: null, source: 'query', param: 'foo' } });
    expect((await t.get('/api/articles?pagination[page]=1&sort=title')).status).toBe(200);
  });

  it('leaves the users and media library routes as they are: an unknown parameter is ignored, as Strapi 5.54 does', async () => {
    const made = await t.request('POST', '/api/users', { body: { username: 'strict', email: 'strict@example.com', password: 'secret123' } });
    expect(made.status, made.text).toBe(201);
    for (const path of ['/api/users?foo=1', `/api/users/${made.body.id}?foo=1`, '/api/users/count?foo=1', '/api/upload/files?foo=1&sort=name']) {
      const r = await t.get(path);
      expect(r.status, `${path}: ${r.text}`).toBe(200);
    }
    // their own parameters are still checked
    expect((await t.get('/api/users?filters[nope][$eq]=1&foo=1')).status).toBe(400);
    expect((await t.get('/api/upload/files?sort=nope&foo=1')).status).toBe(400);
  });
});
