// A non-localized media field written in one locale is written in the others, and their updatedAt
// moves with it, as for a shared scalar: Strapi 5.54's `publicationFilter=modified` then lists them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from '../upload/helpers.js';

let u: UploadApp;
let file: number;

beforeAll(async () => {
  u = await startUploadApp();
  const r = await u.upload([filePart(await png(4, 4), 'c.png', 'image/png')]);
  if (r.status !== 201) throw new Error(r.text);
  file = r.body[0].id;
});
afterAll(async () => {
  await u.close();
});

const updatedAt = async (doc: string, locale: string, status: string): Promise<string> =>
  (await u.t.get(`/api/articles/${doc}?locale=${locale}&status=${status}&fields[0]=updatedAt`)).body.data.updatedAt;

it('a draft write of a shared media field moves the other locales’ draft updatedAt, so publicationFilter=modified lists them', async () => {
  const en = await u.t.request('POST', '/api/articles', { body: { data: { title: 'N en', cover: file, gallery: [file] } } });
  expect(en.status, en.text).toBe(201);
  const doc = en.body.data.documentId;
  expect((await u.t.request('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { title: 'N fr' } } })).status).toBe(200);
  const before = await updatedAt(doc, 'en', 'draft');
  await new Promise((r) => setTimeout(r, 10));
  for (const data of [{ cover: null }, { gallery: [] }]) {
    const w = await u.t.request('PUT', `/api/articles/${doc}?locale=fr&status=draft`, { body: { data } });
    expect(w.status, w.text).toBe(200);
  }
  expect(await updatedAt(doc, 'en', 'draft')).not.toBe(before);
  const modified = await u.t.get(`/api/articles?status=draft&publicationFilter=modified&locale=*&filters[documentId][$eq]=${doc}&fields[0]=title&sort=title`);
  expect(modified.body.data.map((d: { title: string }) => d.title)).toEqual(['N en', 'N fr']);
});

it('a published write of a shared media field moves the other locales’ published updatedAt', async () => {
  const en = await u.t.request('POST', '/api/articles', { body: { data: { title: 'P en' } } });
  const doc = en.body.data.documentId;
  expect((await u.t.request('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { title: 'P fr' } } })).status).toBe(200);
  const before = await updatedAt(doc, 'en', 'published');
  await new Promise((r) => setTimeout(r, 10));
  expect((await u.t.request('PUT', `/api/articles/${doc}?locale=fr`, { body: { data: { cover: file } } })).status).toBe(200);
  expect(await updatedAt(doc, 'en', 'published')).not.toBe(before);
});
