// A list sorted on anything but the row id reads its page's ids in order and then their rows
// (find.ts, sortsMatches): the pages a client walks through must still be the sorted list cut in
// pieces — no gap, no repeat, ties broken by id — filtered or not, counted or not, by a field of the
// type or of a relation, and past the last page nothing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
const authors: string[] = [];

beforeAll(async () => {
  t = await startTestApp();
  for (const name of ['Cleo', 'Ada', 'Bea']) {
    const r = await t.request('POST', '/api/authors', { body: { data: { name } } });
    if (r.status !== 201) throw new Error(r.text);
    authors.push(r.body.data.documentId);
  }
  // views repeat (ties), some are missing (nulls), and every third article has no author
  for (let i = 0; i < 23; i++) {
    const data: Record<string, unknown> = { title: `Article ${String(i).padStart(2, '0')}`, views: i % 4 === 3 ? null : (i * 7) % 5 };
    if (i % 3 !== 2) data['author'] = authors[i % 3];
    const r = await t.request('POST', '/api/articles', { body: { data } });
    if (r.status !== 201) throw new Error(r.text);
  }
});
afterAll(async () => {
  await t?.close();
});

interface Entry {
  readonly id: number;
  readonly title: string;
  readonly views: number | null;
  readonly author?: { readonly name: string } | null;
}

async function page(query: string): Promise<{ data: Entry[]; meta: { pagination?: Record<string, number> } }> {
  const r = await t.get(`/api/articles?${query}`);
  expect(r.status, r.text).toBe(200);
  return r.body;
}

/** every page of `query`, walked with `size` entries a page */
async function walk(query: string, size: number): Promise<Entry[]> {
  const all: Entry[] = [];
  for (let p = 1; ; p++) {
    const { data } = await page(`${query}&pagination[page]=${p}&pagination[pageSize]=${size}`);
    all.push(...data);
    if (data.length < size) return all;
  }
}

const byViewsDesc = (a: Entry, b: Entry): number => (a.views === b.views ? a.id - b.id : a.views === null ? 1 : b.views === null ? -1 : b.views - a.views);

describe('pages of a list sorted on a field', () => {
  it('cut the sorted list without gap or repeat, ties in id order, nulls last descending', async () => {
    const every = (await page('pagination[pageSize]=100&fields[0]=title&fields[1]=views')).data;
    expect(every).toHaveLength(23);
    const expected = [...every].sort(byViewsDesc);
    for (const size of [1, 4, 7, 100]) {
      const walked = await walk('sort=views:desc&fields[0]=title&fields[1]=views', size);
      expect(walked.map((e) => e.id)).toEqual(expected.map((e) => e.id));
      // each entry is its own row, not another's values under its id
      for (const e of walked) expect(e).toEqual(every.find((x) => x.id === e.id));
    }
  });

  it('the same with a filter, with and without the count, and with offsets', async () => {
    const every = (await page('pagination[pageSize]=100&fields[0]=title&fields[1]=views')).data;
    const expected = every.filter((e) => e.title < 'Article 17').sort(byViewsDesc);
    for (const count of ['true', 'false']) {
      const walked = await walk(`filters[title][$lt]=Article 17&sort=views:desc&pagination[withCount]=${count}&fields[0]=title&fields[1]=views`, 5);
      expect(walked.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    }
    const { data, meta } = await page('filters[title][$lt]=Article 17&sort=views:desc&pagination[start]=3&pagination[limit]=4&fields[0]=title&fields[1]=views');
    expect(data.map((e) => e.id)).toEqual(expected.slice(3, 7).map((e) => e.id));
    expect(meta.pagination).toEqual({ start: 3, limit: 4, total: expected.length });
  });

  it('by a field of a relation, with the relation populated', async () => {
    const walked = await walk('sort[0]=author.name:asc&sort[1]=title:desc&populate[author][fields][0]=name&fields[0]=title', 6);
    // no author sorts first ascending, then Ada, then Cleo; titles descending within each
    expect(walked.map((e) => e.author?.name ?? null)).toEqual([...Array<null>(7).fill(null), ...Array<string>(8).fill('Ada'), ...Array<string>(8).fill('Cleo')]);
    const groups = [null, 'Ada', 'Cleo'];
    const expected = walked.slice().sort((a, b) => groups.indexOf(a.author?.name ?? null) - groups.indexOf(b.author?.name ?? null) || (a.title < b.title ? 1 : -1));
    expect(walked.map((e) => e.title)).toEqual(expected.map((e) => e.title));
    expect(new Set(walked.map((e) => e.id)).size).toBe(23);
  });

  it('past the last page: no entries, and the count still says how many there are', async () => {
    const { data, meta } = await page('sort=views:desc&pagination[page]=9&pagination[pageSize]=5');
    expect(data).toEqual([]);
    expect(meta.pagination).toEqual({ page: 9, pageSize: 5, pageCount: 5, total: 23 });
  });
});
