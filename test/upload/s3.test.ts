// The S3 provider against a real S3-compatible server (s3rver) on 127.0.0.1: public and private
// buckets, signed URLs that expire, object paths, deletion of every stored object.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, fetchAll, field, filePart, png, startUploadApp, type UploadApp } from './helpers.js';
import { EXAMPLE_DIR, TEST_REST } from '../support/app.js';
import { writeFiles } from '../schema/write-files.js';

let server: S3rver;
let dir: string;
let endpoint: string;
let client: S3Client;

const credentials = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };

function s3Env(bucket: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    UPLOAD_PROVIDER: 's3',
    S3_ENDPOINT: endpoint,
    S3_BUCKET: bucket,
    S3_REGION: 'us-east-1',
    S3_ACCESS_KEY_ID: credentials.accessKeyId,
    S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    S3_FORCE_PATH_STYLE: 'true',
    ...extra,
  };
}

async function keys(bucket: string): Promise<string[]> {
  const r = await client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (r.Contents ?? []).map((o) => o.Key ?? '').sort();
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'folio-s3rver-'));
  server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory: dir,
    configureBuckets: [
      { name: 'folio-private', configs: [] },
      { name: 'folio-public', configs: [] },
    ],
  });
  const address = await server.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  client = new S3Client({ endpoint, region: 'us-east-1', forcePathStyle: true, credentials });
});

