#!/usr/bin/env node
// Operator sweep: every filter operator on every article attribute, directly and through one and two
// relation levels, with hostile SQL-like values, sent one at a time against Folio on the example data.
// Finds operator/type pairs whose SQL can't use an index or runs away (issue #19, point 7).
//
//   npm run build && node bench/operator-sweep.mjs
//
// Env: SWEEP_DATABASES (sqlite,postgres), SEED_ARTICLES (1000), SWEEP_TOP (20), SWEEP_LEVELS (0,1,2),
//      BENCH_PG_HOST/PORT/USER/PASSWORD (127.0.0.1:5432 postgres). PostgreSQL runs in a database
//      folio_sweep, dropped and created afresh, with VACUUM ANALYZE after seeding (what autovacuum would
//      do on a production server). Prints the slowest requests per database and the status counts.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const shared = join(root, '..', 'shared');
const ARTICLES = Number(process.env.SEED_ARTICLES ?? 1000);
const TOP = Number(process.env.SWEEP_TOP ?? 20);
const DATABASES = (process.env.SWEEP_DATABASES ?? 'sqlite,postgres').split(',').filter(Boolean);
const LEVELS = (process.env.SWEEP_LEVELS ?? '0,1,2').split(',').map(Number);
const PG = {
  host: process.env.BENCH_PG_HOST ?? '127.0.0.1',
  port: Number(process.env.BENCH_PG_PORT ?? 5432),
  user: process.env.BENCH_PG_USER ?? 'postgres',
  password: process.env.BENCH_PG_PASSWORD ?? '',
};
const PORT = 13380;

// the operators the query parser knows, and the article's scalar attributes as its schema declares them
const { COMPARE_OPS } = await import(join(root, 'dist', 'query', 'ast.js'));
const OPERATORS = [...COMPARE_OPS];
const RELATIONAL = new Set(['media', 'relation', 'component', 'dynamiczone']);
const articleSchema = JSON.parse(readFileSync(join(root, 'examples', 'blog', 'src', 'api', 'article', 'content-types', 'article', 'schema.json'), 'utf8'));
const ATTRIBUTES = [
  'id',
  'documentId',
  ...Object.entries(articleSchema.attributes)
    .filter(([, a]) => !RELATIONAL.has(a.type))
    .map(([name]) => name),
  'createdAt',
  'updatedAt',
  'publishedAt',
  'locale',
];
const VALUES = ['%', '_', "' or 1=1 --", `${"%_'\\".repeat(64)}${'x'.repeat(1500)}`, 'ünïcødé 日本語 🎉'];
// the same article attributes reached through relations: article → related articles, and
// article → categories → their articles (a many-to-many, then its inverse)
const PREFIXES = { 0: '', 1: '[related]', 2: '[categories][articles]' };

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function run(cmd, args, env) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], env });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  child.log = () => log;
  return child;
}

function exec(cmd, args, env) {
  return new Promise((resolve, reject) => {
    const c = run(cmd, args, env);
    c.on('exit', (code) => (code === 0 ? resolve(c.log().trim()) : reject(new Error(`${cmd} exited ${code}: ${c.log()}`))));
  });
}

async function onPostgres(database, statements) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ ...PG, database });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

function databaseEnv(db, dir) {
  if (db === 'sqlite') return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: join(dir, 'sweep.db') };
  return {
    DATABASE_CLIENT: 'postgres',
    DATABASE_HOST: PG.host,
    DATABASE_PORT: String(PG.port),
    DATABASE_USERNAME: PG.user,
    DATABASE_PASSWORD: PG.password,
    DATABASE_NAME: 'folio_sweep',
  };
}

