// PostgreSQL plans a prepared read once for all values (a generic plan) only while that plan doesn't
// look costlier than one made for the values. A list page bound `locale = $1` over a table where one
// locale holds most rows looked costlier generic, so it was planned again on every run; the locale
// (a configured code) is now written into the text (query/sql/key-literal.ts). A LIKE pattern, whose
// plan depends on it, is written in too where it can be (dialects/postgres-pattern-literal.ts): each
// pattern gets a prepared statement of its own instead of being parsed and planned on every run.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_REST, writeDocument, type TestApp } from '../support/app.js';
import { testClient } from '../support/database.js';

describe.skipIf(testClient() !== 'postgres')('PostgreSQL plans of repeated reads', () => {
  let t: TestApp;
  beforeAll(async () => {
    // every request runs its statements: no cached bodies
    t = await startTestApp({ rest: { ...TEST_REST, responseCache: false } });
    for (const title of ['first', "O'Brien's notes", 'a back\\slash path', 'Sample 100%', 'Café 日本 🎉 costs $1', 'under_score']) {
      await writeDocument(t, 'POST', '/api/articles?status=published', { title });
    }
    // rows as wide as real articles and many enough that the planner's estimates, not its fixed costs,
    // decide; 4 in 5 rows English, half of them drafts
    await sql`insert into articles (document_id, locale, published_at, title, summary, created_at, updated_at)
      select 'bulk' || g, case when g % 5 = 0 then 'fr' else 'en' end, case when g % 2 = 0 then now() end, 'bulk ' || g, repeat('x', 900), now(), now()
      from generate_series(1, 3000) as g`.execute(t.app.database.db);
    await sql`analyze articles`.execute(t.app.database.db);
  });
  afterAll(async () => t?.close());

  it('a list page is planned once per read connection, not on every run', async () => {
    for (let i = 0; i < 16; i++) {
      const r = await t.get('/api/articles?fields[0]=title');
      expect(r.status).toBe(200);
      expect(r.body.data).toHaveLength(25);
      expect(r.body.meta.pagination.total).toBe(1206);
    }
    const page = '%from "articles" as "r" where%order by "r"."id" asc limit 25';
    type Held = { pid: number; generic: number; custom: number };
    const byConnection = new Map<number, Held>();
    // each turn's statements go to the next read connection: ask every one of them (at most four)
    for (let i = 0; i < 8; i++) {
      const r = await t.app.database.recordReads((d) =>
        sql<Held>`select pg_backend_pid() as pid, generic_plans::int as generic, custom_plans::int as custom from pg_prepared_statements where statement like ${page}`.execute(
          d.db,
        ),
      );
      for (const h of r.value.rows) byConnection.set(h.pid, h);
    }
    const held = [...byConnection.values()];
    expect(held.length).toBeGreaterThan(0);
    const runs = held.reduce((n, h) => n + h.generic + h.custom, 0);
    expect(runs).toBeGreaterThanOrEqual(16);
    // PostgreSQL makes custom plans for a statement's first five runs before it weighs a generic one
    for (const h of held) expect(h.custom).toBeLessThanOrEqual(5);
  });

  type Prepared = { pid: number; statement: string };
  /** the statements prepared on the read connections whose text contains `fragment` */
  async function prepared(fragment: string): Promise<Prepared[]> {
    const byConnection = new Map<string, Prepared>();
    for (let i = 0; i < 8; i++) {
      const r = await t.app.database.recordReads((d) =>
        sql<Prepared>`select pg_backend_pid() as pid, statement from pg_prepared_statements where position(${fragment} in statement) > 0`.execute(d.db),
      );
      for (const h of r.value.rows) byConnection.set(`${h.pid} ${h.statement}`, h);
    }
    return [...byConnection.values()];
  }
  const titles = async (filter: string): Promise<string[]> => {
    const r = await t.get(`/api/articles?${filter}&fields[0]=title&sort=title`);
    expect(r.status).toBe(200);
    return (r.body.data as { title: string }[]).map((a) => a.title);
  };

  it('a $containsi pattern is a prepared statement of its own: repeated, it is not planned again', async () => {
    for (let i = 0; i < 3; i++) expect(await titles('filters[title][$containsi]=O%20BRIEN')).toEqual([]);
    for (let i = 0; i < 3; i++) expect(await titles('filters[title][$containsi]=FIRST')).toEqual(['first']);
    for (let i = 0; i < 3; i++) expect(await titles('filters[title][$contains]=100%25')).toEqual(['Sample 100%']);
    expect((await prepared("ilike '%FIRST%'")).length).toBeGreaterThan(0);
    expect((await prepared("like '%100!%%'")).length).toBeGreaterThan(0);
  });

  it('a written-in pattern matches as a bound one would: non-ASCII text, a $1 in the text, LIKE wildcards taken literally', async () => {
    expect(await titles('filters[title][$containsi]=CAF%C3%89%20%E6%97%A5%E6%9C%AC%20%F0%9F%8E%89')).toEqual(['Café 日本 🎉 costs $1']);
    expect(await titles('filters[title][$endsWith]=%241')).toEqual(['Café 日本 🎉 costs $1']);
    expect(await titles('filters[title][$contains]=r_s')).toEqual(['under_score']);
    expect(await titles('filters[title][$containsi]=%25')).toEqual(['Sample 100%']);
    expect(await titles('filters[title][$notContainsi]=e')).not.toContain('Sample 100%');
    expect((await prepared("like '%$1' escape")).length).toBeGreaterThan(0);
  });

  it('a pattern holding a quote or a backslash is bound, matches exactly, and is never held as a prepared statement', async () => {
    expect(await titles("filters[title][$containsi]=o'brien")).toEqual(["O'Brien's notes"]);
    expect(await titles("filters[title][$contains]=n's%20n")).toEqual(["O'Brien's notes"]);
    expect(await titles('filters[title][$containsi]=K%5CSLASH')).toEqual(['a back\\slash path']);
    expect(await titles("filters[title][$containsi]=x'%20or%20'1'%3D'1")).toEqual([]);
    expect(await titles("filters[title][$containsi]=x'%3B%20drop%20table%20articles%3B%20--")).toEqual([]);
    expect(await titles('filters[title][$containsi]=first')).toEqual(['first']);
    expect(await prepared('brien')).toEqual([]);
    expect(await prepared('slash')).toEqual([]);
    expect(await prepared('drop table')).toEqual([]);
  });
});
