// Publishing gives the published version its own copy of every component row under the draft,
// those with no columns of their own (a slider holds only media) as well; on PostgreSQL all the
// copies of one publish travel in a single statement, however many components there are.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
});

type Block = { id: number; __component: string; body?: string; title?: string; files?: unknown[] };

async function create(data: Record<string, unknown>): Promise<string> {
  const r = await t.request('POST', '/api/articles', { body: { data } });
  expect(r.status, JSON.stringify(r.body)).toBe(201);
  return r.body.data.documentId;
}

const blocksOf = async (doc: string, status: string): Promise<Block[]> => {
  const r = await t.get(`/api/articles/${doc}?populate[blocks][populate]=*&populate[seo][populate]=*&status=${status}`);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body.data.blocks;
};

const mixed = (n: number): Record<string, unknown>[] =>
  Array.from({ length: n }, (_, i) => (i % 2 === 0 ? { __component: 'shared.rich-text', body: `text ${i}` } : { __component: 'shared.slider', files: [] }));

describe('publishing copies components', () => {
  it('every zone entry, those without columns too, is a new row of the published version, in order and with its values', async () => {
    const doc = await create({ title: 'copies', blocks: [...mixed(4), { __component: 'shared.quote', title: 'q' }], seo: { metaTitle: 'm', openGraph: { ogTitle: 'og' } } });
    const draft = await blocksOf(doc, 'draft');
    const published = await blocksOf(doc, 'published');
    const content = (bs: Block[]) => bs.map(({ id: _id, ...rest }) => rest);
    expect(content(published)).toEqual(content(draft));
    expect(content(published).map((b) => b.__component)).toEqual(['shared.rich-text', 'shared.slider', 'shared.rich-text', 'shared.slider', 'shared.quote']);
    // no row is shared: each slider and text of the published version has an id of its own
    const draftIds = new Set(draft.map((b) => `${b.__component}#${b.id}`));
    for (const b of published) expect(draftIds.has(`${b.__component}#${b.id}`)).toBe(false);

    // publishing again replaces the published copies with new ones; the draft keeps its rows
    const r = await t.request('PUT', `/api/articles/${doc}`, { body: { data: { views: 3 } } });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const again = await blocksOf(doc, 'published');
    expect(content(again)).toEqual(content(draft));
    expect((await blocksOf(doc, 'draft')).map((b) => b.id)).toEqual(draft.map((b) => b.id));
    const before = new Set(published.map((b) => `${b.__component}#${b.id}`));
    for (const b of again) expect(before.has(`${b.__component}#${b.id}`)).toBe(false);
  });

  it('re-publishing an article with 8 zone entries runs as many statements as one with 2 where one statement numbers many rows, more on SQLite', async () => {
    const small = await create({ title: 'two', blocks: mixed(2) });
    const large = await create({ title: 'eight', blocks: mixed(8) });
    const cost = async (doc: string): Promise<number> => {
      const before = t.statements();
      const r = await t.request('PUT', `/api/articles/${doc}`, { body: { data: { views: 1 } } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return t.statements() - before;
    };
    const two = await cost(small);
    const eight = await cost(large);
    // PostgreSQL takes the copies' ids from the sequences; MySQL/MariaDB numbers one INSERT's rows in a run (consecutiveIds),
    // those with no columns of their own (a slider) too
    const { dialect } = t.app.database;
    if (dialect.writesInOneStatement || dialect.consecutiveIds !== null) expect(eight).toBe(two);
    else expect(eight).toBeGreaterThan(two);
    expect((await blocksOf(large, 'published')).map((b) => b.__component)).toEqual(mixed(8).map((b) => b['__component']));
  });
});