async function startFolio(dbEnv) {
  const env = {
    ...process.env,
    ...dbEnv,
    PORT: String(PORT),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    API_TOKEN_SALT: 'sweep-salt',
    JWT_SECRET: 'sweep-jwt',
    APP_KEYS: 'a,b',
    FOLIO_RESPONSE_CACHE: 'off',
  };
  const cli = join(root, 'dist', 'cli', 'main.js');
  const dir = join(root, 'examples', 'blog');
  const token = (await exec('node', [cli, 'api-token', 'create', '--dir', dir, '--name', `sweep-${Date.now()}`, '--type', 'full-access'], env)).split('\n').pop();
  const child = run('node', [cli, 'start', '--dir', dir], env);
  const base = `http://127.0.0.1:${PORT}`;
  for (const t0 = Date.now(); ; await sleep(50)) {
    if (child.exitCode !== null) throw new Error(`folio exited: ${child.log()}`);
    if (Date.now() - t0 > 120_000) throw new Error('folio did not answer within 120 s');
    const ok = await fetch(`${base}/api/articles`, { headers: { authorization: `Bearer ${token}` } }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { child, token, base };
  }
}

/** Every request of the sweep, as query strings (values URL-encoded). */
function requests() {
  const out = [];
  for (const level of LEVELS) {
    for (const attribute of ATTRIBUTES) {
      for (const op of OPERATORS) {
        const key = `filters${PREFIXES[level]}[${attribute}][${op}]`;
        const values = op === '$null' || op === '$notNull' ? ['true', 'false'] : VALUES;
        for (const v of values) {
          const e = encodeURIComponent(v);
          if (op === '$in' || op === '$notIn' || op === '$between') out.push(`${key}[0]=${e}&${key}[1]=${e}`);
          else out.push(`${key}=${e}`);
        }
      }
    }
  }
  return out;
}

async function sweep(server) {
  const headers = { authorization: `Bearer ${server.token}` };
  const results = [];
  for (const qs of requests()) {
    const t0 = performance.now();
    const res = await fetch(`${server.base}/api/articles?${qs}`, { headers });
    await res.arrayBuffer();
    results.push({ ms: performance.now() - t0, status: res.status, qs });
  }
  return results;
}

const shorten = (qs) =>
  decodeURIComponent(qs)
    .replace(/x{20,}/g, (m) => `x…(${m.length})`)
    .replace(/(%_'\\){4,}/g, (m) => `%_'\\…(×${m.length / 4})`);

async function round(db) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-sweep-'));
  let server;
  try {
    if (db === 'postgres') await onPostgres('postgres', ['drop database if exists folio_sweep with (force)', 'create database folio_sweep']);
    const dbEnv = databaseEnv(db, dir);
    server = await startFolio(dbEnv);
    const t0 = performance.now();
    await exec('node', [join(shared, 'tools', 'seed.mjs')], { ...process.env, BASE_URL: server.base, TOKEN: server.token, SEED_ARTICLES: String(ARTICLES) });
    console.log(`[${db}] seeded ${ARTICLES} articles in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    if (db === 'postgres') await onPostgres('folio_sweep', ['vacuum analyze']);
    const t1 = performance.now();
    const results = await sweep(server);
    const total = (performance.now() - t1) / 1000;
    const statuses = {};
    for (const r of results) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
    const sorted = [...results].sort((a, b) => b.ms - a.ms);
    const median = [...results].sort((a, b) => a.ms - b.ms)[Math.floor(results.length / 2)].ms;
    console.log(`[${db}] ${results.length} requests in ${total.toFixed(1)} s, median ${median.toFixed(1)} ms, statuses ${JSON.stringify(statuses)}; slowest ${TOP}:`);
    for (const r of sorted.slice(0, TOP)) console.log(`  ${r.ms.toFixed(0).padStart(6)} ms  ${r.status}  ${shorten(r.qs)}`);
  } finally {
    if (server) {
      server.child.kill('SIGTERM');
      if (server.child.exitCode === null) await new Promise((r) => server.child.once('exit', r));
    }
    rmSync(dir, { recursive: true, force: true });
  }
}

for (const db of DATABASES) await round(db);
