// `_q` searches as Strapi 5.54 does (seen on the reference, 2026-11-26): the term anywhere in the row
// id, the document id, the locale and the searchable text attributes, and, when the term reads as a
// number, anywhere in the printed number attributes. Folio compared numbers by equality, so `_q=1`
// found one article where Strapi finds every id and view count with a 1 in it, and `_q=1.5` was a 500
// on PostgreSQL (an integer compared with 1.5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/app.js';

interface Article {
  id: number;
  documentId: string;
  title: string;
  views: number;
  score: number | null;
}

let t: TestApp;
const articles: Article[] = [];
const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'kappa', 'sigma', 'omega', 'theta', 'lambda', 'zeta', 'iota', 'rho', 'tau'];
beforeAll(async () => {
  t = await startTestApp();
  for (const [i, title] of WORDS.entries()) {
    const data = { title, slug: `s-${title}`, views: [7, 31, 4, 250, 8, 9, 3, 6, 2, 5, 4, 3, 2][i]!, score: i === 2 ? 1.5 : i === 5 ? 2.25 : null };
    const r = await t.request('POST', '/api/articles', { body: { data } });
    expect(r.status, r.text).toBe(201);
    articles.push({ id: r.body.data.id as number, documentId: r.body.data.documentId as string, title, views: data.views, score: data.score });
  }
  const fr = await t.request('PUT', `/api/articles/${articles[0]!.documentId}?locale=fr`, { body: { data: { title: 'premier', slug: 's-premier' } } });
  expect(fr.status, fr.text).toBe(200);
});
afterAll(async () => {
  await t.close();
});

async function titles(query: string): Promise<string[]> {
  const r = await t.get(`/api/articles?${query}&fields[0]=title&pagination[pageSize]=100`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data as { title: string }[]).map((a) => a.title).sort();
}

const expected = (match: (a: Article) => boolean): string[] =>
  articles
    .filter(match)
    .map((a) => a.title)
    .sort();

describe('_q', () => {
  it('finds a digit in the row ids and the number attributes, by their printed text', async () => {
    const found = await titles('_q=1');
    expect(found).toEqual(expected((a) => String(a.id).includes('1') || String(a.views).includes('1') || String(a.score ?? '').includes('1') || a.documentId.includes('1')));
    // the data makes sure this is more than an id's equality: 31 views, ids past 10
    expect(found).toContain('beta');
    expect(found.length).toBeGreaterThan(2);
  });

  it('finds a number with a fraction inside floats, and is a 200 on every dialect where numbers are integers too', async () => {
    expect(await titles('_q=1.5')).toEqual(['gamma']);
    expect(await titles('_q=.25')).toEqual(['sigma']);
    expect(await titles('_q=9999999999999999999999')).toEqual([]);
  });

  it('a term that is no number does not look into numbers', async () => {
    // "." reads as NaN: the floats 1.5 and 2.25 are not found by it
    expect(await titles('_q=.')).toEqual([]);
  });

  it('finds a piece of the document id', async () => {
    const target = articles[7]!;
    const piece = target.documentId.slice(3, 13);
    expect(await titles(`_q=${piece}`)).toEqual(expected((a) => a.documentId.includes(piece) || a.title.includes(piece)));
    expect(await titles(`_q=${piece}`)).toContain(target.title);
  });

  it('finds the locale: en finds every English version, fr the French one', async () => {
    expect(await titles('_q=en')).toEqual(expected(() => true));
    expect(await titles('_q=FR&locale=fr')).toEqual(['premier']);
    expect(await titles('_q=zz-no-match&locale=fr')).toEqual([]);
  });

  it('text attributes match without regard to case, with % and _ taken literally', async () => {
    expect(await titles('_q=LAMBDA')).toEqual(['lambda']);
    expect(await titles('_q=%25')).toEqual([]);
    expect(await titles('_q=s_')).toEqual([]);
    expect(await titles('_q=s-t')).toEqual(['tau', 'theta']);
  });

  it('is ANDed with filters', async () => {
    expect(await titles('_q=a&filters[views][$gt]=8')).toEqual(expected((a) => a.views > 8 && (a.title.includes('a') || a.documentId.includes('a'))));
  });

  it('a list or an object is refused, not dropped (which would answer the list unsearched); empty or valueless is no search', async () => {
    const refused = { data: null, error: { status: 400, name: 'ValidationError', message: 'Invalid _q parameter. Expected a string', details: { source: 'query', param: '_q' } } };
    for (const q of ['_q[0]=a', '_q[a]=a', '_q[]=a&_q[]=b']) {
      expect((await t.get(`/api/articles?${q}`)).body, q).toEqual(refused);
      expect((await t.get(`/api/upload/files?${q}`)).body, `files ${q}`).toEqual(refused);
    }
    expect(await titles('_q=')).toEqual(await titles(''));
    expect(await titles('_q')).toEqual(await titles(''));
  });
});
