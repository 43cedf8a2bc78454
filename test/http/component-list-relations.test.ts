// The relations held by the rows of one component list (a zone of quotes, each naming an author) are
// checked, locked and linked together: row by row, each quote cost a lock, a look-up of its author and
// an insert of its link on every dialect, and publishing copied each quote's link in a statement of its
// own. What a client reads back must be the same whichever way they were written.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';
import { uploadTinyPng } from '../support/tiny-png.js';

let t: TestApp;
const authors: string[] = [];
beforeAll(async () => {
  t = await startTestApp();
  for (let i = 0; i < 40; i++) authors.push(await writeDocument(t, 'POST', '/api/authors', { name: `author ${i}`, email: `author${i}@example.com` }));
});
afterAll(async () => {
  await t?.close();
});

type Quote = { id: number; __component: string; title: string; person: { documentId: string; name: string } | null };

const quotes = (n: number, shift = 0) => Array.from({ length: n }, (_, i) => ({ __component: 'shared.quote', title: `q${i}`, person: authors[(i + shift) % authors.length] }));

async function cost(method: string, path: string, data: Record<string, unknown>): Promise<{ documentId: string; statements: number }> {
  const before = t.dataStatements();
  const documentId = await writeDocument(t, method, path, data);
  return { documentId, statements: t.dataStatements() - before };
}

