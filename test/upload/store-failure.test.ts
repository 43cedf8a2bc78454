// Storage and database failures leave nothing behind; the API Uploads folder is created once even
// when creators race on separate connection pools (as separate processes would).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../../src/database/connect.js';
import { registerBodyParsers } from '../../src/http/json-body.js';
import { registerErrorHandler } from '../../src/http/error-handler.js';
import { resolveUploadConfig } from '../../src/plugins/upload/config.js';
import { API_UPLOAD_FOLDER, ensureApiUploadFolder } from '../../src/plugins/upload/folder.js';
import type { PutObject } from '../../src/plugins/upload/provider.js';
import { LocalProvider } from '../../src/plugins/upload/providers/local.js';
import { registerUpload } from '../../src/plugins/upload/routes.js';
import { startTestApp, TEST_REST, type TestApp } from '../support/app.js';
import { field, filePart, form, png } from './helpers.js';

/** A local provider with a hook run before each put (to fail it, or to change the world meanwhile). */
class HookedProvider extends LocalProvider {
  puts = 0;
  constructor(
    dir: string,
    private readonly before: (n: number) => Promise<void>,
  ) {
    super(dir);
  }
  override async put(object: PutObject): Promise<string> {
    await this.before(++this.puts);
    return super.put(object);
  }
}

let t: TestApp;
let dir: string;
beforeAll(async () => {
  t = await startTestApp();
  dir = mkdtempSync(join(tmpdir(), 'folio-uploads-'));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A second server on the same services, whose upload routes use `provider`. */
async function serverWith(provider: LocalProvider): Promise<{ fastify: FastifyInstance; url: string }> {
  const fastify = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true, caseSensitive: false } });
  registerErrorHandler(fastify);
  registerBodyParsers(fastify, TEST_REST.jsonLimit, TEST_REST.queryLimits);
  await registerUpload(fastify, t.app.services, { config: resolveUploadConfig({ UPLOAD_DIR: dir }, t.app.config.dir), provider });
  await fastify.listen({ host: '127.0.0.1', port: 0 });
  const address = fastify.server.address();
  return { fastify, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` };
}

async function count(table: string): Promise<number> {
  const r = await t.app.database.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll().as('c'))
    .executeTakeFirstOrThrow();
  return Number(r.c);
}

describe('failures while storing', () => {
  it('a provider failing halfway: 500, and neither objects nor rows remain', async () => {
    const { fastify, url } = await serverWith(
      new HookedProvider(dir, async (n) => {
        if (n === 6) throw new Error('disk full');
      }),
    );
    try {
      // two images with formats: 1 + 3 objects, then 1 + … — the 6th put fails
      const body = form([filePart(await png(800, 600), 'a.png', 'image/png'), filePart(await png(800, 600), 'b.png', 'image/png')]);
      const res = await fetch(`${url}/api/upload`, { method: 'POST', body, headers: { authorization: `Bearer ${t.token}` } });
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ data: null, error: { status: 500, name: 'InternalServerError', message: 'Internal Server Error' } });
      expect(readdirSync(dir)).toEqual([]);
      expect(await count('files')).toBe(0);
    } finally {
      await fastify.close();
    }
  });

  it('the database refusing the rows after the objects were stored: the objects are removed', async () => {
    const a = await t.request('POST', '/api/articles', { body: { data: { title: 'soon gone' } } });
    expect(a.status).toBe(201);
    const docId: string = a.body.data.documentId;
    // the entry disappears while the files are being stored: the transaction then finds no row to link
    const { fastify, url } = await serverWith(
      new HookedProvider(dir, async (n) => {
        if (n === 1) await t.app.database.db.deleteFrom('articles').where('document_id', '=', docId).execute();
      }),
    );
    try {
      const body = form([filePart(await png(400, 400), 'a.png', 'image/png'), field('ref', 'api::article.article'), field('refId', docId), field('field', 'cover')]);
      const res = await fetch(`${url}/api/upload`, { method: 'POST', body, headers: { authorization: `Bearer ${t.token}` } });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        data: null,
        error: { status: 400, name: 'ValidationError', message: `refId "${docId}" does not match any entry of api::article.article`, details: {} },
      });
      expect(readdirSync(dir)).toEqual([]);
      expect(await count('files')).toBe(0);
      expect(await count('files_related_mph')).toBe(0);
    } finally {
      await fastify.close();
    }
  });
});

describe('the API Uploads folder', () => {
  it('is created exactly once when creators race on two connection pools', async () => {
    const other = await connect(t.app.config.database);
    try {
      const results = await Promise.all(Array.from({ length: 12 }, (_, i) => ensureApiUploadFolder(i % 2 ? other : t.app.database)));
      const rows = await t.app.database.db.selectFrom('upload_folders').selectAll().where('name', '=', API_UPLOAD_FOLDER).execute();
      expect(rows).toHaveLength(1);
      expect(new Set(results.map((f) => f.id))).toEqual(new Set([Number(rows[0]!.id)]));
      expect(results[0]!.path).toBe(`/${rows[0]!.path_id}`);
    } finally {
      await other.close();
    }
  });
});
