#!/usr/bin/env node
// Side-by-side benchmark: Folio and the reference Strapi 5 on the same machine, data and database.
//
//   npm run bench                      # Folio alone when no reference is installed
//   STRAPI_DIR=/path/to/strapi-ref npm run bench
//
// Env: STRAPI_DIR (a folder prepared with ../shared/reference/setup.sh), BENCH_DURATION (s, default 10),
//      BENCH_CONNECTIONS (10), SEED_ARTICLES (1000), BENCH_SCENARIOS (comma list to run a subset),
//      FOLIO_WORKERS (1), BENCH_RUNS (3: each scenario is loaded this many times per server and the
//      medians reported), BENCH_DATABASES (sqlite; `sqlite,postgres` adds a round on PostgreSQL,
//      in databases folio_bench and strapi_bench, dropped and created afresh; BENCH_PG_HOST/PORT/
//      USER/PASSWORD, default 127.0.0.1:5432 postgres without password), BENCH_QUIET (s, 60: how long
//      each server is left without requests before its quiet RSS is read). In each round Folio is
//      measured twice on the same data: with its response cache on and with it off, so every read
//      runs its queries. Writes bench/results/<timestamp>.json and prints a table per database.
//
//   node bench/run.mjs --print bench/results/<timestamp>.json   # the tables of a saved run
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, existsSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { shippedNodeFlags } from './shipped-flags.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const shared = join(root, '..', 'shared');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const ARTICLES = Number(process.env.SEED_ARTICLES ?? 1000);
const STRAPI_DIR = process.env.STRAPI_DIR;
const WORKERS = Number(process.env.FOLIO_WORKERS ?? 1);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const QUIET_S = Number(process.env.BENCH_QUIET ?? 60);
const DATABASES = (process.env.BENCH_DATABASES ?? 'sqlite')
  .split(',')
  .map((d) => d.trim())
  .filter(Boolean);
const PG_HOST = process.env.BENCH_PG_HOST ?? '127.0.0.1';
const PG_PORT = process.env.BENCH_PG_PORT ?? '5432';
const PG_USER = process.env.BENCH_PG_USER ?? 'postgres';
const PG_PASSWORD = process.env.BENCH_PG_PASSWORD ?? '';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function rssOf(pid) {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** RSS of a process and its children (cluster workers). */
function treeRss(pid) {
  let total = rssOf(pid) ?? 0;
  try {
    const kids = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    for (const k of kids) total += treeRss(Number(k));
  } catch {
    /* no children */
  }
  return total;
}

async function waitFor(url, token, started, timeoutMs = 120_000) {
  for (;;) {
    try {
      const r = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      if (r.status === 200) return (performance.now() - started) / 1000;
    } catch {
      /* not listening yet */
    }
    if (performance.now() - started > timeoutMs) throw new Error(`no 200 from ${url} within ${timeoutMs} ms`);
    await sleep(20);
  }
}

const LOG_TAIL = 256 * 1024;

function run(cmd, args, opts) {
  const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  // the tail only: a server logging each request writes hundreds of MB over a run (past a string's limit)
  let log = '';
  const keep = (d) => {
    log += d;
    if (log.length > LOG_TAIL * 2) log = log.slice(-LOG_TAIL);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  child.log = () => log;
  return child;
}

function execText(cmd, args, opts) {
  return new Promise((resolve, reject) => {
    const c = run(cmd, args, opts);
    let out = '';
    c.stdout.on('data', (d) => {
      out += d;
    });
    c.on('exit', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`${cmd} ${args.join(' ')} exited ${code}: ${c.log()}`))));
  });
}

/** Where a round's servers keep their data: a SQLite file in a scratch folder, or a fresh PostgreSQL database. */
function databaseEnv(db, dataDir, who) {
  if (db === 'sqlite') return { DATABASE_CLIENT: 'sqlite', DATABASE_FILENAME: join(dataDir, `${who}.db`) };
  return { DATABASE_CLIENT: 'postgres', DATABASE_HOST: PG_HOST, DATABASE_PORT: PG_PORT, DATABASE_USERNAME: PG_USER, DATABASE_PASSWORD: PG_PASSWORD, DATABASE_NAME: `${who}_bench` };
}

