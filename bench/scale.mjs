#!/usr/bin/env node
// Scale run: generates N published articles straight into the database (not over HTTP), then times a
// filtered, sorted, counted list and a findOne through Folio's HTTP API.
//
//   npm run build && node bench/scale.mjs 1000 1000000
//
// Env: DATABASE_CLIENT (sqlite|postgres), DATABASE_* as for `folio start` (PostgreSQL: a database
// named folio_scale is created), SCALE_REQUESTS (200 per measurement), SCALE_KEEP=1 (keep each generated
// project folder and database, and print where, to look at query plans afterwards).
// Each article: a draft and a published row (as a publish writes them), linked to one of 50 authors
// and two of 30 categories (i mod 30 and i+7 mod 30), featured when i mod 10 is 3, so the timed filter
// (featured, in Category 3) matches one article in thirty at every size.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { connect } = await import(join(root, 'dist/database/connect.js'));
const { syncSchema } = await import(join(root, 'dist/database/sync.js'));
const { loadModel } = await import(join(root, 'dist/schema/load-model.js'));
const { newDocumentId } = await import(join(root, 'dist/documents/document-id.js'));

const sizes = process.argv
  .slice(2)
  .map(Number)
  .filter((n) => n > 0);
if (sizes.length === 0) sizes.push(1000, 1_000_000);
const REQUESTS = Number(process.env.SCALE_REQUESTS ?? 200);
const client = process.env.DATABASE_CLIENT ?? 'sqlite';

async function openDb(dir) {
  if (client === 'sqlite') return { client, filename: join(dir, 'data.db') };
  const pg = (await import('pg')).default;
  const conn = {
    host: process.env.DATABASE_HOST ?? '127.0.0.1',
    port: Number(process.env.DATABASE_PORT ?? 5432),
    user: process.env.DATABASE_USERNAME ?? 'postgres',
    password: process.env.DATABASE_PASSWORD ?? '',
  };
  const admin = new pg.Client({ ...conn, database: 'postgres' });
  await admin.connect();
  await admin.query('drop database if exists folio_scale with (force)');
  await admin.query('create database folio_scale');
  await admin.end();
  return { client, ...conn, database: 'folio_scale' };
}

