// Text types stored in varchar(255) columns on PostgreSQL and MySQL hold at most 255 characters on every
// dialect, whatever a longer maxLength declares: Strapi 5.54 answers such a value with a 500 on
// PostgreSQL and MariaDB ("Data too long") and stores it on SQLite; Folio answers the same 400 everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../support/app.js';
import { startExampleWith } from '../support/example-with.js';

const FILES = {
  'src/api/draft/content-types/draft/schema.json': JSON.stringify({
    kind: 'collectionType',
    collectionName: 'drafts',
    info: { singularName: 'draft', pluralName: 'drafts' },
    options: { draftAndPublish: false },
    attributes: {
      sourceUrl: { type: 'string', maxLength: 500 },
      code: { type: 'uid', maxLength: 300 },
      short: { type: 'string', maxLength: 10 },
      notes: { type: 'text', maxLength: 500 },
    },
  }),
};

let t: TestApp;
beforeAll(async () => {
  t = await startExampleWith(FILES);
});
afterAll(async () => {
  await t?.close();
});

describe('a maxLength over 255 on a varchar type', () => {
  it('is held to 255, with the message of a 255 maxLength, on create and update', async () => {
    const long = `https://example.org/${'b'.repeat(280)}`;
    for (const [data, path] of [
      [{ sourceUrl: long }, 'sourceUrl'],
      [{ code: 'c'.repeat(256) }, 'code'],
    ] as const) {
      const r = await t.request('POST', '/api/drafts', { body: { data } });
      expect(r.status, r.text).toBe(400);
      expect(r.body.error).toEqual({
        status: 400,
        name: 'ValidationError',
        message: `${path} must be at most 255 characters`,
        details: { errors: [{ path: [path], message: `${path} must be at most 255 characters`, name: 'ValidationError', value: Object.values(data)[0] }] },
      });
    }
    const made = await t.request('POST', '/api/drafts', { body: { data: { sourceUrl: 'x'.repeat(255), notes: 'n'.repeat(500) } } });
    expect(made.status, made.text).toBe(201);
    const put = await t.request('PUT', `/api/drafts/${made.body.data.documentId}`, { body: { data: { sourceUrl: long } } });
    expect(put.status).toBe(400);
    expect(put.body.error.message).toBe('sourceUrl must be at most 255 characters');
    // a shorter maxLength and a text column keep theirs
    expect((await t.request('POST', '/api/drafts', { body: { data: { short: 'x'.repeat(11) } } })).body.error.message).toBe('short must be at most 10 characters');
    expect((await t.request('POST', '/api/drafts', { body: { data: { notes: 'n'.repeat(501) } } })).body.error.message).toBe('notes must be at most 500 characters');
    expect((await t.get('/api/drafts')).body.meta.pagination.total).toBe(1);
  });
});
