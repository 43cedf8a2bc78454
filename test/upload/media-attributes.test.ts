// Media attributes written through the content API with file ids, in components too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filePart, png, startUploadApp, type UploadApp } from './helpers.js';
import { statementCosts } from '../support/statements.js';

let u: UploadApp;
const files: { id: number; documentId: string; name: string }[] = [];

beforeAll(async () => {
  u = await startUploadApp();
  for (let i = 0; i < 3; i++) {
    const r = await u.upload([filePart(await png(10 + i, 10), `m${i}.png`, 'image/png')]);
    files.push(r.body[0]);
  }
});
afterAll(async () => {
  await u.close();
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function createArticle(data: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return u.t.request('POST', '/api/articles', { body: { data: { title: 'media', ...data } } });
}

describe('media attributes through the content API', () => {
  it('single and multiple media take file ids or documentIds and populate as full file objects, in order', async () => {
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const r = await createArticle({ cover: a.id, gallery: [c.documentId, a.id, b.id] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const g = await u.t.get(`/api/articles/${r.body.data.documentId}?populate[0]=cover&populate[1]=gallery`);
    expect(g.body.data.cover).toMatchObject({ id: a.id, name: 'm0.png', mime: 'image/png', url: expect.stringMatching(/^\/uploads\//) });
    expect(g.body.data.gallery.map((f: { id: number }) => f.id)).toEqual([c.id, a.id, b.id]);
    const cleared = await u.t.request('PUT', `/api/articles/${r.body.data.documentId}`, { body: { data: { cover: null, gallery: [] } } });
    expect(cleared.status).toBe(200);
    const after = await u.t.get(`/api/articles/${r.body.data.documentId}?populate[0]=cover&populate[1]=gallery`);
    expect(after.body.data.cover).toBeNull();
    expect(after.body.data.gallery).toEqual([]);
  });

  it("files shared across a page appear whole under every document that links them, in each one's order", async () => {
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const one = await createArticle({ title: 'shared-media', cover: a.id, gallery: [b.id, a.id, c.id] });
    const two = await createArticle({ title: 'shared-media', cover: a.id, gallery: [c.id, b.id] });
    expect([one.status, two.status]).toEqual([201, 201]);
    const list = await u.t.get('/api/articles?filters[title][$eq]=shared-media&sort=id:asc&populate[0]=cover&populate[1]=gallery');
    expect(list.status).toBe(200);
    const [x, y] = list.body.data;
    expect(x.cover).toMatchObject({ id: a.id, name: 'm0.png', url: expect.stringMatching(/^\/uploads\//) });
    expect(y.cover).toEqual(x.cover);
    expect(x.gallery.map((f: { id: number }) => f.id)).toEqual([b.id, a.id, c.id]);
    expect(y.gallery.map((f: { id: number }) => f.id)).toEqual([c.id, b.id]);
    expect(y.gallery[1]).toEqual(x.gallery[0]);
    expect(x.gallery[0]).toMatchObject({ name: 'm1.png', mime: 'image/png' });
    // links, then the files they name: as many statements for one document as for two
    const page = (size: number): string => `/api/articles?filters[title][$eq]=shared-media&sort=id:asc&populate[0]=cover&populate[1]=gallery&pagination[pageSize]=${size}`;
    expect((await u.t.get(page(2))).body.data).toHaveLength(2);
    const [forOne, forTwo] = await statementCosts(u.t, [page(1), page(2)]);
    expect(forTwo).toBe(forOne);
  });

  it('the media attributes of one populate level are read together: two cost the statements one does, files named by both read once', async () => {
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    const one = await createArticle({ title: 'media-level', cover: b.id, gallery: [c.id, b.id] });
    const two = await createArticle({ title: 'media-level', cover: a.id, gallery: [] });
    expect([one.status, two.status]).toEqual([201, 201]);
    const q = '/api/articles?filters[title][$eq]=media-level&sort=id:asc';
    const both = await u.t.get(`${q}&populate[0]=cover&populate[1]=gallery`);
    expect(both.body.data.map((d: { cover: { id: number } }) => d.cover.id)).toEqual([b.id, a.id]);
    expect(both.body.data.map((d: { gallery: { id: number }[] }) => d.gallery.map((f) => f.id))).toEqual([[c.id, b.id], []]);
    expect(both.body.data[0].gallery[1]).toEqual(both.body.data[0].cover);
    // other fields per attribute: a statement of their own for each field list, the links still together
    const fields = await u.t.get(`${q}&populate[cover][fields][0]=name&populate[gallery][fields][0]=mime`);
    expect(fields.body.data[0].cover).toEqual({ id: b.id, documentId: b.documentId, name: 'm1.png' });
    expect(fields.body.data[0].gallery).toEqual([
      { id: c.id, documentId: c.documentId, mime: 'image/png' },
      { id: b.id, documentId: b.documentId, mime: 'image/png' },
    ]);
    const [cover, coverAndGallery, split] = await statementCosts(u.t, [
      `${q}&populate[0]=cover`,
      `${q}&populate[0]=cover&populate[1]=gallery`,
      `${q}&populate[cover][fields][0]=name&populate[gallery][fields][0]=mime`,
    ]);
    expect(coverAndGallery).toBe(cover);
    expect(split).toBe(cover! + 1);
  });

  it('a populated file object sent back as the value keeps that file', async () => {
    const r = await createArticle({ cover: files[1]!.id });
    const read = await u.t.get(`/api/articles/${r.body.data.documentId}?populate=cover`);
    const back = await u.t.request('PUT', `/api/articles/${r.body.data.documentId}`, { body: { data: { cover: read.body.data.cover } } });
    expect(back.status, back.text).toBe(200);
    expect((await u.t.get(`/api/articles/${r.body.data.documentId}?populate=cover`)).body.data.cover.id).toBe(files[1]!.id);
  });

  it('a new locale version shares the non-localized media of the document', async () => {
    const r = await createArticle({ cover: files[2]!.id, gallery: [files[0]!.id] });
    const id = r.body.data.documentId;
    const fr = await u.t.request('PUT', `/api/articles/${id}?locale=fr`, { body: { data: { title: 'Média' } } });
    expect(fr.status, fr.text).toBe(200);
    const g = await u.t.get(`/api/articles/${id}?locale=fr&populate[0]=cover&populate[1]=gallery`);
    expect(g.body.data.cover.id).toBe(files[2]!.id);
    expect(g.body.data.gallery.map((f: { id: number }) => f.id)).toEqual([files[0]!.id]);
  });

  it('media inside components and dynamic-zone entries', async () => {
    const [a, b] = files as [(typeof files)[0], (typeof files)[0]];
    const r = await createArticle({ seo: { metaTitle: 'm', shareImage: a.id, openGraph: { ogImage: b.id } }, blocks: [{ __component: 'shared.slider', files: [b.id, a.id] }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const g = await u.t.get(`/api/articles/${r.body.data.documentId}?populate[seo][populate]=*&populate[blocks][on][shared.slider][populate]=files`);
    expect(g.body.data.seo.shareImage.id).toBe(a.id);
    expect(g.body.data.blocks[0].files.map((f: { id: number }) => f.id)).toEqual([b.id, a.id]);
  });

  it('connect on a media attribute is a 400, not silently ignored', async () => {
    const r = await createArticle({ gallery: { connect: [files[0]!.id] } });
    expect(r.status).toBe(400);
    expect(r.body.error).toEqual({ status: 400, name: 'ValidationError', message: 'connect is not supported for media attributes (gallery): send the file ids', details: {} });
  });

  it('a file named twice is linked once, where it is first named; a missing one named twice counts once (as Strapi 5.54)', async () => {
    const [a, b] = files as [(typeof files)[0], (typeof files)[0]];
    const r = await createArticle({ gallery: [a.id, a.id, b.id, a.documentId], blocks: [{ __component: 'shared.slider', files: [b.id, b.id] }] });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const g = await u.t.get(`/api/articles/${r.body.data.documentId}?populate[gallery]=true&populate[blocks][populate]=*`);
    expect(g.body.data.gallery.map((f: { id: number }) => f.id)).toEqual([a.id, b.id]);
    expect(g.body.data.blocks[0].files.map((f: { id: number }) => f.id)).toEqual([b.id]);
    const missing = await createArticle({ gallery: [999998, 999998, a.id] });
    expect(missing.body.error.message).toBe('1 relation(s) of type plugin::upload.file associated with this entity do not exist');
  });

  it('an unknown file id is a 400 and nothing is written', async () => {
    const before = (await u.t.get('/api/articles?status=draft')).body.meta.pagination.total;
    const r = await createArticle({ cover: 999999 });
    expect(r.status).toBe(400);
    expect(r.body.error.message).toBe('1 relation(s) of type plugin::upload.file associated with this entity do not exist');
    expect((await u.t.get('/api/articles?status=draft')).body.meta.pagination.total).toBe(before);
  });

  it('eight articles created naming a cover while the file is deleted: each links it or is refused, and no link to the deleted file is left (4 rounds)', async () => {
    for (let round = 0; round < 4; round++) {
      const up = await u.upload([filePart(`doomed ${round}`, `doomed${round}.txt`, 'text/plain')]);
      const file = up.body[0] as { id: number; documentId: string };
      const [gone, ...made] = await Promise.all([
        u.t.request('DELETE', `/api/upload/files/${file.id}`),
        ...Array.from({ length: 8 }, (_, i) => createArticle({ title: `cover race ${round}-${i}`, cover: i % 2 ? file.id : file.documentId })),
      ]);
      expect(gone!.status, JSON.stringify(gone!.body)).toBe(200);
      for (const [i, r] of made.entries()) {
        if (r.status === 201) continue;
        expect(r.status, JSON.stringify(r.body)).toBe(400);
        expect(r.body.error.message).toBe(
          i % 2 ? '1 relation(s) of type plugin::upload.file associated with this entity do not exist' : `Document with id "${file.documentId}", locale "null" not found`,
        );
      }
      const links = await u.t.app.database.db.selectFrom('files_related_mph').select('id').where('file_id', '=', file.id).execute();
      expect(links).toHaveLength(0);
    }
  });

  it('a publish or a new locale version racing the delete of a file the draft links: no link to the deleted file is left (8 rounds)', async () => {
    for (let round = 0; round < 8; round++) {
      const up = await Promise.all([0, 1, 2].map((i) => u.upload([filePart(`copied ${round}.${i}`, `copied${round}-${i}.txt`, 'text/plain')])));
      const [f0, f1, f2] = up.map((r) => r.body[0] as { id: number });
      const draft = await u.t.request('POST', '/api/articles?status=draft', { body: { data: { title: `copy race ${round}`, cover: f1!.id, gallery: [f0!.id, f1!.id, f2!.id] } } });
      expect(draft.status).toBe(201);
      const doc = draft.body.data.documentId as string;
      const write = round % 2 ? `/api/articles/${doc}?status=published` : `/api/articles/${doc}?locale=fr&status=published`;
      const [written, gone] = await Promise.all([
        u.t.request('PUT', write, { body: { data: { title: `copy race ${round}` } } }),
        u.t.request('DELETE', `/api/upload/files/${f1!.id}`),
      ]);
      expect(written.status, JSON.stringify(written.body)).toBe(200);
      expect(gone.status).toBe(200);
      const links = await u.t.app.database.db.selectFrom('files_related_mph').select('id').where('file_id', '=', f1!.id).execute();
      expect(links, `round ${round}`).toHaveLength(0);
    }
  });

  it('the files of many zone entries and components are looked up together: more entries cost no more lookups', async () => {
    const [a, b, c] = files as [(typeof files)[0], (typeof files)[0], (typeof files)[0]];
    // each entry's own lookup was a statement per entry: 10,000 of them for a zone of 10,000 media entries.
    // The same entries holding no file are the measure: what 60 entries cost beyond 3 (their rows: on
    // SQLite, and on MySQL for rows without columns, an insert each) must be no more with files in them
    const blocks = (n: number, media: boolean) =>
      Array.from({ length: n }, (_, i) =>
        i % 2 ? { __component: 'shared.media', file: media ? [a, b, c][i % 3]!.id : null } : { __component: 'shared.slider', files: media ? [c.documentId, a.id] : [] },
      );
    const cost = async (n: number, media: boolean): Promise<[number, string]> => {
      const before = u.t.dataStatements();
      // a draft: publishing copies the rows, on SQLite and MySQL a statement per component row, media or not
      const r = await u.t.request('POST', '/api/articles?status=draft', {
        body: { data: { title: 'media', blocks: blocks(n, media), seo: { metaTitle: 'm', shareImage: b.id, openGraph: { ogImage: c.id } } } },
      });
      expect(r.status, JSON.stringify(r.body)).toBe(201);
      return [u.t.dataStatements() - before, r.body.data.documentId];
    };
    const [plainFew] = await cost(3, false);
    const [plainMany] = await cost(60, false);
    const [mediaFew] = await cost(3, true);
    const [mediaMany, many] = await cost(60, true);
    expect(mediaMany - mediaFew).toBe(plainMany - plainFew);
    const g = await u.t.get(
      `/api/articles/${many}?status=draft&populate[blocks][on][shared.media][populate]=file&populate[blocks][on][shared.slider][populate]=files&populate[seo][populate]=*`,
    );
    expect(g.status, g.text).toBe(200);
    expect(g.body.data.blocks).toHaveLength(60);
    expect(g.body.data.blocks[1].file.id).toBe(b.id);
    expect(g.body.data.blocks[2].files.map((f: { id: number }) => f.id)).toEqual([c.id, a.id]);
    expect(g.body.data.seo.shareImage.id).toBe(b.id);
    // a missing file is still the 400 naming its count, whichever entry holds it
    const missing = await createArticle({
      blocks: [
        { __component: 'shared.media', file: a.id },
        { __component: 'shared.slider', files: [b.id, 999999, 999998] },
      ],
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('2 relation(s) of type plugin::upload.file associated with this entity do not exist');
  });
});
