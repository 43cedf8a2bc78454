// A one-way relation from a type to itself (an article's `related`): publishing a document gives the
// published versions of the other documents whose drafts link it the links those drafts hold, as
// Strapi 5.54's self-referential sync does (compared side by side on PostgreSQL and SQLite) and as
// Folio already does for the mappedBy side of two-way relations.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, writeDocument, type TestApp } from '../support/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(async () => {
  await t?.close();
});

let n = 0;
const titlesOf = async (doc: string, status: 'draft' | 'published'): Promise<string[]> => {
  const r = await t.get(`/api/articles/${doc}?status=${status}&fields[0]=title&populate[related][fields][0]=title`);
  expect(r.status, r.text).toBe(200);
  return (r.body.data.related as { title: string }[]).map((a) => a.title);
};

it("publishing a draft-only article shows it in the published version of an article whose draft links it; the draft's other links wait for their own publish", async () => {
  const target = await writeDocument(t, 'POST', '/api/articles?status=draft', { title: `self target ${++n}` });
  const other = await writeDocument(t, 'POST', '/api/articles?status=draft', { title: `self other ${n}` });
  const owner = await writeDocument(t, 'POST', '/api/articles', { title: `self owner ${n}` });
  await writeDocument(t, 'PUT', `/api/articles/${owner}?status=draft`, { related: [target, other] });
  expect(await titlesOf(owner, 'published')).toEqual([]);
  await writeDocument(t, 'PUT', `/api/articles/${target}`, {});
  expect(await titlesOf(owner, 'published')).toEqual([`self target ${n}`]);
  expect(await titlesOf(owner, 'draft')).toEqual([`self target ${n}`, `self other ${n}`]);
});

it('re-publishing an article carries a link added by another article’s draft, and keeps the links that article’s published version had', async () => {
  const kept = await writeDocument(t, 'POST', '/api/articles', { title: `self kept ${++n}` });
  const target = await writeDocument(t, 'POST', '/api/articles', { title: `self target ${n}` });
  const owner = await writeDocument(t, 'POST', '/api/articles', { title: `self owner ${n}`, related: [kept] });
  await writeDocument(t, 'PUT', `/api/articles/${owner}?status=draft`, { related: { connect: [target] } });
  expect(await titlesOf(owner, 'published')).toEqual([`self kept ${n}`]);
  await writeDocument(t, 'PUT', `/api/articles/${target}`, {});
  expect(await titlesOf(owner, 'published')).toEqual([`self kept ${n}`, `self target ${n}`]);
});
