// A non-localized media attribute (article.cover) written in one locale goes to the other locales'
// rows of the status written, as non-localized scalars do: a draft write never changes what the
// published versions show. Each step below answered the same on the reference Strapi 5.54.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
let first: number;
let second: number;

beforeAll(async () => {
  u = await startUploadApp();
  const r = await u.upload([filePart(await png(4, 4), 'first.png', 'image/png'), filePart(await png(5, 5), 'second.png', 'image/png')]);
  expect(r.status, r.text).toBe(201);
  [first, second] = r.body.map((f: { id: number }) => f.id);
});
afterAll(async () => {
  await u.close();
});

it('a draft write of a shared media field changes the drafts only; a published write the published versions', async () => {
  const made = await u.t.request('POST', '/api/articles', { body: { data: { title: 'covered', cover: first } } });
  expect(made.status, made.text).toBe(201);
  const id = made.body.data.documentId as string;
  expect((await u.t.request('PUT', `/api/articles/${id}?locale=fr`, { body: { data: { title: 'couvert' } } })).status).toBe(200);
  const covers = async (): Promise<Record<string, string | null>> => {
    const out: Record<string, string | null> = {};
    for (const q of ['', 'status=draft', 'locale=fr', 'locale=fr&status=draft']) {
      const r = await u.t.get(`/api/articles/${id}?populate=cover&${q}`);
      out[q || 'published'] = (r.body.data.cover as { name: string } | null)?.name ?? null;
    }
    return out;
  };
  expect(await covers()).toEqual({ published: 'first.png', 'status=draft': 'first.png', 'locale=fr': 'first.png', 'locale=fr&status=draft': 'first.png' });
  expect((await u.t.request('PUT', `/api/articles/${id}?status=draft`, { body: { data: { cover: second } } })).status).toBe(200);
  expect(await covers()).toEqual({ published: 'first.png', 'status=draft': 'second.png', 'locale=fr': 'first.png', 'locale=fr&status=draft': 'second.png' });
  expect((await u.t.request('PUT', `/api/articles/${id}`, { body: { data: { cover: first } } })).status).toBe(200);
  expect(await covers()).toEqual({ published: 'first.png', 'status=draft': 'first.png', 'locale=fr': 'first.png', 'locale=fr&status=draft': 'second.png' });
});
