// Populated lists come in the order they were set (the rows' `ord`), not in the order the database
// happens to store or return their rows: populate statements read links and entries unordered and
// order them afterwards, so a table whose rows were stored in another order must not show through.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { filePart, startUploadApp, type UploadApp } from '../upload/helpers.js';
import { writeDocument } from '../support/app.js';

let u: UploadApp;
let files: number[];
let tags: string[];
const articles: string[] = [];

/** Stores the rows of `table` that `where` selects again, in reverse id order and under new ids, with their values kept. */
async function storeReversed(table: string, where: string): Promise<void> {
  const db = u.t.app.database.db;
  const rows = (await sql<Record<string, unknown>>`select * from ${sql.table(table)} where ${sql.raw(where)} order by id desc`.execute(db)).rows;
  expect(rows.length).toBeGreaterThan(2);
  await db.transaction().execute(async (tx) => {
    await sql`delete from ${sql.table(table)} where ${sql.raw(where)}`.execute(tx);
    for (const { id: _id, ...row } of rows)
      await tx
        .insertInto(table as never)
        .values(row as never)
        .execute();
  });
}

beforeAll(async () => {
  u = await startUploadApp();
  const up = await u.upload(['a', 'b', 'c'].map((n, i) => filePart(Buffer.from(`${n}${i}`), `${n}.txt`, 'text/plain')));
  expect(up.status).toBe(201);
  files = (up.body as { id: number }[]).map((f) => f.id);
  tags = [];
  for (const name of ['t1', 't2', 't3']) tags.push(await writeDocument(u.t, 'POST', '/api/tags', { label: name }));
  for (const title of ['first', 'second'])
    articles.push(
      await writeDocument(u.t, 'POST', '/api/articles', {
        title,
        gallery: files,
        tags,
        blocks: [
          { __component: 'shared.rich-text', body: 'one' },
          { __component: 'shared.quote', title: 'two' },
          { __component: 'shared.rich-text', body: 'three' },
        ],
        seo: { metaTitle: 'seo', openGraph: { ogTitle: 'og' } },
      }),
    );
  await storeReversed('files_related_mph', "field = 'gallery'");
  await storeReversed('articles_tags_lnk', '1 = 1');
  await storeReversed('articles_cmps', "field = 'blocks'");
});
afterAll(async () => {
  await u.close();
});

const listed = (a: Record<string, unknown>) => ({
  gallery: (a['gallery'] as { id: number }[]).map((f) => files.indexOf(f.id)),
  tags: (a['tags'] as { documentId: string }[]).map((t) => tags.indexOf(t.documentId)),
  blocks: (a['blocks'] as { body?: string; title?: string }[]).map((b) => b.body ?? b.title),
});
const inSetOrder = { gallery: [0, 1, 2], tags: [0, 1, 2], blocks: ['one', 'two', 'three'] };

describe('populated lists stored out of order', () => {
  it('a list page shows each document’s media, relations and dynamic zone in the order they were set', async () => {
    const r = await u.t.get('/api/articles?populate[gallery]=true&populate[tags]=true&populate[blocks]=true&sort=id:asc');
    expect(r.status).toBe(200);
    expect(r.body.data.map((a: Record<string, unknown>) => listed(a))).toEqual([inSetOrder, inSetOrder]);
  });

  it('one document, populated with *, shows them in that order too', async () => {
    const r = await u.t.get(`/api/articles/${articles[1]}?populate=*`);
    expect(r.status).toBe(200);
    expect(listed(r.body.data)).toEqual(inSetOrder);
  });
});
