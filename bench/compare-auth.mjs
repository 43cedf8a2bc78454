#!/usr/bin/env node
// Sends the same users-permissions requests (login, register, password routes, /api/users, roles) to
// Folio and to the reference Strapi, in order, and prints every answer that differs: status, body
// (ids, documentIds, dates and tokens masked) and Location. Each server keeps its own tokens, user
// ids and mailed codes, so a step can name "the user made earlier" on both.
//
//   FOLIO=http://127.0.0.1:4000 FOLIO_TOKEN=… STRAPI=http://127.0.0.1:1337 STRAPI_TOKEN=… node bench/compare-auth.mjs [steps.mjs]
//
// The default steps are bodies that fail validation or name users this run makes (random names), so
// two servers whose databases differ still answer alike. A steps module default-exports a list of
// { method?, path, body?, raw?, auth?: 'token' | <saved name>, save?: <name>, mail?: <address> }:
// `save` keeps the answer's jwt, refreshToken and user id under a name (`@id:<name>` and
// `@refresh:<name>` in a path or body stand for them); `mail` puts the code of the last mail to that
// address in place of `@code` (FOLIO_MAILS / STRAPI_MAILS: a folder holding one file per recipient).
// Differences Folio keeps on purpose are in the README ("Differences from Strapi"): passwords are
// never echoed, for one.
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

const servers = [
  { label: 'folio', base: process.env.FOLIO, token: process.env.FOLIO_TOKEN, mails: process.env.FOLIO_MAILS },
  { label: 'strapi', base: process.env.STRAPI, token: process.env.STRAPI_TOKEN, mails: process.env.STRAPI_MAILS },
];
if (servers.some((s) => !s.base || !s.token)) throw new Error('FOLIO, FOLIO_TOKEN, STRAPI and STRAPI_TOKEN are needed');