async function blocks(documentId: string, status: 'draft' | 'published'): Promise<Quote[]> {
  const r = await t.get(`/api/articles/${documentId}?status=${status}&populate[blocks][on][shared.quote][populate][person][fields][0]=name`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.blocks;
}

const people = (list: Quote[]): (string | null)[] => list.map((q) => q.person?.documentId ?? null);

describe('relations of component list rows', () => {
  it('a zone of 40 quotes naming authors is created, updated and published in as many statements as one of 3, but for the rows themselves', async () => {
    const { dialect } = t.app.database;
    // where a multi-row INSERT can't tell each row's new id, each quote's row (and its published copy) is an INSERT of its own
    const perRow = dialect.idsFromSequence || dialect.consecutiveIds !== null ? 0 : 2;
    const few = await cost('POST', '/api/articles', { title: 'few quotes', blocks: quotes(3) });
    const many = await cost('POST', '/api/articles', { title: 'many quotes', blocks: quotes(40) });
    expect(many.statements - few.statements).toBe(37 * perRow);
    const fewAgain = await cost('PUT', `/api/articles/${few.documentId}`, { blocks: quotes(3, 1) });
    const manyAgain = await cost('PUT', `/api/articles/${many.documentId}`, { blocks: quotes(40, 1) });
    expect(manyAgain.statements - fewAgain.statements).toBe(37 * perRow);
    for (const status of ['draft', 'published'] as const) {
      const read = await blocks(many.documentId, status);
      expect(read.map((q) => q.title)).toEqual(quotes(40).map((q) => q.title));
      expect(people(read)).toEqual(quotes(40, 1).map((q) => q.person));
      expect(read[0]!.person!.name).toBe('author 1');
    }
  });

  it('a zone of 40 quotes kept by id, each given a new title and author, is updated in as many statements as one of 3', async () => {
    const few = await writeDocument(t, 'POST', '/api/articles?status=draft', { title: 'few kept', blocks: quotes(3) });
    const many = await writeDocument(t, 'POST', '/api/articles?status=draft', { title: 'many kept', blocks: quotes(40) });
    const keep = async (documentId: string, shift: number) => {
      const ids = (await blocks(documentId, 'draft')).map((q) => q.id);
      const sent = quotes(ids.length, shift).map((q, i) => ({ ...q, id: ids[i], title: `kept ${i}` }));
      return (await cost('PUT', `/api/articles/${documentId}?status=draft`, { blocks: sent })).statements;
    };
    expect((await keep(many, 2)) - (await keep(few, 2))).toBe(0);
    const read = await blocks(many, 'draft');
    expect(read.map((q) => q.title)).toEqual(Array.from({ length: 40 }, (_, i) => `kept ${i}`));
    expect(people(read)).toEqual(quotes(40, 2).map((q) => q.person));
  });

  it('zones of 40 text or media entries are created and updated keeping them by id in as many statements as zones of 3, but for the rows themselves', async () => {
    const { dialect } = t.app.database;
    const files = [await uploadTinyPng(t, 'a.png'), await uploadTinyPng(t, 'b.png')];
    // where a multi-row INSERT can't tell each row's new id (SQLite, in-process), each new row is an INSERT and each
    // published copy an INSERT … SELECT; a row with no columns of its own (a media entry) is looked up, then inserted
    const oneByOne = !dialect.idsFromSequence && dialect.consecutiveIds === null;
    const kinds = [
      { make: (i: number) => ({ __component: 'shared.rich-text', body: `text ${i}` }), create: 2, keep: 1 },
      { make: (i: number) => ({ __component: 'shared.media', file: files[i % 2] }), create: 3, keep: 2 },
    ];
    for (const { make, create, keep } of kinds) {
      const costs = [];
      for (const n of [3, 40]) {
        const made = await cost('POST', '/api/articles', { title: `zone of ${n}`, blocks: Array.from({ length: n }, (_, i) => make(i)) });
        const read = await t.get(`/api/articles/${made.documentId}?status=draft&populate=blocks`);
        const ids = (read.body.data.blocks as { id: number }[]).map((b) => b.id);
        const kept = await cost('PUT', `/api/articles/${made.documentId}`, { blocks: ids.map((id, i) => ({ ...make(i + 1), id })) });
        const published = await t.get(`/api/articles/${made.documentId}?populate=blocks`);
        expect(published.body.data.blocks.map((b: { body?: string }) => b.body ?? null)).toEqual(ids.map((_, i) => (make(i + 1) as { body?: string }).body ?? null));
        costs.push([made.statements, kept.statements]);
      }
      expect(costs[1]![0]! - costs[0]![0]!).toBe(37 * (oneByOne ? create : 0));
      expect(costs[1]![1]! - costs[0]![1]!).toBe(37 * (oneByOne ? keep : 0));
    }
  });

  it('quotes naming one author, by documentId and by row id, and quotes kept by id beside new ones keep their own links', async () => {
    const author0 = await t.get(`/api/authors/${authors[0]}`);
    const rowId = author0.body.data.id as number;
    const created = await writeDocument(t, 'POST', '/api/articles?status=draft', {
      title: 'shared author',
      blocks: [
        { __component: 'shared.quote', title: 'a', person: authors[0] },
        { __component: 'shared.quote', title: 'b', person: { connect: [{ id: rowId }] } },
        { __component: 'shared.quote', title: 'c', person: authors[0] },
        { __component: 'shared.quote', title: 'd', person: null },
        { __component: 'shared.quote', title: 'e', person: authors[2] },
      ],
    });
    const first = await blocks(created, 'draft');
    expect(people(first)).toEqual([authors[0], authors[0], authors[0], null, authors[2]]);
    // keep b and e by id (e now naming another author), add two new ones between them
    await writeDocument(t, 'PUT', `/api/articles/${created}?status=draft`, {
      blocks: [
        { __component: 'shared.quote', id: first[1]!.id, title: 'b' },
        { __component: 'shared.quote', title: 'new 1', person: authors[3] },
        { __component: 'shared.quote', title: 'new 2', person: authors[0] },
        { __component: 'shared.quote', id: first[4]!.id, title: 'e', person: authors[4] },
      ],
    });
    const second = await blocks(created, 'draft');
    expect(second.map((q) => q.title)).toEqual(['b', 'new 1', 'new 2', 'e']);
    expect(people(second)).toEqual([authors[0], authors[3], authors[0], authors[4]]);
    expect(second[0]!.id).toBe(first[1]!.id);
  });

  it('a quote naming an author that does not exist is refused with the error it always had, and nothing of the write stays', async () => {
    const blocksSent = quotes(6);
    blocksSent[4] = { __component: 'shared.quote', title: 'q4', person: 'nosuchauthor00000000000' };
    const r = await t.request('POST', '/api/articles', { body: { data: { title: 'missing author', blocks: blocksSent } } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'Document with id "nosuchauthor00000000000", locale "null" not found', details: {} });
    const list = await t.get('/api/articles?filters[title][$eq]=missing%20author&status=draft');
    expect(list.body.data).toEqual([]);
  });
});
