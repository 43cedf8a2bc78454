// `populate=related` on the media library lists what each file is linked to.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, filePart, png, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
let fileId: number;
let otherId: number;
let unusedId: number;
let secondId: number;
let articleDoc: string;

beforeAll(async () => {
  u = await startUploadApp();
  const up = await u.upload([
    filePart(await png(20, 20), 'a.png', 'image/png'), filePart(await png(30, 30), 'b.png', 'image/png'), filePart(await png(10, 10), 'c.png', 'image/png'),
    filePart(await png(12, 12), 'd.png', 'image/png'),
  ]);
  expect(up.status).toBe(201);
  const byName = new Map<string, number>(up.body.map((f: { name: string; id: number }) => [f.name, f.id]));
  fileId = byName.get('a.png')!;
  otherId = byName.get('b.png')!;
  unusedId = byName.get('c.png')!;
  secondId = byName.get('d.png')!;
  const a = await u.t.request('POST', '/api/articles', {
    body: { data: { title: 'Has a cover', internalNotes: 'secret', cover: fileId, blocks: [{ __component: 'shared.media', file: otherId }] } },
  });
  expect(a.status).toBe(201);
  articleDoc = a.body.data.documentId;
  expect((await u.t.request('POST', '/api/articles', { body: { data: { title: 'Another cover', cover: secondId } } })).status).toBe(201);
});
afterAll(async () => { await u.close(); });

describe('files populate=related', () => {
  it('lists the entries a file is linked to, draft and published rows, with __type and without private fields', async () => {
    const r = await u.t.get(`/api/upload/files/${fileId}?populate=related`);
    expect(r.status).toBe(200);
    const related = r.body.related as Record<string, unknown>[];
    expect(related).toHaveLength(2);
    for (const e of related) {
      expect(e).toMatchObject({ documentId: articleDoc, title: 'Has a cover', __type: 'api::article.article' });
      expect(e).not.toHaveProperty('internalNotes');
      expect(e).not.toHaveProperty('cover');
    }
    expect(related.map((e) => e['publishedAt'] === null).sort()).toEqual([false, true]);
  });

  it('names a component as the __type when a component holds the file', async () => {
    const r = await u.t.get(`/api/upload/files/${otherId}?populate=related`);
    expect(r.status).toBe(200);
    expect(r.body.related.length).toBeGreaterThan(0);
    for (const e of r.body.related) expect(e).toEqual({ id: expect.any(Number), __type: 'shared.media' });
  });

  it('gives an unlinked file an empty list, and no related key without populate', async () => {
    expect((await u.t.get(`/api/upload/files/${unusedId}?populate=related`)).body.related).toEqual([]);
    expect((await u.t.get(`/api/upload/files/${fileId}`)).body).not.toHaveProperty('related');
  });

  it('works on the flat list and the page, in every populate form', async () => {
    for (const q of ['populate=related', 'populate=*', 'populate[0]=related', 'populate[related]=true']) {
      const flat = await u.t.get(`/api/upload/files?${q}`);
      expect(flat.status, q).toBe(200);
      const byId = new Map(flat.body.map((f: { id: number; related: unknown[] }) => [f.id, f.related.length]));
      expect([byId.get(fileId), byId.get(otherId), byId.get(unusedId)], q).toEqual([2, 2, 0]);
      const page = await u.t.get(`/api/upload/files/page?${q}`);
      expect(page.status, q).toBe(200);
      expect(page.body.data.every((f: Record<string, unknown>) => Array.isArray(f['related'])), q).toBe(true);
    }
  });

  it('reads the links of a whole list in a fixed number of statements', async () => {
    const count = async (path: string): Promise<number> => {
      const before = u.t.statements();
      expect((await u.t.get(path)).status).toBe(200);
      return u.t.statements() - before;
    };
    const one = await count(`/api/upload/files?populate=related&filters[id][$eq]=${fileId}`);
    const two = await count(`/api/upload/files?populate=related&filters[id][$in][0]=${fileId}&filters[id][$in][1]=${secondId}`);
    expect(two).toBe(one);
  });

  it('rejects anything else to populate on a file, naming it', async () => {
    const bad = await u.t.get('/api/upload/files?populate[related]=sometimes');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorOf(400, 'ValidationError', 'Invalid key related', { key: 'related', path: 'related', source: 'query', param: 'populate' }));
    const priv = await u.t.get('/api/upload/files?populate=folder');
    expect(priv.status).toBe(400);
    expect(priv.body.error.message).toBe('Invalid key folder');
  });
});
