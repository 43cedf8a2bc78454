import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, field, filePart, png, startUploadApp, type UploadApp } from './helpers.js';
import { exampleWith } from '../support/example-with.js';

let u: UploadApp;
beforeAll(async () => {
  u = await startUploadApp();
});
afterAll(async () => {
  await u.close();
});

async function article(title: string): Promise<{ id: number; documentId: string }> {
  const r = await u.t.request('POST', '/api/articles', { body: { data: { title } } });
  expect(r.status).toBe(201);
  return { id: r.body.data.id, documentId: r.body.data.documentId };
}

function link(ref: string, refId: string | number, name: string) {
  return [field('ref', ref), field('refId', String(refId)), field('field', name)];
}

function withoutSigned(f: Record<string, unknown>): Record<string, unknown> {
  const { isUrlSigned: _drop, ...rest } = f;
  return rest;
}

async function fileCount(): Promise<number> {
  const r = await u.t.app.database.db
    .selectFrom('files')
    .select((eb) => eb.fn.countAll().as('c'))
    .executeTakeFirstOrThrow();
  return Number(r.c);
}

describe('linking an upload to an entry (ref, refId, field)', () => {
  it('a single media attribute gets the file, and a later upload replaces it', async () => {
    const a = await article('With cover');
    const up = await u.upload([filePart(await png(400, 300), 'cover.png', 'image/png'), ...link('api::article.article', a.id, 'cover')]);
    expect(up.status).toBe(201);
    const r = await u.t.get(`/api/articles/${a.documentId}?populate=cover`);
    expect(r.status).toBe(200);
    // populated media are the same file objects, without isUrlSigned (as Strapi)
    expect(r.body.data.cover).toEqual(withoutSigned(up.body[0]));
    const second = await u.upload([filePart(await png(50, 50), 'other.png', 'image/png'), ...link('api::article.article', a.id, 'cover')]);
    const again = await u.t.get(`/api/articles/${a.documentId}?populate=cover`);
    expect(again.body.data.cover.id).toBe(second.body[0].id);
  });

  it("a component's media field is linked through the component's uid and row id, a nested one too, as Strapi 5.54 links it", async () => {
    const r = await u.t.request('POST', '/api/articles?status=draft&populate[seo][populate]=*', {
      body: { data: { title: 'Seo art', seo: { metaTitle: 'm', openGraph: { ogTitle: 'x' } } } },
    });
    expect(r.status, r.text).toBe(201);
    const { documentId } = r.body.data as { documentId: string };
    const seo = r.body.data.seo as { id: number; openGraph: { id: number } };
    const share = await u.upload([filePart(await png(20, 20), 'c1.png', 'image/png'), ...link('shared.seo', seo.id, 'shareImage')]);
    expect(share.status, JSON.stringify(share.body)).toBe(201);
    const og = await u.upload([filePart(await png(20, 20), 'c2.png', 'image/png'), ...link('shared.open-graph', seo.openGraph.id, 'ogImage')]);
    expect(og.status, JSON.stringify(og.body)).toBe(201);
    const read = await u.t.get(
      `/api/articles/${documentId}?status=draft&populate[seo][populate][shareImage][fields][0]=name&populate[seo][populate][openGraph][populate][ogImage][fields][0]=name`,
    );
    expect(read.body.data.seo.shareImage.name).toBe('c1.png');
    expect(read.body.data.seo.openGraph.ogImage.name).toBe('c2.png');
    const before = await fileCount();
    const missing = await u.upload([filePart(await png(20, 20), 'c3.png', 'image/png'), ...link('shared.seo', 999999, 'shareImage')]);
    expect(missing.body).toEqual(errorOf(400, 'ValidationError', 'refId "999999" does not match any entry of shared.seo'));
    expect(await fileCount()).toBe(before);
  });

  it('a multiple media attribute gets the files in part order, and later uploads are appended', async () => {
    const a = await article('With gallery');
    const first = await u.upload([
      filePart(await png(30, 30), 'g1.png', 'image/png'),
      filePart(await png(40, 40), 'g2.png', 'image/png'),
      ...link('api::article.article', a.id, 'gallery'),
    ]);
    expect(first.status).toBe(201);
    const more = await u.upload([filePart(await png(20, 20), 'g3.png', 'image/png'), ...link('article', a.id, 'gallery')]);
    expect(more.status).toBe(201);
    const r = await u.t.get(`/api/articles/${a.documentId}?populate=gallery`);
    expect(r.body.data.gallery.map((f: { name: string }) => f.name)).toEqual(['g1.png', 'g2.png', 'g3.png']);
    expect(r.body.data.gallery[0]).toEqual(withoutSigned(first.body[0]));
  });

  it('a documentId as refId links every row of the document (draft and published)', async () => {
    const a = await article('By documentId');
    const up = await u.upload([filePart(await png(30, 30), 'doc.png', 'image/png'), ...link('api::article.article', a.documentId, 'cover')]);
    expect(up.status).toBe(201);
    const published = await u.t.get(`/api/articles/${a.documentId}?populate=cover`);
    const draft = await u.t.get(`/api/articles/${a.documentId}?populate=cover&status=draft`);
    expect(published.body.data.cover.id).toBe(up.body[0].id);
    expect(draft.body.data.cover.id).toBe(up.body[0].id);
  });

  it('a numeric refId links that row only', async () => {
    const a = await article('One row');
    const draft = await u.t.get(`/api/articles/${a.documentId}?status=draft`);
    expect(draft.body.data.id).not.toBe(a.id);
    await u.upload([filePart(await png(30, 30), 'row.png', 'image/png'), ...link('api::article.article', a.id, 'cover')]);
    expect((await u.t.get(`/api/articles/${a.documentId}?populate=cover`)).body.data.cover).not.toBeNull();
    expect((await u.t.get(`/api/articles/${a.documentId}?populate=cover&status=draft`)).body.data.cover).toBeNull();
  });

  describe('bad link targets are 400s and store nothing', () => {
    const cases: [string, () => Promise<ReturnType<typeof field>[]>, string][] = [
      ['unknown ref', async () => link('api::nope.nope', 1, 'cover'), 'ref "api::nope.nope" is not a content type'],
      ['the file type itself', async () => link('plugin::upload.file', 1, 'name'), 'ref "plugin::upload.file" is not a content type'],
      ['unknown field', async () => link('api::article.article', (await article('x1')).id, 'nope'), 'field "nope" is not an attribute of api::article.article'],
      ['non-media field', async () => link('api::article.article', (await article('x2')).id, 'title'), 'field "title" of api::article.article is not a media attribute'],
      ['relation field', async () => link('api::article.article', (await article('x3')).id, 'author'), 'field "author" of api::article.article is not a media attribute'],
      ['missing refId', async () => [field('ref', 'api::article.article'), field('field', 'cover')], 'ref, refId and field must all be given to link the upload to an entry'],
      ['unknown row id', async () => link('api::article.article', 999999, 'cover'), 'refId "999999" does not match any entry of api::article.article'],
      ['unknown documentId', async () => link('api::article.article', 'nosuchdocumentid', 'cover'), 'refId "nosuchdocumentid" does not match any entry of api::article.article'],
      ['a row id past 32 bits', async () => link('api::article.article', '99999999999', 'cover'), 'refId "99999999999" does not match any entry of api::article.article'],
      ['U+0000 in a documentId', async () => link('api::article.article', 'a\u0000b', 'cover'), 'refId "a\u0000b" does not match any entry of api::article.article'],
    ];
    for (const [label, fields, message] of cases) {
      it(label, async () => {
        const before = await fileCount();
        const onDisk = readdirSync(u.uploadsDir).length;
        const r = await u.upload([filePart(await png(300, 300), 'bad.png', 'image/png'), ...(await fields())]);
        expect(r.status).toBe(400);
        expect(r.body).toEqual(errorOf(400, 'ValidationError', message));
        expect(await fileCount()).toBe(before);
        expect(readdirSync(u.uploadsDir)).toHaveLength(onDisk);
      });
    }

    it('several files for a single media attribute', async () => {
      const a = await article('two covers');
      const r = await u.upload([filePart('a', 'a.txt', 'text/plain'), filePart('b', 'b.txt', 'text/plain'), ...link('api::article.article', a.id, 'cover')]);
      expect(r.status).toBe(400);
      expect(r.body).toEqual(errorOf(400, 'ValidationError', 'field "cover" of api::article.article holds a single file: upload one file to link it'));
    });
  });

  it("uploads linking one entry at once wait for one another: a single field ends with one file, a list's positions don't repeat, a component's too", async () => {
    const r = await u.t.request('POST', '/api/articles?status=draft&populate=seo', { body: { data: { title: 'Raced', seo: { metaTitle: 'r' } } } });
    const { id, documentId } = r.body.data as { id: number; documentId: string };
    const seoId = r.body.data.seo.id as number;
    const one = async (ref: string, refId: number, name: string, i: number) => u.upload([filePart(`f${i}`, `f${i}.txt`, 'text/plain'), ...link(ref, refId, name)]);
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => [
        one('api::article.article', id, 'cover', i),
        one('api::article.article', id, 'gallery', i),
        one('shared.seo', seoId, 'shareImage', i),
      ]).flat(),
    );
    expect(answers.map((a) => a.status).filter((st) => st !== 201)).toEqual([]);
    const links = async (type: string, rowId: number, field: string) =>
      (
        await u.t.app.database.db
          .selectFrom('files_related_mph')
          .select(['ord'])
          .where('related_type', '=', type)
          .where('related_id', '=', rowId)
          .where('field', '=', field)
          .execute()
      ).map((l) => Number(l.ord));
    expect(await links('api::article.article', id, 'cover')).toHaveLength(1);
    expect(await links('shared.seo', seoId, 'shareImage')).toHaveLength(1);
    const positions = await links('api::article.article', id, 'gallery');
    expect(positions).toHaveLength(12);
    expect(new Set(positions).size).toBe(12);
    const read = await u.t.get(`/api/articles/${documentId}?status=draft&populate[0]=gallery&populate[1]=cover`);
    expect(read.body.data.gallery).toHaveLength(12);
  });

  it('linking needs the update permission of the target type: 403 without it, nothing stored', async () => {
    const a = await article('Guarded');
    const uploadOnly = await u.t.tokenOf('custom', ['plugin::upload.content-api.upload']);
    const before = await fileCount();
    const r = await u.upload([filePart('x', 'x.txt', 'text/plain'), ...link('api::article.article', a.id, 'cover')], { token: uploadOnly });
    expect(r.status).toBe(403);
    expect(r.body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    expect(await fileCount()).toBe(before);
    const both = await u.t.tokenOf('custom', ['plugin::upload.content-api.upload', 'api::article.article.update']);
    const ok = await u.upload([filePart('x', 'x.txt', 'text/plain'), ...link('api::article.article', a.id, 'cover')], { token: both });
    expect(ok.status).toBe(201);
    // a component's row is its entry's: linking into it needs the update permission of the entry's type
    const withSeo = await u.t.request('POST', '/api/articles?populate=seo', { body: { data: { title: 'Guarded seo', seo: { metaTitle: 'g' } } } });
    const seoId = withSeo.body.data.seo.id as number;
    const refused = await u.upload([filePart('x', 'x.txt', 'text/plain'), ...link('shared.seo', seoId, 'shareImage')], { token: uploadOnly });
    expect(refused.body).toEqual(errorOf(403, 'ForbiddenError', 'Forbidden'));
    expect(await fileCount()).toBe(before + 1);
    expect((await u.upload([filePart('x', 'x.txt', 'text/plain'), ...link('shared.seo', seoId, 'shareImage')], { token: both })).status).toBe(201);
  });

  it('deleting a linked file removes it from the entry', async () => {
    const a = await article('Unlinked');
    const up = await u.upload([filePart('x', 'x.txt', 'text/plain'), ...link('api::article.article', a.id, 'cover')]);
    expect((await u.t.request('DELETE', `/api/upload/files/${up.body[0].id}`)).status).toBe(200);
    expect((await u.t.get(`/api/articles/${a.documentId}?populate=cover`)).body.data.cover).toBeNull();
  });
});

