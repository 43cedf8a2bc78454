// A file linked at the same place by an entry and by its components is listed under `related` in the
// same order on every dialect: the links a publish copies are written in one order everywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from './helpers.js';

let u: UploadApp;
let fileId: number;

beforeAll(async () => {
  u = await startUploadApp();
  const up = await u.upload([filePart(await png(8, 8), 'shared.png', 'image/png')]);
  expect(up.status).toBe(201);
  fileId = up.body[0].id;
  for (const title of ['One', 'Two']) {
    const data = {
      title,
      cover: fileId,
      seo: { metaTitle: `${title} seo`, shareImage: fileId, openGraph: { ogTitle: `${title} og`, ogImage: fileId } },
      blocks: [{ __component: 'shared.media', file: fileId }],
    };
    const r = await u.t.request('POST', '/api/articles', { body: { data } });
    expect(r.status, r.text).toBe(201);
  }
});
afterAll(async () => {
  await u.close();
});

describe('files populate=related across dialects', () => {
  it('lists an entry and its components in the order SQLite gives', async () => {
    const r = await u.t.get(`/api/upload/files/${fileId}?populate=related`);
    expect(r.status, r.text).toBe(200);
    const related = r.body.related as { __type: string; title?: string; metaTitle?: string }[];
    expect(related.map((e) => `${e.__type} ${e.title ?? ''}`.trim())).toEqual([
      'shared.open-graph',
      'shared.seo',
      'shared.media',
      'api::article.article One',
      'shared.open-graph',
      'shared.seo',
      'shared.media',
      'api::article.article Two',
    ]);
  });
});
