#!/usr/bin/env node
// Compares builds (or Node flags, or settings) by CPU time per request rather than req/s: on a shared
// 2-core machine whose speed drifts by 2–3× within minutes, req/s of runs made minutes apart mean
// little. Every build serves at once, each pinned to core 1 (autocannon runs on core 0 if this script
// is started with `taskset -c 0`); the loads alternate in short slices, and each slice's CPU time of
// the server (and of the database server's processes on PostgreSQL and MariaDB/MySQL) is divided by the requests it answered.
// The median of the per-slice ratios to the first build is printed beside the means. Each build starts
// with the Node flags its own package.json start script gives (bench/shipped-flags.mjs), then those given after `|`.
//
//   taskset -c 0 node bench/cpu-ab.mjs old=/path/to/old/dist/cli/main.js new=dist/cli/main.js 'new-flag=dist/cli/main.js|--max-semi-space-size=8'
//
// Env: TOKEN (a full-access API token of the database), the database as for `folio start`
// (DATABASE_CLIENT, DATABASE_FILENAME or DATABASE_HOST/NAME/…), already seeded (../shared/tools/seed.mjs);
// AB_SLICES (6 per scenario and build), AB_SECONDS (2), AB_ONLY (comma list of scenario names),
// AB_ENV_<label> (extra environment for one build, as `K=V,K=V`). The response cache is off.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { shippedNodeFlags } from './shipped-flags.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const token = process.env.TOKEN;
if (!token) throw new Error('TOKEN: a full-access API token of the seeded database');
const builds = process.argv.slice(2).map((arg) => {
  const [label, rest] = arg.split(/=(.*)/s);
  const [script, flags] = rest.split('|');
  const extra = Object.fromEntries(
    (process.env[`AB_ENV_${label}`] ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => kv.split(/=(.*)/s)),
  );
  return { label, script, flags: flags ? flags.split(' ') : [], extra };
});
if (builds.length < 2) throw new Error('name at least two builds: label=path/to/main.js[|node flags]');
const slices = Number(process.env.AB_SLICES ?? 6);
const seconds = Number(process.env.AB_SECONDS ?? 2);
const headers = { authorization: `Bearer ${token}` };
const DEEP = 'populate[author][populate][0]=profile&populate[categories][fields][0]=name&populate[seo][populate]=*&populate[blocks][populate]=*';

/**
 * user + system CPU of a process in ms (clock ticks of 10 ms), with that of its ended children: a
 * PostgreSQL backend that ends (Folio replaces read connections) takes its CPU out of the live sum,
 * and the postmaster, which reaps it, adds it to its own children's time.
 */
function cpuOf(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10;
}

/** CPU of the database server's processes (PostgreSQL's backends, or MariaDB/MySQL's one process) */
function serverCpu(names) {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (names.includes(readFileSync(`/proc/${pid}/comm`, 'utf8').trim())) total += cpuOf(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return total;
}

const servers = builds.map((b, i) => {
  const port = 13900 + i;
  const env = { ...process.env, ...b.extra, PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', FOLIO_RESPONSE_CACHE: 'off' };
  const child = spawn('taskset', ['-c', '1', 'node', ...shippedNodeFlags(b.script), ...b.flags, b.script, 'start', '--dir', join(root, 'examples', 'blog')], {
    env,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  return { ...b, child, base: `http://127.0.0.1:${port}` };
});
try {
  for (const s of servers) {
    for (;;) {
      const ok = await fetch(`${s.base}/api/articles`, { headers }).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (s.child.exitCode !== null) throw new Error(`${s.label} exited with ${s.child.exitCode}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const first = await (await fetch(`${servers[0].base}/api/articles?pagination[pageSize]=1&fields[0]=title`, { headers })).json();
  const only = process.env.AB_ONLY?.split(',');
  const scenarios = Object.entries({
    list: '/api/articles',
    'populate=*': '/api/articles?populate=*',
    'deep populate': `/api/articles?${DEEP}`,
    'deep populate 100': `/api/articles?${DEEP}&pagination[pageSize]=100`,
    'deep populate sorted': `/api/articles?${DEEP}&sort=views:desc&pagination[page]=2`,
    'relation filter+sort': '/api/articles?filters[categories][name][$containsi]=category&sort=views:desc&pagination[withCount]=true',
    'relation filter one': '/api/articles?filters[categories][name][$containsi]=category%207&sort=views:desc&pagination[withCount]=true',
    'findOne populate=*': `/api/articles/${first.data[0].documentId}?populate=*`,
  }).filter(([name]) => !only || only.includes(name));
  const client = process.env.DATABASE_CLIENT;
  const server = client === 'postgres' ? { label: 'PostgreSQL', names: ['postgres'] } : client === 'mysql' ? { label: 'MariaDB/MySQL', names: ['mariadbd', 'mysqld'] } : null;
  for (const s of servers) for (const [, path] of scenarios) await autocannon({ url: s.base + path, headers, connections: 10, duration: 1 });
  for (const [name, path] of scenarios) {
    const own = new Map(servers.map((s) => [s.label, []]));
    const db = new Map(servers.map((s) => [s.label, []]));
    for (let i = 0; i < slices; i++) {
      // alternate the order, so neither build always runs right after the other
      for (const s of i % 2 ? [...servers].reverse() : servers) {
        const [c0, p0] = [cpuOf(s.child.pid), server ? serverCpu(server.names) : 0];
        const r = await autocannon({ url: s.base + path, headers, connections: 10, duration: seconds });
        if (r.errors + r.non2xx > 0) throw new Error(`${s.label} ${name}: ${r.errors + r.non2xx} failed requests`);
        own.get(s.label).push(((cpuOf(s.child.pid) - c0) * 1000) / r.requests.total);
        if (server) db.get(s.label).push(((serverCpu(server.names) - p0) * 1000) / r.requests.total);
      }
    }
    const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
    const medianRatio = (xs, base) => xs.map((x, i) => x / base[i]).sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
    const line = (m) => servers.map((s) => `${s.label} ${mean(m.get(s.label)).toFixed(0)} µs (×${medianRatio(m.get(s.label), m.get(servers[0].label)).toFixed(2)})`).join('  ');
    console.log(`${name.padEnd(22)} Folio CPU/request: ${line(own)}`);
    if (server) console.log(`${''.padEnd(22)} ${server.label} CPU/request: ${line(db)}`);
  }
} finally {
  for (const s of servers) s.child.kill();
}