async function onPostgres(database, statements) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ host: PG_HOST, port: Number(PG_PORT), user: PG_USER, password: PG_PASSWORD, database });
  await client.connect();
  try {
    for (const s of statements) await client.query(s);
  } finally {
    await client.end();
  }
}

/** Drops and creates the round's PostgreSQL databases, so both servers start from empty ones. */
async function freshPostgres(names) {
  await onPostgres(
    'postgres',
    names.flatMap((n) => [`drop database if exists "${n}" with (force)`, `create database "${n}"`]),
  );
}

/**
 * After seeding, what autovacuum would soon do on a production server (it may be off on a test
 * server, as on the development machine): planner statistics and the visibility map for index-only
 * scans. Done for both servers' databases alike.
 */
async function settle(dbEnv) {
  if (dbEnv.DATABASE_CLIENT === 'postgres') await onPostgres(dbEnv.DATABASE_NAME, ['vacuum analyze']);
}

async function startFolio(port, dbEnv, extraEnv = {}) {
  const env = {
    ...process.env,
    ...extraEnv,
    ...dbEnv,
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'production',
    API_TOKEN_SALT: 'bench-salt',
    JWT_SECRET: 'bench-jwt',
    APP_KEYS: 'a,b',
  };
  const cli = join(root, 'dist', 'cli', 'main.js');
  const dir = join(root, 'examples', 'blog');
  const token = await execText('node', [cli, 'api-token', 'create', '--dir', dir, '--name', `bench-${Date.now()}`, '--type', 'full-access'], { env });
  const started = performance.now();
  const args = [cli, 'start', '--dir', dir, ...(WORKERS > 1 ? ['--workers', String(WORKERS)] : [])];
  const child = run('node', [...shippedNodeFlags(cli), ...args], { env });
  const cold = await waitFor(`http://127.0.0.1:${port}/api/articles`, token, started);
  return { name: 'folio', child, token, base: `http://127.0.0.1:${port}`, cold };
}

async function startStrapi(port, dbEnv) {
  const started = performance.now();
  rmSync(join(STRAPI_DIR, '.tmp', 'api-token.txt'), { force: true });
  const child = run('bash', [join(shared, 'reference', 'start.sh'), STRAPI_DIR, String(port)], { env: { ...process.env, ...dbEnv, UP_RATELIMIT: 'off' } });
  const tokenFile = join(STRAPI_DIR, '.tmp', 'api-token.txt');
  while (!existsSync(tokenFile)) {
    if (child.exitCode !== null) throw new Error(`strapi exited: ${child.log()}`);
    await sleep(50);
  }
  await sleep(50);
  const token = readFileSync(tokenFile, 'utf8').trim();
  const cold = await waitFor(`http://127.0.0.1:${port}/api/articles`, token, started);
  return { name: 'strapi', child, token, base: `http://127.0.0.1:${port}`, cold };
}

async function seed(server) {
  const t0 = performance.now();
  await execText('node', [join(shared, 'tools', 'seed.mjs')], {
    env: { ...process.env, BASE_URL: server.base, TOKEN: server.token, SEED_ARTICLES: String(ARTICLES) },
  });
  return (performance.now() - t0) / 1000;
}

const DEEP = 'populate[author][populate][0]=profile&populate[categories][fields][0]=name&populate[seo][populate]=*&populate[blocks][populate]=*';

