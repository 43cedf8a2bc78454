// One `filters` may step through relations, components, media and localizations at most
// MAX_FILTER_STEPS times in all. Each step is a subquery and `$or` repeats them: 100 alternatives
// twelve relations deep blocked a SQLite server for 12 s from one anonymous request.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_FILTER_STEPS } from '../../src/query/parse/filters.js';
import { startTestApp, type TestApp } from '../support/app.js';

const CYCLE = ['articles', 'tags', 'articles', 'categories'];

/** `$or` alternatives, each `depth` relations deep from tags, ending on the id */
function alternatives(count: number, depth: number): string {
  const path = Array.from({ length: depth }, (_, i) => `[${CYCLE[i % CYCLE.length]}]`).join('');
  return Array.from({ length: count }, (_, i) => `filters[$or][${i}]${path}[id][$eq]=${100000 + i}`).join('&');
}

const tooMany = (n: number, param = 'filters') => ({
  data: null,
  error: {
    status: 400,
    name: 'ValidationError',
    message: `filters may go through relations, components and media at most ${MAX_FILTER_STEPS} times in all (these go ${n} times)`,
    details: { source: 'query', param, limit: MAX_FILTER_STEPS },
  },
});

describe('filter steps', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('the attack (100 alternatives, 12 relations deep) is refused before any SQL runs, quickly', async () => {
    const before = t.dataStatements();
    const started = Date.now();
    const r = await t.get(`/api/tags?${alternatives(100, 12)}`);
    expect(r.body).toEqual(tooMany(1200));
    expect(t.dataStatements()).toBe(before);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it(`${MAX_FILTER_STEPS} steps are served, one more is refused`, async () => {
    const at = await t.get(`/api/tags?${alternatives(5, 5)}`);
    expect(at.status).toBe(200);
    expect(at.body.data).toEqual([]);
    expect((await t.get(`/api/tags?${alternatives(5, 5)}&filters[articles][id][$eq]=1`)).body).toEqual(tooMany(MAX_FILTER_STEPS + 1));
  });

  it('components, media, localizations and steps inside $not count too', async () => {
    const many = Array.from({ length: MAX_FILTER_STEPS + 1 }, (_, i) => {
      const kind = ['[seo][metaTitle][$eq]=x', '[cover][name][$eq]=x', '[localizations][title][$eq]=x', '[$not][author][name][$eq]=x'][i % 4];
      return `filters[$or][${i}]${kind}`;
    }).join('&');
    expect((await t.get(`/api/articles?${many}`)).body).toEqual(tooMany(MAX_FILTER_STEPS + 1));
  });

  it("a populated relation's filters count with the list's: each can't have a budget of its own", async () => {
    const r = await t.get(`/api/tags?${alternatives(5, 5)}&populate[articles][filters][$or][0][tags][label][$eq]=x`);
    // met inside the populate, it is that parameter's error
    expect(r.body).toEqual(tooMany(MAX_FILTER_STEPS + 1, 'populate'));
    // eight steps below each of three relations: 24 in all is served, two more below a fourth are not
    const spread = [
      ['categories', '[articles][tags]'],
      ['tags', '[articles][tags]'],
      ['related', '[tags][articles]'],
    ]
      .map(([rel, pair], i) => `populate[${rel}][filters][$or][0]${pair!.repeat(4)}[id][$eq]=${i}`)
      .join('&');
    expect((await t.get(`/api/articles?${spread}`)).status).toBe(200);
    expect((await t.get(`/api/articles?${spread}&populate[author][filters][articles][tags][id][$eq]=1`)).body).toEqual(tooMany(26, 'populate'));
  });
});
