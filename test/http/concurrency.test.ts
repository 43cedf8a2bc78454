// Writes that race: many identical requests sent at once must behave as if they had come one after
// another (one published row, one document, one winner), and none may answer a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type Response, type TestApp } from '../support/app.js';

const PARALLEL = 50;

let t: TestApp;
beforeAll(async () => { t = await startTestApp(); });
afterAll(async () => { await t.close(); });

/** Sends `n` copies of a request at the same time. */
function burst(n: number, method: string, path: string, body: unknown): Promise<Response[]> {
  return Promise.all(Array.from({ length: n }, () => t.request(method, path, { body })));
}

function statuses(rs: readonly Response[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

async function rowsOf(table: string, documentId?: string): Promise<Record<string, unknown>[]> {
  let q = t.app.database.db.selectFrom(table).selectAll();
  if (documentId !== undefined) q = q.where('document_id', '=', documentId);
  return await q.execute() as Record<string, unknown>[];
}

describe('concurrent writes', () => {
  it(`${PARALLEL} simultaneous publishes of a draft-only document leave exactly one published row`, async () => {
    const draft = await t.request('POST', '/api/articles?status=draft', { body: { data: { title: 'Racing' } } });
    expect(draft.status, draft.text).toBe(201);
    const id = draft.body.data.documentId as string;
    const rs = await burst(PARALLEL, 'PUT', `/api/articles/${id}?status=published`, { data: { summary: 'published' } });
    expect(statuses(rs)).toEqual({ 200: PARALLEL });
    for (const r of rs) expect(r.body.data.publishedAt).not.toBeNull();
    const rows = await rowsOf('articles', id);
    expect(rows.filter((r) => r['published_at'] !== null)).toHaveLength(1);
    expect(rows.filter((r) => r['published_at'] === null)).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous creates with one unique value: one 201, the rest 400 "This attribute must be unique"`, async () => {
    const rs = await burst(PARALLEL, 'POST', '/api/authors', { data: { name: 'Only One' } });
    expect(statuses(rs)).toEqual({ 201: 1, 400: PARALLEL - 1 });
    for (const r of rs.filter((x) => x.status === 400)) {
      expect(r.body.error).toMatchObject({ name: 'ValidationError', message: 'This attribute must be unique' });
    }
    expect((await rowsOf('authors')).filter((r) => r['name'] === 'Only One')).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous publishing creates (draft & publish) with one unique value: one published row`, async () => {
    const rs = await burst(PARALLEL, 'POST', '/api/tags?status=published', { data: { label: 'solo' } });
    expect(statuses(rs)).toEqual({ 201: 1, 400: PARALLEL - 1 });
    const rows = (await rowsOf('tags')).filter((r) => r['label'] === 'solo');
    expect(rows.filter((r) => r['published_at'] !== null)).toHaveLength(1);
  });

  it(`${PARALLEL} simultaneous first PUTs of a single type create one document`, async () => {
    const rs = await burst(PARALLEL, 'PUT', '/api/global', { data: { siteName: 'Concurrent site' } });
    expect(statuses(rs)).toEqual({ 200: PARALLEL });
    const rows = await rowsOf('globals');
    expect(new Set(rows.map((r) => r['document_id'])).size).toBe(1);
    expect(rows).toHaveLength(1);
    expect(new Set(rs.map((r) => r.body.data.documentId))).toEqual(new Set([rows[0]!['document_id']]));
  });

  it(`${PARALLEL} simultaneous updates of related documents answer 200 (deadlocks are retried, never a 500)`, async () => {
    // every update rewrites the same link rows from both sides: the classic lock-order deadlock
    const a = await t.request('POST', '/api/categories', { body: { data: { name: 'A' } } });
    const b = await t.request('POST', '/api/categories', { body: { data: { name: 'B', parent: a.body.data.documentId } } });
    const ids = [a.body.data.documentId as string, b.body.data.documentId as string];
    const rs = await Promise.all(Array.from({ length: PARALLEL }, (_, i) => {
      const [self, other] = i % 2 ? ids : [ids[1]!, ids[0]!];
      return t.request('PUT', `/api/categories/${self}`, { body: { data: { children: { set: [other] }, position: i } } });
    }));
    expect(statuses(rs), rs.find((r) => r.status !== 200)?.text).toEqual({ 200: PARALLEL });
  });
});