describe('linking to a plugin model: ref names the model, source its plugin', () => {
  let p: UploadApp;
  let project: ReturnType<typeof exampleWith>;
  beforeAll(async () => {
    project = exampleWith({
      'src/extensions/users-permissions/content-types/user/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'up_users',
        info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
        attributes: { avatar: { type: 'media', multiple: false, allowedTypes: ['images'] } },
      }),
    });
    p = await startUploadApp({}, { dir: project.dir });
  });
  afterAll(async () => {
    await p?.close();
    project?.remove();
  });

  it('ref=user with source=users-permissions links the file to that user; without source, ref=user is no content type', async () => {
    const user = await p.t.request('POST', '/api/users', { body: { username: 'pictured', email: 'pictured@example.com', password: 'secret123' } });
    expect(user.status, user.text).toBe(201);
    const up = await p.upload([filePart(await png(20, 20), 'face.png', 'image/png'), ...link('user', user.body.id, 'avatar'), field('source', 'users-permissions')]);
    expect(up.status, up.text).toBe(201);
    const read = await p.t.get(`/api/users/${user.body.id as number}?populate=avatar`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.avatar).toMatchObject({ id: up.body[0].id, name: 'face.png' });
    const unsourced = await p.upload([filePart(await png(20, 20), 'none.png', 'image/png'), ...link('user', user.body.id, 'avatar')]);
    expect(unsourced.status).toBe(400);
    expect(unsourced.body).toEqual(errorOf(400, 'ValidationError', 'ref "user" is not a content type'));
  });
});