async function generate(cfg, model, n) {
  const database = await connect(cfg);
  await syncSchema(database, model);
  const { db, dialect } = database;
  const now = new Date();
  const ts = dialect.toDatetime(now);
  const authors = [];
  for (let i = 0; i < 50; i++) {
    const doc = newDocumentId();
    authors.push(doc);
    await db
      .insertInto('authors')
      .values({ document_id: doc, name: `Author ${i}`, created_at: ts, updated_at: ts, published_at: ts })
      .execute();
  }
  const categories = [];
  for (let i = 0; i < 30; i++) {
    const doc = newDocumentId();
    categories.push(doc);
    await db
      .insertInto('categories')
      .values({ document_id: doc, name: `Category ${i}`, locale: 'en', created_at: ts, updated_at: ts, published_at: ts })
      .execute();
  }
  const batch = 1000;
  const t0 = Date.now();
  for (let start = 0; start < n; start += batch) {
    const count = Math.min(batch, n - start);
    await db.transaction().execute(async (tx) => {
      const rows = [];
      for (let i = start; i < start + count; i++) {
        const doc = newDocumentId();
        const base = {
          document_id: doc,
          title: `Article ${i}`,
          slug: `article-${i}`,
          summary: 'generated',
          views: (i * 7919) % 100000,
          is_featured: dialect.toBoolean(i % 10 === 3),
          kind: ['news', 'tutorial', 'opinion'][i % 3],
          locale: 'en',
          created_at: ts,
          updated_at: ts,
        };
        rows.push({ ...base, published_at: null }, { ...base, published_at: ts });
      }
      await tx.insertInto('articles').values(rows).execute();
      const ids = await tx
        .selectFrom('articles')
        .select(['id', 'document_id'])
        .where(
          'document_id',
          'in',
          rows.filter((_, k) => k % 2 === 0).map((r) => r.document_id),
        )
        .execute();
      const idx = new Map(rows.filter((_, k) => k % 2 === 0).map((r, k) => [r.document_id, start + k]));
      const authorLinks = [];
      const categoryLinks = [];
      for (const r of ids) {
        const i = idx.get(r.document_id);
        authorLinks.push({ source_id: r.id, target_document_id: authors[i % 50], target_locale: null, target_status: null, ord: 1, inv_ord: i });
        categoryLinks.push({ source_id: r.id, target_document_id: categories[i % 30], target_locale: null, target_status: null, ord: 1, inv_ord: i });
        categoryLinks.push({ source_id: r.id, target_document_id: categories[(i + 7) % 30], target_locale: null, target_status: null, ord: 2, inv_ord: i });
      }
      await tx.insertInto('articles_author_lnk').values(authorLinks).execute();
      await tx.insertInto('articles_categories_lnk').values(categoryLinks).execute();
    });
    if ((start / batch) % 50 === 0) process.stdout.write(`\r  generated ${start + count}/${n} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  process.stdout.write(`\r  generated ${n}/${n} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  // the state a running database settles in: fresh statistics (PRAGMA optimize on SQLite), and on
  // PostgreSQL what autovacuum does after a bulk load — statistics and the visibility map, without
  // which no index-only scan is possible (the 1M relation filter took 650 ms instead of ≈300)
  const { sql } = await import('kysely');
  await (client === 'postgres' ? sql`vacuum analyze` : sql`analyze`).execute(db);
  await database.close();
}

function startServer(dir, cfg, port) {
  // the same URL is asked 200 times: without this every answer after the first would come from the
  // response cache, and the run would time the cache instead of the query at this size
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    API_TOKEN_SALT: 'scale',
    JWT_SECRET: 'scale',
    APP_KEYS: 'a,b',
    FOLIO_RESPONSE_CACHE: 'off',
    DATABASE_CLIENT: client,
    DATABASE_FILENAME: cfg.filename ?? '',
    DATABASE_NAME: cfg.database ?? '',
  };
  return spawn('node', [join(root, 'dist/cli/main.js'), 'start', '--dir', dir], { env, stdio: 'ignore' });
}

async function tokenFor(dir, cfg) {
  const env = {
    ...process.env,
    NODE_ENV: 'production',
    API_TOKEN_SALT: 'scale',
    JWT_SECRET: 'scale',
    APP_KEYS: 'a,b',
    DATABASE_CLIENT: client,
    DATABASE_FILENAME: cfg.filename ?? '',
    DATABASE_NAME: cfg.database ?? '',
  };
  return new Promise((resolve, reject) => {
    const c = spawn('node', [join(root, 'dist/cli/main.js'), 'api-token', 'create', '--dir', dir, '--name', `scale${Date.now()}`, '--type', 'full-access'], { env });
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error('token'))));
  });
}

async function p50(url, token) {
  const times = [];
  for (let i = 0; i < REQUESTS; i++) {
    const t = performance.now();
    const r = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`${url}: ${r.status}`);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const results = {};
for (const n of sizes) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-scale-'));
  cpSync(join(root, 'examples/blog/src'), join(dir, 'src'), { recursive: true });
  cpSync(join(root, 'examples/blog/config'), join(dir, 'config'), { recursive: true });
  const cfg = await openDb(dir);
  console.log(`${client}: ${n} articles`);
  await generate(cfg, loadModel(dir), n);
  const token = await tokenFor(dir, cfg);
  const port = 14000 + sizes.indexOf(n);
  const server = startServer(dir, cfg, port);
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`${base}/api/articles`, { headers: { authorization: `Bearer ${token}` } })).status === 200) break;
    } catch {
      /* starting */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const one = (await (await fetch(`${base}/api/articles?pagination[pageSize]=1&pagination[page]=${Math.ceil(n / 2)}`, { headers: { authorization: `Bearer ${token}` } })).json())
    .data[0].documentId;
  const list = `${base}/api/articles?filters[isFeatured][$eq]=true&filters[categories][name][$eq]=Category%203&sort=views:desc&pagination[pageSize]=25`;
  const total = (await (await fetch(list, { headers: { authorization: `Bearer ${token}` } })).json()).meta.pagination.total;
  results[n] = { total, list: await p50(list, token), findOne: await p50(`${base}/api/articles/${one}`, token) };
  console.log(`  p50 filtered+sorted+counted list ${results[n].list.toFixed(1)} ms (${total} matches), findOne ${results[n].findOne.toFixed(1)} ms`);
  server.kill('SIGTERM');
  if (process.env.SCALE_KEEP) console.log(`  kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
const [small, large] = sizes;
if (large)
  console.log(`ratio ${large}/${small}: list ${(results[large].list / results[small].list).toFixed(2)}×, findOne ${(results[large].findOne / results[small].findOne).toFixed(2)}×`);
