// A relation attribute whose target is `plugin::upload.file` (not a media attribute) is checked as Strapi 5.54
// checks it: with `plugin::upload.file.find`, which only full-access and read-only tokens hold. A role or
// custom token that may use the media library (`plugin::upload.content-api.find`) still may not populate,
// filter, sort through or link it: that would show which file a document points at, a link the media
// library's `related` doesn't list.
import { cpSync, mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DIR, startTestApp, writeDocument, type TestApp } from '../support/app.js';

let root: string;
let t: TestApp;
let fileId: number;
let libraryToken: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'folio-file-relation-'));
  cpSync(EXAMPLE_DIR, root, { recursive: true });
  const dir = join(root, 'src/api/dossier/content-types/dossier');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'schema.json'),
    JSON.stringify({
      kind: 'collectionType',
      collectionName: 'dossiers',
      info: { singularName: 'dossier', pluralName: 'dossiers', displayName: 'Dossier' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string' },
        attachment: { type: 'relation', relation: 'manyToOne', target: 'plugin::upload.file' },
      },
    }),
  );
  t = await startTestApp({ dir: root });
  const form = new FormData();
  form.append('files', new Blob(['confidential'], { type: 'text/plain' }), 'contract-draft.txt');
  const uploaded = await t.request('POST', '/api/upload', { raw: form });
  expect(uploaded.status, uploaded.text).toBe(201);
  fileId = uploaded.body[0].id as number;
  await writeDocument(t, 'POST', '/api/dossiers', { name: 'linked', attachment: fileId });
  libraryToken = await t.tokenOf('custom', ['api::dossier.dossier.find', 'api::dossier.dossier.create', 'plugin::upload.content-api.find']);
});
afterAll(async () => {
  await t.close();
  rmSync(root, { recursive: true, force: true });
});

const invalidKey = (key: string, param: string, source = 'query'): unknown => ({
  data: null,
  error: { status: 400, name: 'ValidationError', message: `Invalid key ${key}`, details: { key, path: key, source, ...(source === 'query' ? { param } : {}) } },
});

describe('a relation to files, for a caller who may use the media library but not find plugin::upload.file', () => {
  it('is left out of populate, as a relation the caller may not find', async () => {
    // the media library itself stays open to it
    expect((await t.get('/api/upload/files', { token: libraryToken })).status).toBe(200);
    for (const q of ['populate=attachment', 'populate=*', 'populate[attachment][fields][0]=name']) {
      const r = await t.get(`/api/dossiers?${q}`, { token: libraryToken });
      expect(r.status, q).toBe(200);
      expect(r.body.data, q).toHaveLength(1);
      expect(Object.hasOwn(r.body.data[0], 'attachment'), q).toBe(false);
      expect(r.text, q).not.toContain('contract-draft');
    }
  });

  it('is refused in filters and sort', async () => {
    const filtered = await t.get('/api/dossiers?filters[attachment][name][$startsWith]=contract', { token: libraryToken });
    expect(filtered.body).toEqual(invalidKey('attachment', 'filters'));
    const byId = await t.get(`/api/dossiers?filters[attachment][id][$eq]=${fileId}`, { token: libraryToken });
    expect(byId.body).toEqual(invalidKey('attachment', 'filters'));
    const sorted = await t.get('/api/dossiers?sort=attachment.name', { token: libraryToken });
    expect(sorted.status).toBe(400);
    expect(sorted.body.error.message).toBe('Invalid key attachment');
  });

  it('is refused in a write body, and nothing is written', async () => {
    const r = await t.request('POST', '/api/dossiers', { token: libraryToken, body: { data: { name: 'refused', attachment: fileId } } });
    expect(r.status, r.text).toBe(400);
    expect(r.body.error.message).toBe('Invalid key attachment');
    expect((await t.get('/api/dossiers?filters[name][$eq]=refused')).body.data).toEqual([]);
  });

  it('is populated for read-only and full-access tokens, which hold plugin::upload.file.find', async () => {
    const ro = await t.tokenOf('read-only');
    for (const token of [ro, t.token]) {
      const r = await t.get('/api/dossiers?populate[attachment][fields][0]=name', { token });
      expect(r.body.data[0].attachment).toEqual({ id: fileId, documentId: expect.any(String), name: 'contract-draft.txt' });
    }
  });
});