async function scenarios(server) {
  const h = { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' };
  const list = await (await fetch(`${server.base}/api/articles?pagination[pageSize]=1&fields[0]=title`, { headers: h })).json();
  const one = list.data[0].documentId;
  const author = (await (await fetch(`${server.base}/api/authors?pagination[pageSize]=1`, { headers: h })).json()).data[0].documentId;
  const tag = (await (await fetch(`${server.base}/api/tags?pagination[pageSize]=1`, { headers: h })).json()).data[0].documentId;
  const body = (i) =>
    JSON.stringify({
      data: {
        title: `Bench article ${i}`,
        summary: 'bench',
        views: i,
        author,
        tags: [tag],
        seo: { metaTitle: `Bench ${i}`, openGraph: { ogTitle: 'og' } },
        blocks: [
          { __component: 'shared.rich-text', body: 'text' },
          { __component: 'shared.quote', title: 'q', person: author },
        ],
      },
    });
  let n = 0;
  const docs = (await (await fetch(`${server.base}/api/articles?pagination[pageSize]=100&fields[0]=title&sort=id:asc`, { headers: h })).json()).data.map((d) => d.documentId);
  // the mix real traffic has: 110 distinct reads (100 documents with populate=*, five list pages with
  // populate=*, five deep-populated pages sorted by views) and a share of updates to those documents
  const mixedReads = [
    ...docs.map((d) => `/api/articles/${d}?populate=*`),
    ...[1, 2, 3, 4, 5].map((p) => `/api/articles?populate=*&pagination[page]=${p}`),
    ...[1, 2, 3, 4, 5].map((p) => `/api/articles?${DEEP}&sort=views:desc&pagination[page]=${p}`),
  ];
  const mixed = (name, writeShare) => {
    let seed = 42;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    return {
      name,
      mixed: true,
      path: mixedReads[0],
      // each request gets headers of its own: autocannon writes a body's Content-Length into the headers
      // object it is given, and a GET carrying a PUT's length made the server read the next request as
      // its body (thousands of 400s and desynchronised connections in the runs before this was fixed)
      setupRequest: (req) => {
        if (next() < writeShare)
          return { ...req, headers: { ...h }, method: 'PUT', path: `/api/articles/${docs[Math.floor(next() * docs.length)]}`, body: JSON.stringify({ data: { views: ++n } }) };
        return { ...req, headers: { authorization: h.authorization }, method: 'GET', path: mixedReads[Math.floor(next() * mixedReads.length)], body: undefined };
      },
    };
  };
  return [
    { name: 'list', path: '/api/articles' },
    { name: 'populate=*', path: '/api/articles?populate=*' },
    { name: 'deep populate', path: `/api/articles?${DEEP}` },
    { name: 'deep populate 100', path: `/api/articles?${DEEP}&pagination[pageSize]=100` },
    { name: 'relation filter+sort', path: '/api/articles?filters[categories][name][$containsi]=category&sort=views:desc&pagination[withCount]=true' },
    { name: 'relation filter, one category', path: '/api/articles?filters[categories][name][$containsi]=category%207&sort=views:desc&pagination[withCount]=true' },
    { name: 'findOne populate=*', path: `/api/articles/${one}?populate=*` },
    mixed('mixed 1% writes', 0.01),
    mixed('mixed 10% writes', 0.1),
    { name: 'create', method: 'POST', path: '/api/articles', connections: 8, setupRequest: (req) => ({ ...req, body: body(++n) }) },
    { name: 'update', method: 'PUT', path: `/api/articles/${one}`, connections: 8, setupRequest: (req) => ({ ...req, body: JSON.stringify({ data: { views: ++n } }) }) },
  ].map((s) => ({ ...s, headers: h }));
}

async function load(base, s) {
  const result = await autocannon({
    url: base + s.path,
    method: s.method ?? 'GET',
    headers: s.headers,
    connections: s.connections ?? CONNECTIONS,
    duration: DURATION,
    requests: s.setupRequest ? [{ method: s.method ?? 'GET', path: s.path, headers: s.headers, setupRequest: s.setupRequest }] : undefined,
  });
  return { rps: result.requests.average, p50: result.latency.p50, p99: result.latency.p99, errors: result.errors + result.non2xx };
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null && x !== undefined).sort((a, b) => a - b);
  return v.length ? v[Math.floor((v.length - 1) / 2)] : null;
};

const isWrite = (s) => s.method !== undefined;

/**
 * Loads the scenarios of one phase (`reads`, `writes` or both) RUNS times each, and adds the medians to
 * `out` (a server's figures, which may already hold the other phase). Reads go before writes: the
 * write scenarios add thousands of articles, and a faster server would otherwise be read on more data.
 */