afterAll(async () => {
  client?.destroy();
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('a private bucket', () => {
  let u: UploadApp;
  // the response cache on every dialect (MySQL has it off by default): a stored body must not outlive its signatures
  beforeAll(async () => {
    u = await startUploadApp(s3Env('folio-private', { S3_PRIVATE: 'true', S3_SIGNED_URL_EXPIRES: '2' }), {
      rest: { ...TEST_REST, responseCache: true },
    });
  });
  afterAll(async () => {
    await u.close();
  });

  it('stores the file and its formats, and hands out signed URLs that work', async () => {
    const image = await png(800, 600);
    const r = await u.upload([filePart(image, 'secret.png', 'image/png')]);
    expect(r.status).toBe(201);
    const f = r.body[0];
    expect(f).toMatchObject({ provider: 'aws-s3', isUrlSigned: true, mime: 'image/png', width: 800 });
    expect(f.url.startsWith(`${endpoint}/folio-private/${f.hash}.png?`)).toBe(true);
    expect(f.url).toContain('X-Amz-Signature=');
    expect(f.url).toContain('X-Amz-Expires=2');
    expect(Object.keys(f.formats)).toEqual(['thumbnail', 'small', 'medium']);
    for (const fmt of Object.values(f.formats as Record<string, { url: string; hash: string }>)) {
      expect(fmt.url.startsWith(`${endpoint}/folio-private/${fmt.hash}.png?`)).toBe(true);
      expect(fmt.url).toContain('X-Amz-Signature=');
    }
    const res = await fetchAll(f.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    // the stored image is the upload written again smaller (size optimization, optimize.test.ts)
    expect(res.body.length).toBeLessThan(image.length);
    expect(await sharp(res.body).metadata()).toMatchObject({ format: 'png', width: 800, height: 600 });
    expect((await fetchAll(f.formats.thumbnail.url)).status).toBe(200);
    expect(await keys('folio-private')).toEqual([`${f.hash}.png`, `medium_${f.hash}.png`, `small_${f.hash}.png`, `thumbnail_${f.hash}.png`].sort());
    // the database keeps the plain URL; signing happens on the way out
    const row = await u.t.app.database.db.selectFrom('files').select('url').where('id', '=', f.id).executeTakeFirstOrThrow();
    expect(row.url).toBe(`${endpoint}/folio-private/${f.hash}.png`);
  });

  it('signs on every files route', async () => {
    const list = await u.t.get('/api/upload/files');
    expect(list.body.every((f: { isUrlSigned: boolean; url: string }) => f.isUrlSigned && f.url.includes('X-Amz-Signature='))).toBe(true);
    const page = await u.t.get('/api/upload/files/page');
    expect(page.body.data.every((f: { isUrlSigned: boolean }) => f.isUrlSigned)).toBe(true);
    const one = await u.t.get(`/api/upload/files/${list.body[0].id}`);
    expect(one.body.isUrlSigned).toBe(true);
    expect(one.body.formats.thumbnail.url).toContain('X-Amz-Signature=');
    const updated = await u.upload([field('fileInfo', { caption: 'signed too' })], { query: `?id=${list.body[0].id}` });
    expect(updated.body).toMatchObject({ caption: 'signed too', isUrlSigned: true });
  });

  it('a signed URL expires after S3_SIGNED_URL_EXPIRES seconds; a fresh read signs again', async () => {
    const r = await u.upload([filePart('short-lived', 'note.txt', 'text/plain')]);
    const url: string = r.body[0].url;
    expect((await fetchAll(url)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 3200));
    const expired = await fetchAll(url);
    expect(expired.status).toBe(403);
    expect(expired.body.toString()).toContain('Request has expired');
    const fresh = await u.t.get(`/api/upload/files/${r.body[0].id}`);
    const again = await fetchAll(fresh.body.url);
    expect(again.status).toBe(200);
    expect(again.body.toString()).toBe('short-lived');
  });

  /** Every file object in a response body (anything with a hash and a url), formats excluded. */
  function filesIn(v: unknown, out: Record<string, unknown>[] = []): Record<string, unknown>[] {
    if (Array.isArray(v)) for (const x of v) filesIn(x, out);
    else if (v !== null && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (typeof o['hash'] === 'string' && typeof o['url'] === 'string' && 'formats' in o) out.push(o);
      for (const [k, x] of Object.entries(o)) if (k !== 'formats') filesIn(x, out);
    }
    return out;
  }

  /** Each file is signed, says so, and its URL (and a format's) opens the object. */
  async function expectSigned(body: unknown, count: number, what: string): Promise<void> {
    const files = filesIn(body);
    expect(files.length, what).toBe(count);
    for (const f of files) {
      expect(f['isUrlSigned'], what).toBe(true);
      expect(f['url'], what).toContain('X-Amz-Signature=');
      expect((await fetchAll(f['url'] as string)).status, what).toBe(200);
      const formats = f['formats'] as Record<string, { url: string }> | null;
      if (formats?.['thumbnail']) expect(formats['thumbnail'].url, what).toContain('X-Amz-Signature=');
    }
  }

  it('media populated in content responses are signed everywhere: list, findOne, single type, relations, components, dynamic zones', async () => {
    const up = async (name: string): Promise<number> => {
      const r = await u.upload([filePart(await png(300, 200), name, 'image/png')]);
      expect(r.status).toBe(201);
      return r.body[0].id;
    };
    const [cover, g1, g2, share, og, zone, avatar, favicon, siteShare] = await Promise.all(
      ['cover', 'g1', 'g2', 'share', 'og', 'zone', 'avatar', 'favicon', 'site-share'].map((n) => up(`${n}.png`)),
    );
    const author = await u.t.request('POST', '/api/authors', { body: { data: { name: 'Signed author', avatar } } });
    expect(author.status, JSON.stringify(author.body)).toBe(201);
    const a = await u.t.request('POST', '/api/articles', {
      body: {
        data: {
          title: 'private media',
          cover,
          gallery: [g1, g2],
          author: author.body.data.documentId,
          seo: { metaTitle: 's', shareImage: share, openGraph: { ogTitle: 'o', ogImage: og } },
          blocks: [{ __component: 'shared.media', file: zone }],
        },
      },
    });
    expect(a.status, JSON.stringify(a.body)).toBe(201);
    const populate =
      'populate[cover]=true&populate[gallery]=true&populate[author][populate][avatar]=true' +
      '&populate[seo][populate][shareImage]=true&populate[seo][populate][openGraph][populate][ogImage]=true' +
      '&populate[blocks][on][shared.media][populate][file]=true';
    const one = await u.t.get(`/api/articles/${a.body.data.documentId}?${populate}`);
    expect(one.status).toBe(200);
    expect(one.body.data.cover.id).toBe(cover);
    expect(one.body.data.seo.openGraph.ogImage.id).toBe(og);
    expect(one.body.data.blocks[0].file.id).toBe(zone);
    await expectSigned(one.body, 7, 'findOne');
    const list = await u.t.get(`/api/articles?filters[documentId][$eq]=${a.body.data.documentId}&${populate}`);
    await expectSigned(list.body, 7, 'list');
    const v4 = await u.t.get(`/api/articles/${a.body.data.documentId}?${populate}`, { headers: { 'strapi-response-format': 'v4' } });
    expect(v4.status).toBe(200);
    expect(v4.text).not.toContain(`/folio-private/${one.body.data.cover.hash}.png"`);
    const glob = await u.t.request('PUT', '/api/global', { body: { data: { siteName: 'Signed', favicon, defaultSeo: { metaTitle: 'g', shareImage: siteShare } } } });
    expect(glob.status, JSON.stringify(glob.body)).toBe(200);
    await expectSigned(glob.body, 0, 'write without populate');
    const single = await u.t.get('/api/global?populate[favicon]=true&populate[defaultSeo][populate][shareImage]=true');
    expect(single.body.data.favicon.id).toBe(favicon);
    await expectSigned(single.body, 2, 'single type');
    const star = await u.t.get(`/api/articles/${a.body.data.documentId}?populate=*`);
    await expectSigned(star.body, 3, 'populate=*');
  });

  it('a stored response never serves a signed URL past its expiry (2 s here): bodies are kept at most half of it', async () => {
    const a = await u.t.request('POST', '/api/articles', { body: { data: { title: 'cached cover' } } });
    const up = await u.upload([
      filePart(await png(50, 50), 'cached.png', 'image/png'),
      field('ref', 'api::article.article'),
      field('refId', String(a.body.data.id)),
      field('field', 'cover'),
    ]);
    expect(up.status).toBe(201);
    const path = `/api/articles/${a.body.data.documentId}?populate=cover`;
    const first = await u.t.get(path);
    expect(first.body.data.cover.isUrlSigned).toBe(true);
    // kept and reused while young
    const again = await u.t.get(path);
    expect(again.body.data.cover.url).toBe(first.body.data.cover.url);
    await new Promise((resolve) => setTimeout(resolve, 2300));
    expect((await fetchAll(first.body.data.cover.url)).status).toBe(403);
    const later = await u.t.get(path);
    const res = await fetchAll(later.body.data.cover.url);
    expect(res.status).toBe(200);
  });

  it('DELETE removes the object and all its formats from the bucket', async () => {
    const r = await u.upload([filePart(await png(1100, 300), 'wide.png', 'image/png')]);
    const f = r.body[0];
    const before = await keys('folio-private');
    expect(before.filter((k) => k.includes(f.hash))).toHaveLength(5);
    const del = await u.t.request('DELETE', `/api/upload/files/${f.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: f.id, isUrlSigned: true });
    expect((await keys('folio-private')).filter((k) => k.includes(f.hash))).toEqual([]);
  });
});

describe('a private bucket, through a relation an upload extension adds to files', () => {
  // files link to a bot, and a bot has an avatar: a file read populating the bot's avatar hands that avatar out too
  const project = (): string => {
    const root = mkdtempSync(join(tmpdir(), 'folio-s3-ext-'));
    cpSync(EXAMPLE_DIR, root, { recursive: true });
    writeFiles(root, {
      'src/extensions/upload/content-types/file/schema.json': JSON.stringify({
        kind: 'collectionType',
        collectionName: 'files',
        info: { singularName: 'file', pluralName: 'files' },
        attributes: { bot: { type: 'relation', relation: 'manyToOne', target: 'api::bot.bot', inversedBy: 'files' } },
      }),
      'src/api/bot/content-types/bot/schema.json': JSON.stringify({
        kind: 'collectionType',
        info: { singularName: 'bot', pluralName: 'bots' },
        options: { draftAndPublish: false },
        attributes: {
          name: { type: 'string' },
          avatar: { type: 'media', multiple: false, allowedTypes: ['images'] },
          files: { type: 'relation', relation: 'oneToMany', target: 'plugin::upload.file', mappedBy: 'bot' },
        },
      }),
    });
    return root;
  };
  let root: string;
  let u: UploadApp;
  beforeAll(async () => {
    root = project();
    u = await startUploadApp(s3Env('folio-private', { S3_PRIVATE: 'true' }), { dir: root });
  });
  afterAll(async () => {
    await u.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the populated media of the linked entry is signed on every files route', async () => {
    const [doc, avatar] = (await u.upload([filePart('x', 'notes.txt', 'text/plain'), filePart(await png(40, 40), 'face.png', 'image/png')])).body as { id: number }[];
    const bot = await u.t.request('POST', '/api/bots', { body: { data: { name: 'Helper', avatar: avatar!.id, files: [doc!.id] } } });
    expect(bot.status, bot.text).toBe(201);
    const q = 'populate[bot][populate][0]=avatar';
    const one = await u.t.get(`/api/upload/files/${doc!.id}?${q}`);
    const list = await u.t.get(`/api/upload/files?filters[id][$eq]=${doc!.id}&${q}`);
    const page = await u.t.get(`/api/upload/files/page?filters[id][$eq]=${doc!.id}&${q}`);
    for (const [what, file] of [
      ['findOne', one.body],
      ['list', list.body[0]],
      ['page', page.body.data[0]],
    ] as const) {
      expect(file.bot.avatar, what).toMatchObject({ id: avatar!.id, isUrlSigned: true });
      expect(file.bot.avatar.url, what).toContain('X-Amz-Signature=');
    }
  });
});

describe('a public bucket', () => {
  let u: UploadApp;
  beforeAll(async () => {
    u = await startUploadApp(s3Env('folio-public'));
  });
  afterAll(async () => {
    await u.close();
  });

  it('returns plain object URLs (isUrlSigned false)', async () => {
    const r = await u.upload([filePart(await png(100, 100), 'open.png', 'image/png')]);
    expect(r.status).toBe(201);
    expect(r.body[0]).toMatchObject({ provider: 'aws-s3', isUrlSigned: false, url: `${endpoint}/folio-public/${r.body[0].hash}.png` });
    const res = await fetchAll(r.body[0].url);
    expect(res.status).toBe(200);
  });

  it('stores under `path` when given, and refuses a path that climbs', async () => {
    const r = await u.upload([filePart(await png(400, 400), 'in-folder.png', 'image/png'), field('path', 'blog/2024')]);
    expect(r.status).toBe(201);
    const f = r.body[0];
    expect(f.url).toBe(`${endpoint}/folio-public/blog/2024/${f.hash}.png`);
    expect(f.formats.thumbnail).toMatchObject({ path: 'blog/2024', url: `${endpoint}/folio-public/blog/2024/thumbnail_${f.hash}.png` });
    expect(await keys('folio-public')).toContain(`blog/2024/${f.hash}.png`);
    const del = await u.t.request('DELETE', `/api/upload/files/${f.id}`);
    expect(del.status).toBe(200);
    expect((await keys('folio-public')).filter((k) => k.includes(f.hash))).toEqual([]);
    for (const bad of ['../x', 'a/../../b', '/abs', 'a//b', 'a\\b']) {
      const refused = await u.upload([filePart('x', 'x.txt', 'text/plain'), field('path', bad)]);
      expect(refused.status, bad).toBe(400);
      expect(refused.body).toEqual(errorOf(400, 'ValidationError', 'path must be folder names (letters, digits, "_", "-", ".") separated by "/"'));
    }
  });

  it('a replaced file keeps its object keys under its path; formats the old picture lacked go there too, and gone formats are deleted', async () => {
    // too small for any format: the formats of the new picture go under the file's own path
    const r = await u.upload([filePart(await png(100, 100), 'swap.png', 'image/png'), field('path', 'media/x')]);
    const f = r.body[0];
    expect(f.formats).toBeNull();
    const bigger = await u.upload([filePart(await png(900, 700, { r: 1, g: 2, b: 3 }), 'swap2.png', 'image/png')], { query: `?id=${f.id}` });
    expect(bigger.status).toBe(200);
    expect(bigger.body).toMatchObject({ url: f.url, width: 900, height: 700, name: 'swap2.png' });
    expect(bigger.body.formats.small).toMatchObject({ path: 'media/x', url: `${endpoint}/folio-public/media/x/small_${f.hash}.png` });
    expect((await keys('folio-public')).filter((k) => k.includes(f.hash))).toEqual(
      ['media/x/' + f.hash + '.png', ...['medium', 'small', 'thumbnail'].map((k) => `media/x/${k}_${f.hash}.png`)].sort(),
    );
    const served = await fetchAll(f.url);
    expect((await sharp(served.body).metadata()).width).toBe(900);
    const smaller = await u.upload([filePart(await png(60, 40), 'swap3.png', 'image/png')], { query: `?id=${f.id}` });
    expect(smaller.body).toMatchObject({ url: f.url, formats: {}, width: 60 });
    expect((await keys('folio-public')).filter((k) => k.includes(f.hash))).toEqual([`media/x/${f.hash}.png`]);
    expect((await sharp((await fetchAll(f.url)).body).metadata()).width).toBe(60);
  });

  it('anything not shown inline is stored with Content-Disposition: attachment', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const r = await u.upload([filePart(svg, 'x.svg', 'image/svg+xml')]);
    expect(r.status).toBe(201);
    const res = await fetchAll(r.body[0].url);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('content-disposition')).toBe('attachment');
  });
});