const MASKED = new Set(['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'loginAt', 'lastActiveAt']);

/** the answer with what differs between any two servers anyway masked */
function masked(v) {
  if (Array.isArray(v)) return v.map(masked);
  if (!v || typeof v !== 'object') return v;
  const out = {};
  for (const k of Object.keys(v).sort()) {
    if (k === 'jwt' || k === 'refreshToken') out[k] = typeof v[k];
    else if (MASKED.has(k)) out[k] = v[k] === null ? null : `<${k}>`;
    else if (k === 'id' && typeof v[k] === 'number') out[k] = '<id>';
    else out[k] = masked(v[k]);
  }
  return out;
}

function mailCode(folder, address) {
  try {
    const raw = readFileSync(`${folder}/${address}`, 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/g, '=');
    return raw.match(/(?:confirmation|code)=([0-9a-f]{10,})/)?.[1] ?? 'no-code-in-mail';
  } catch {
    return 'no-mail';
  }
}

/** the step with this server's saved values in place of its placeholders */
function filled(step, server) {
  let text = JSON.stringify(step);
  text = text.replace(/@(id|refresh):([\w-]+)/g, (_, kind, name) => String(server.saved.get(`${kind}:${name}`) ?? 'unknown'));
  if (step.mail) text = text.replaceAll('@code', server.mails ? mailCode(server.mails, step.mail) : 'no-mail-folder');
  return JSON.parse(text);
}

async function send(server, raw) {
  const step = filled(raw, server);
  const headers = { 'content-type': 'application/json' };
  if (step.auth === 'token') headers.authorization = `Bearer ${server.token}`;
  else if (step.auth) headers.authorization = `Bearer ${server.saved.get(`jwt:${step.auth}`) ?? 'none'}`;
  const init = { method: step.method ?? 'GET', headers, redirect: 'manual' };
  if (step.raw !== undefined) init.body = step.raw;
  else if (step.body !== undefined) init.body = JSON.stringify(step.body);
  const r = await fetch(server.base + step.path, init);
  const text = await r.text();
  let body;
  try {
    body = JSON.parse(text);
  } catch {
    body = text.slice(0, 300);
  }
  if (step.save && body && typeof body === 'object') {
    if (body.jwt) server.saved.set(`jwt:${step.save}`, body.jwt);
    if (body.refreshToken) server.saved.set(`refresh:${step.save}`, body.refreshToken);
    const id = body.user?.id ?? body.id;
    if (typeof id === 'number') server.saved.set(`id:${step.save}`, id);
  }
  return { status: r.status, body: masked(body), location: r.headers.get('location') };
}

function defaultSteps() {
  const run = randomBytes(3).toString('hex');
  const name = (n) => `c${run}${n}`;
  const P = (path, body, extra = {}) => ({ method: 'POST', path, body, ...extra });
  const bad = ['', null, 5, [1], { $ne: '' }];
  const user = (n, extra = {}) => ({ username: name(n), email: `${name(n)}@example.com`, password: 'secret123', ...extra });
  const steps = [P('/api/auth/local/register', user('a'), { save: 'a' })];
  for (const v of bad) {
    steps.push(P('/api/auth/local', { identifier: v, password: v }));
    steps.push(P('/api/auth/local/register', { username: v, email: v, password: v }));
    steps.push(P('/api/auth/forgot-password', { email: v }));
    steps.push(P('/api/auth/reset-password', { code: v, password: 'secret123', passwordConfirmation: v }));
    steps.push(P('/api/auth/change-password', { currentPassword: v, password: v, passwordConfirmation: 'x' }, { auth: 'a' }));
    steps.push({ path: `/api/auth/email-confirmation?confirmation=${encodeURIComponent(String(v))}` });
    steps.push(P('/api/users', user('r', { role: v }), { auth: 'token' }));
    steps.push({ method: 'PUT', path: '/api/users/@id:a', body: { email: v, username: v, role: v }, auth: 'token' });
  }
  for (const raw of ['[]', '[1, 2]', '"text"', '{"identifier": "x"']) {
    for (const path of ['/api/auth/local', '/api/auth/local/register', '/api/auth/forgot-password', '/api/auth/reset-password']) steps.push(P(path, undefined, { raw }));
  }
  for (const role of [999999, 'nope', { connect: [] }, { connect: [{ id: 999999 }] }, { set: [] }, { disconnect: [{ id: 1 }] }, -1, 1.5, true]) {
    steps.push(P('/api/users', user('q', { role }), { auth: 'token' }));
    steps.push({ method: 'PUT', path: '/api/users/@id:a', body: { role }, auth: 'token' });
  }
  steps.push(P('/api/auth/reset-password', { password: 'secret123', passwordConfirmation: '' }));
  steps.push(P('/api/auth/reset-password', { code: 'c', password: 'a', passwordConfirmation: 'b', extra: 1 }));
  steps.push(P('/api/auth/forgot-password', { email: 'bad', x: 1 }));
  steps.push(P('/api/users', user('s', { username: 'ab', password: '12', role: 1 }), { auth: 'token' }));
  steps.push({ method: 'PUT', path: '/api/users/@id:a', body: { email: 'bad', username: '' }, auth: 'token' });
  for (const q of ['limit=-1', 'limit=1.5', 'start=-1', 'start=abc', 'limit=0'])
    steps.push({ path: `/api/users?fields[0]=username&filters[username][$eq]=${name('a')}&${q}`, auth: 'token' });
  steps.push({ path: '/api/users/me', auth: 'a' });
  steps.push({ method: 'DELETE', path: '/api/users/@id:a', auth: 'token' });
  return steps;
}

const steps = process.argv[2] ? (await import(new URL(process.argv[2], `file://${process.cwd()}/`).href)).default : defaultSteps();
for (const s of servers) s.saved = new Map();
let differing = 0;
for (const step of steps) {
  const [a, b] = [await send(servers[0], step), await send(servers[1], step)];
  const [ta, tb] = [JSON.stringify(a), JSON.stringify(b)];
  if (ta === tb) continue;
  differing++;
  console.log(`\n### ${step.method ?? 'GET'} ${step.path} ${step.raw ?? JSON.stringify(step.body ?? '')} ${step.auth ?? ''}`);
  console.log(`folio  ${ta.slice(0, 1200)}`);
  console.log(`strapi ${tb.slice(0, 1200)}`);
}
console.log(`\n${steps.length} steps, ${differing} answered differently`);