async function measure(
  server,
  only,
  phase = 'all',
  out = { cold: server.cold, idleRss: null, quietRss: null, loadRss: 0, scenarios: {}, runs: {} },
  ceiling = null,
  ceilingRuns = {},
) {
  const list = (await scenarios(server)).filter((s) => (!only || only.includes(s.name)) && (phase === 'all' || (phase === 'writes') === isWrite(s)));
  if (out.idleRss === null) {
    for (const s of list.filter((x) => !isWrite(x)).slice(0, 2)) await autocannon({ url: server.base + s.path, headers: s.headers, connections: CONNECTIONS, duration: 2 });
    await sleep(1000);
    out.idleRss = treeRss(server.child.pid);
    // a server may give memory back once its requests stop (Folio does, after a few seconds): read
    // again after a quiet spell, the same for every server
    await sleep(Math.max(0, QUIET_S - 1) * 1000);
    out.quietRss = treeRss(server.child.pid);
  }
  for (const group of [list.filter((x) => !isWrite(x)), list.filter(isWrite)]) {
    for (let run = 0; run < RUNS; run++) {
      for (const s of group) {
        const timer = setInterval(() => {
          out.loadRss = Math.max(out.loadRss, treeRss(server.child.pid));
        }, 250);
        const r = await load(server.base, s);
        clearInterval(timer);
        (out.runs[s.name] ??= []).push(r);
        process.stdout.write(
          `  ${server.label ?? server.name} ${s.name} (run ${run + 1}/${RUNS}): ${r.rps.toFixed(0)} req/s${r.errors ? ` — ${r.errors} errors or non-2xx answers` : ''}\n`,
        );
        if (ceiling && !isWrite(s) && !s.mixed) {
          const c = await load(ceiling.base, s);
          (ceilingRuns[s.name] ??= []).push(c);
          process.stdout.write(`  ceiling ${s.name} (run ${run + 1}/${RUNS}): ${c.rps.toFixed(0)} req/s\n`);
        }
      }
    }
  }
  for (const [name, rs] of Object.entries(out.runs)) {
    out.scenarios[name] = { rps: median(rs.map((r) => r.rps)), p50: median(rs.map((r) => r.p50)), p99: median(rs.map((r) => r.p99)), errors: rs.reduce((n, r) => n + r.errors, 0) };
  }
  return out;
}

/** Median of three starts of Folio on the already seeded data: process start to first 200. */
async function folioColdStarts(port, dbEnv, extraEnv, n = 3) {
  const colds = [];
  for (let i = 0; i < n; i++) {
    const f = await startFolio(port, dbEnv, extraEnv);
    colds.push(f.cold);
    f.child.kill('SIGTERM');
    await new Promise((r) => f.child.once('exit', r));
  }
  return { median: median(colds), all: colds };
}

/**
 * A bare Fastify server answering, for each read scenario, the bytes Folio answered, in its own process:
 * the ceiling of the HTTP layer, and (after the same warm-up as the servers) the idle RSS of a server that
 * does nothing. It is loaded right after Folio on each run of each scenario, so the two are paired in time
 * on a machine whose speed drifts.
 */
