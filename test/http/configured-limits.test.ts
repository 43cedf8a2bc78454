// api.rest.defaultLimit and api.rest.maxLimit, set to other values than 25 and 100: the page size a list
// gets without asking, and the most it may ask, in page and offset modes, on content lists and on the
// media library's paginated list alike (contract: Limits, Upload endpoints).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, startUploadApp, type UploadApp } from '../upload/helpers.js';
import { TEST_REST } from '../support/app.js';

let u: UploadApp;
beforeAll(async () => {
  u = await startUploadApp({}, { rest: { ...TEST_REST, defaultLimit: 2, maxLimit: 3 } });
  for (const label of ['a', 'b', 'c', 'd', 'e']) {
    const r = await u.t.request('POST', '/api/tags', { body: { data: { label } } });
    expect(r.status, r.text).toBe(201);
  }
  const up = await u.upload(['a', 'b', 'c', 'd', 'e'].map((n) => filePart(n, `${n}.txt`, 'text/plain')));
  expect(up.status, up.text).toBe(201);
});
afterAll(async () => {
  await u?.close();
});

const pagination = async (path: string): Promise<unknown> => {
  const r = await u.t.get(path);
  expect(r.status, `${path}: ${r.text}`).toBe(200);
  return { entries: r.body.data.length, pagination: r.body.meta.pagination };
};

describe('configured defaultLimit and maxLimit', () => {
  it('a content list pages by defaultLimit and never past maxLimit, in page and offset modes', async () => {
    expect(await pagination('/api/tags')).toEqual({ entries: 2, pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 } });
    expect(await pagination('/api/tags?pagination[pageSize]=50')).toEqual({ entries: 3, pagination: { page: 1, pageSize: 3, pageCount: 2, total: 5 } });
    expect(await pagination('/api/tags?pagination[start]=1')).toEqual({ entries: 2, pagination: { start: 1, limit: 2, total: 5 } });
    expect(await pagination('/api/tags?pagination[limit]=50')).toEqual({ entries: 3, pagination: { start: 0, limit: 3, total: 5 } });
  });

  it('GET /api/upload/files/page is held to the same settings', async () => {
    expect(await pagination('/api/upload/files/page')).toEqual({ entries: 2, pagination: { page: 1, pageSize: 2, pageCount: 3, total: 5 } });
    expect(await pagination('/api/upload/files/page?pagination[pageSize]=50')).toEqual({ entries: 3, pagination: { page: 1, pageSize: 3, pageCount: 2, total: 5 } });
    expect(await pagination('/api/upload/files/page?pagination[start]=4')).toEqual({ entries: 1, pagination: { start: 4, limit: 2, total: 5 } });
    expect(await pagination('/api/upload/files/page?pagination[limit]=50')).toEqual({ entries: 3, pagination: { start: 0, limit: 3, total: 5 } });
  });

  it('GET /api/upload/files stays a flat array of every file', async () => {
    const r = await u.t.get('/api/upload/files');
    expect(r.status).toBe(200);
    expect(r.body).toHaveLength(5);
  });
});
