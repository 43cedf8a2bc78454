// A write may name up to 10,000 documents in one relation list (MAX_RELATION_REFS). Its cost must not
// grow a statement per document: from the side that doesn't store the links (a tag's articles, an
// author's articles) each document named cost one or two statements (its owner's next position, its
// insert; or an update of its place), 20,000 round trips for one 270 KB body; and on PostgreSQL the
// owner side's check-and-place read, a union of one branch per document, cost 12 s of planning for
// 10,000 of them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

const send = (method: string, path: string, data: Record<string, unknown>): Promise<string> => writeDocument(t, method, path, data);

async function articles(n: number, prefix: string): Promise<string[]> {
  const out: string[] = [];
  // a few at a time: SQLite writes one after another anyway
  for (let from = 0; from < n; from += 10) {
    const batch = Array.from({ length: Math.min(10, n - from) }, (_, i) => send('POST', '/api/articles', { title: `${prefix}${from + i}` }));
    out.push(...(await Promise.all(batch)));
  }
  return out;
}

/** the data statements one write costs */
async function cost(method: string, path: string, data: Record<string, unknown>): Promise<number> {
  const before = t.dataStatements();
  await send(method, path, data);
  return t.dataStatements() - before;
}

const titles = (list: { title: string }[]): string[] => list.map((a) => a.title);

describe('long relation lists written from the side without the links', () => {
  it('connecting 3 or 40 articles to a tag costs the same statements, and so does moving them', async () => {
    const few = await articles(3, 'few');
    const many = await articles(40, 'many');
    const small = await send('POST', '/api/tags?status=draft', { label: 'small' });
    const large = await send('POST', '/api/tags?status=draft', { label: 'large' });
    const connectFew = await cost('PUT', `/api/tags/${small}?status=draft`, { articles: { connect: few } });
    const connectMany = await cost('PUT', `/api/tags/${large}?status=draft`, { articles: { connect: many } });
    expect(connectMany).toBe(connectFew);
    // each moved to the start, in turn: every link's place changes
    const moveFew = await cost('PUT', `/api/tags/${small}?status=draft`, { articles: { connect: few.map((documentId) => ({ documentId, position: { start: true } })) } });
    const moveMany = await cost('PUT', `/api/tags/${large}?status=draft`, { articles: { connect: many.map((documentId) => ({ documentId, position: { start: true } })) } });
    expect(moveMany).toBe(moveFew);
    const read = await t.get(`/api/tags/${large}?status=draft&populate[articles][fields][0]=title`);
    expect(titles(read.body.data.articles)).toEqual(Array.from({ length: 40 }, (_, i) => `many${39 - i}`));
  });

  it('positions from the side without the links place new and linked documents as before', async () => {
    const [a, b, c, d, e] = await articles(5, 'pos');
    const tag = await send('POST', '/api/tags?status=draft', { label: 'positions' });
    await send('PUT', `/api/tags/${tag}?status=draft`, { articles: [a, b, c, d] });
    await send('PUT', `/api/tags/${tag}?status=draft`, {
      articles: {
        connect: [
          { documentId: d, position: { start: true } },
          { documentId: a, position: { after: c } },
          { documentId: e, position: { before: b } },
        ],
        disconnect: [c],
      },
    });
    const read = await t.get(`/api/tags/${tag}?status=draft&populate[articles][fields][0]=title`);
    expect(titles(read.body.data.articles)).toEqual(['pos3', 'pos4', 'pos1', 'pos0']);
    // the owner side keeps the tag, in each article's own list
    const owner = await t.get(`/api/articles/${e}?status=draft&populate[tags][fields][0]=label`);
    expect(owner.body.data.tags.map((x: { label: string }) => x.label)).toEqual(['positions']);
  });

  it('an author taking 3 or 40 articles from another costs the same statements, and the other loses them', async () => {
    const first = await send('POST', '/api/authors', { name: 'First holder' });
    const few = await articles(3, 'taken-few');
    const many = await articles(40, 'taken-many');
    await send('PUT', `/api/authors/${first}`, { articles: { connect: [...few, ...many] } });
    const second = await send('POST', '/api/authors', { name: 'Second holder' });
    const third = await send('POST', '/api/authors', { name: 'Third holder' });
    const takeFew = await cost('PUT', `/api/authors/${second}`, { articles: { connect: few } });
    const takeMany = await cost('PUT', `/api/authors/${third}`, { articles: { connect: many } });
    expect(takeMany).toBe(takeFew);
    const left = await t.get(`/api/authors/${first}?populate[articles][fields][0]=title`);
    expect(left.body.data.articles).toEqual([]);
    const took = await t.get(`/api/authors/${third}?populate[articles][fields][0]=title`);
    expect(titles(took.body.data.articles)).toEqual(many.map((_, i) => `taken-many${i}`));
    const article = await t.get(`/api/articles/${many[7]}?populate[author][fields][0]=name`);
    expect(article.body.data.author.name).toBe('Third holder');
  });
});

describe('long relation lists written from the side with the links', () => {
  it('linking 3 or 250 documents reads their places in one statement (MySQL: a union per 200)', async () => {
    if (t.app.database.dialect.name === 'mysql') return;
    const few = await articles(3, 'owner-few');
    const many = await articles(250, 'owner-many');
    const a = await send('POST', '/api/articles', { title: 'holds few' });
    const b = await send('POST', '/api/articles', { title: 'holds many' });
    const linkFew = await cost('PUT', `/api/articles/${a}`, { related: { connect: few } });
    const linkMany = await cost('PUT', `/api/articles/${b}`, { related: { connect: many } });
    expect(linkMany).toBe(linkFew);
    const read = await t.get(`/api/articles/${b}?populate[related][fields][0]=title`);
    expect(titles(read.body.data.related)).toEqual(Array.from({ length: 250 }, (_, i) => `owner-many${i}`));
  });
});