async function startCeiling(folio) {
  const dir = mkdtempSync(join(tmpdir(), 'folio-ceiling-'));
  const manifest = {};
  const reads = (await scenarios(folio)).filter((s) => !isWrite(s) && !s.mixed);
  for (const [i, s] of reads.entries()) {
    const res = await fetch(folio.base + s.path, { headers: s.headers });
    if (res.status !== 200) throw new Error(`ceiling: ${s.path} answered ${res.status}`);
    manifest[s.path] = join(dir, `${i}.json`);
    writeFileSync(manifest[s.path], Buffer.from(await res.arrayBuffer()));
  }
  writeFileSync(join(dir, 'manifest.json'), JSON.stringify(manifest));
  const port = 13372;
  const child = run('node', [join(root, 'bench', 'ceiling-server.mjs'), join(dir, 'manifest.json'), String(port)]);
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/articles`, null, performance.now());
  for (let i = 0; i < 2; i++) await autocannon({ url: `${base}/api/articles`, connections: CONNECTIONS, duration: 2 });
  await sleep(1000);
  return {
    name: 'ceiling',
    base,
    child,
    idleRss: treeRss(child.pid),
    async stop() {
      await stop({ child });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The ceiling's medians per scenario, and Folio's share of it: the median of the paired runs' ratios. */
function ceilingFigures(ceil, folioRuns, ceilingRuns) {
  const scenarios = {};
  for (const [name, rs] of Object.entries(ceilingRuns)) {
    const f = folioRuns[name];
    scenarios[name] = {
      rps: median(rs.map((r) => r.rps)),
      p50: median(rs.map((r) => r.p50)),
      p99: median(rs.map((r) => r.p99)),
      share: median(rs.map((r, i) => f[i].rps / r.rps)),
      runs: rs,
    };
  }
  return { idleRss: ceil.idleRss, scenarios };
}

function fmt(n, d = 0) {
  return n === null || n === undefined ? '—' : Number(n).toFixed(d);
}

const stop = async (server) => {
  server.child.kill('SIGTERM');
  if (server.child.exitCode === null) await new Promise((r) => server.child.once('exit', r));
};

/**
 * One database's round: Folio with its response cache on (its default on both SQLite and PostgreSQL)
 * and off, then Strapi, each on freshly seeded data. Every server is read before anything is written
 * (Folio: cached reads, uncached reads and writes, then cached writes on a restart).
 */
async function round(db, only, servers) {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-'));
  const out = { database: db, servers: {} };
  try {
    if (db === 'postgres') await freshPostgres(['folio_bench', ...(STRAPI_DIR ? ['strapi_bench'] : [])]);
    const folioDb = databaseEnv(db, dataDir, 'folio');
    const cacheOn = { FOLIO_RESPONSE_CACHE: 'on' };
    console.log(`[${db}] Starting Folio…`);
    const folio = await startFolio(13370, folioDb, cacheOn);
    servers.push(folio);
    console.log(`  cold start ${folio.cold.toFixed(2)} s; seeding ${ARTICLES} articles…`);
    out.seedFolio = await seed(folio);
    await settle(folioDb);
    // both Folio configurations are read on the seeded data alone, before either writes
    const ceil = await startCeiling(folio);
    const ceilingRuns = {};
    try {
      out.servers.folio = await measure(folio, only, 'reads', undefined, ceil, ceilingRuns);
    } finally {
      await ceil.stop();
    }
    out.ceiling = ceilingFigures(ceil, out.servers.folio.runs, ceilingRuns);
    await stop(folio);
    const colds = await folioColdStarts(13370, folioDb, cacheOn);
    console.log(`[${db}] Folio again, response cache off…`);
    const plain = await startFolio(13370, folioDb, { FOLIO_RESPONSE_CACHE: 'off' });
    plain.label = 'folio (no cache)';
    servers.push(plain);
    out.servers.folioNoCache = await measure(plain, only, 'all');
    await stop(plain);
    console.log(`[${db}] Folio with the response cache, writes…`);
    const again = await startFolio(13370, folioDb, cacheOn);
    servers.push(again);
    out.servers.folio = await measure(again, only, 'writes', out.servers.folio);
    await stop(again);
    out.servers.folio.cold = colds.median;
    out.servers.folio.colds = colds.all;
    if (STRAPI_DIR) {
      console.log(`[${db}] Starting Strapi…`);
      const strapiDb = databaseEnv(db, dataDir, 'strapi');
      const strapi = await startStrapi(13371, strapiDb);
      servers.push(strapi);
      console.log(`  cold start ${strapi.cold.toFixed(2)} s; seeding…`);
      out.seedStrapi = await seed(strapi);
      await settle(strapiDb);
      out.servers.strapi = await measure(strapi, only);
      await stop(strapi);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

function printRound(r, meta) {
  const f = r.servers.folio;
  const n = r.servers.folioNoCache;
  const s = r.servers.strapi;
  const ceil = r.ceiling;
  const ratio = (a, b) => (a && b ? `${fmt(a.rps / b.rps, 1)}×` : '—');
  const pct = (v) => (v === null || v === undefined || Number.isNaN(v) ? '' : `${fmt(100 * v)} %`);
  const rows = [
    ['scenario', 'cache req/s', 'p50', 'p99', 'ceiling req/s', 'of ceiling', 'no-cache req/s', 'p50', 'p99', 'of ceiling', 'strapi req/s', 'p50', 'p99', 'ratio', 'no-cache ratio'],
  ];
  for (const name of Object.keys(f.scenarios)) {
    const a = f.scenarios[name];
    const c = n.scenarios[name];
    const b = s?.scenarios[name];
    const top = ceil.scenarios[name];
    rows.push([
      name,
      fmt(a.rps),
      fmt(a.p50),
      fmt(a.p99),
      top ? fmt(top.rps) : '',
      pct(top?.share),
      fmt(c.rps),
      fmt(c.p50),
      fmt(c.p99),
      top ? pct(c.rps / top.rps) : '',
      fmt(b?.rps),
      fmt(b?.p50),
      fmt(b?.p99),
      ratio(a, b),
      ratio(c, b),
    ]);
  }
  const blank = (k) => Array(k).fill('');
  rows.push(['cold start (s)', fmt(f.cold, 2), ...blank(8), fmt(s?.cold, 2), ...blank(4)]);
  rows.push(['idle RSS, 1 s after load (MB)', fmt(f.idleRss), '', '', fmt(ceil.idleRss), '', fmt(n.idleRss), ...blank(3), fmt(s?.idleRss), ...blank(4)]);
  rows.push([`idle RSS, ${meta.quiet ?? '—'} s after load (MB)`, fmt(f.quietRss), ...blank(4), fmt(n.quietRss), ...blank(3), fmt(s?.quietRss), ...blank(4)]);
  rows.push(['RSS under load (MB)', fmt(f.loadRss), ...blank(4), fmt(n.loadRss), ...blank(3), fmt(s?.loadRss), ...blank(4)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((row) => String(row[i]).length)));
  console.log(
    `\n${r.database}: medians of ${meta.runs} runs of ${meta.duration} s, ${meta.connections} connections (8 for writes), ${meta.articles} seeded articles` +
      ' (Folio ships with the cache on; the ceiling is a bare Fastify server answering the same bytes, loaded right after each cached run,' +
      ' and "of ceiling" the median of those paired ratios)',
  );
  for (const row of rows) console.log(row.map((c, i) => String(c).padEnd(widths[i])).join('  '));
  // a request that failed is not a request served: a row with any is not a result
  for (const [who, server] of Object.entries(r.servers))
    for (const [name, sc] of Object.entries(server?.scenarios ?? {})) if (sc.errors) console.log(`WARNING: ${who} ${name}: ${sc.errors} errors or non-2xx answers across its runs`);
}

async function main() {
  const printAt = process.argv.indexOf('--print');
  if (printAt !== -1) {
    const saved = JSON.parse(readFileSync(process.argv[printAt + 1], 'utf8'));
    console.log(`Run of ${saved.date}, Node ${saved.node}, ${saved.workers} worker(s)`);
    for (const r of Object.values(saved.rounds)) printRound(r, saved);
    return;
  }
  const only = process.env.BENCH_SCENARIOS?.split(',');
  const unknown = DATABASES.filter((d) => d !== 'sqlite' && d !== 'postgres');
  if (unknown.length) throw new Error(`BENCH_DATABASES: unknown database ${unknown.join(', ')} (sqlite, postgres)`);
  const results = {
    date: new Date().toISOString(),
    node: process.version,
    duration: DURATION,
    connections: CONNECTIONS,
    articles: ARTICLES,
    workers: WORKERS,
    runs: RUNS,
    quiet: QUIET_S,
    rounds: {},
  };
  const servers = [];
  try {
    for (const db of DATABASES) results.rounds[db] = await round(db, only, servers);
  } finally {
    for (const s of servers) if (s.child.exitCode === null) s.child.kill('SIGKILL');
  }
  for (const r of Object.values(results.rounds)) printRound(r, results);
  mkdirSync(join(here, 'results'), { recursive: true });
  const file = join(here, 'results', `${results.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, JSON.stringify(results, null, 2));
  console.log(`\nWrote ${file}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
