#!/usr/bin/env node
// Sends the same random write requests (POST create, PUT update of collection and single types, DELETE) to Folio
// and to the reference Strapi, both seeded alike (../shared/tools/seed.mjs, SEED_CONCURRENCY=1 and the same
// SEED_ARTICLES), in the same order, and prints where their answers differ: the status, the error (name, message,
// details.errors[] path and message), and for writes that succeed on both the response and a read-back of the
// document (`populate=*`, same locale and status), with row ids, timestamps and file hashes normalised and document
// ids mapped between the two servers (seeded documents are paired by their first attribute in creation order,
// created ones by the responses).
// Payloads are built from the example app's schema files, valid or broken on purpose (wrong types, unknown keys,
// missing required fields, bad `__component`, relation forms and positions, missing media, out-of-range values,
// private and read-only keys, huge values, nested `data`, null everywhere) unless COMPARE_VALID=1.
//
//   FOLIO=http://127.0.0.1:1338 FOLIO_TOKEN=… STRAPI=http://127.0.0.1:1337 STRAPI_TOKEN=… node bench/compare-writes.mjs
//
// Env: COMPARE_N (500 writes), COMPARE_SEED (1), COMPARE_VALID (only valid payloads), COMPARE_ALL (also list
// differences README's "Differences from Strapi" explains: see `known` below, and Strapi's 500s), COMPARE_VERBOSE
// (print request bodies in full). Each kind of difference is printed once, with the first request that showed it.
// A write that succeeds on one server only is undone there (DELETE, every locale) so both stay in step; a document
// whose update succeeded on one side only is no longer used.
import { exampleSchemas, seededRandom, servers } from './compare-common.mjs';

const env = process.env;
const SIDES = servers(env);
const N = Number(env.COMPARE_N ?? 500);
const VALID = env.COMPARE_VALID === '1';
const { rnd, pick } = seededRandom(env.COMPARE_SEED ?? 1);
const int = (lo, hi) => lo + Math.floor(rnd() * (hi - lo + 1));
const WORDS = 'alpha beta gamma delta river stone cloud ember frost meadow harbor lantern quartz'.split(' ');
const words = (n) => Array.from({ length: n }, () => pick(WORDS)).join(' ');
const { types, components } = exampleSchemas();
const dp = (t) => t.options?.draftAndPublish === true;
const localized = (t) => t.pluginOptions?.i18n?.localized === true;

// ---- talking to both servers

async function call(side, method, path, body) {
  const { base, token } = SIDES[side];
  const headers = { authorization: `Bearer ${token}` };
  let payload;
  if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = typeof body === 'string' ? body : JSON.stringify(body);
  }
  const res = await fetch(base + path, { method, headers, body: payload }).catch((e) => e);
  if (res instanceof Error) return { status: 0, body: { error: { message: `no answer: ${res.cause?.code ?? res.message}` } } };
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = { raw: text.slice(0, 200) };
  }
  return { status: res.status, body: json };
}

// ---- pairs of documents: { folio: documentId, strapi: documentId, type, label }

const pools = new Map(); // uid -> pairs
const byId = new Map(); // either side's documentId -> pair
function addPair(uid, folio, strapi) {
  const pair = { folio, strapi, uid, n: byId.size / 2 };
  if (!pools.has(uid)) pools.set(uid, []);
  pools.get(uid).push(pair);
  byId.set(folio, pair);
  byId.set(strapi, pair);
  return pair;
}
function dropPair(pair) {
  const list = pools.get(pair.uid);
  const i = list.indexOf(pair);
  if (i >= 0) list.splice(i, 1);
}

async function listAll(side, plural, query) {
  const out = [];
  for (let page = 1; ; page++) {
    const r = await call(side, 'GET', `/api/${plural}?${query}&sort[0]=createdAt:asc&sort[1]=id:asc&pagination[pageSize]=100&pagination[page]=${page}`);
    if (r.status !== 200) throw new Error(`${side} ${plural}: ${r.status} ${JSON.stringify(r.body).slice(0, 200)}`);
    out.push(...r.body.data);
    if (page >= r.body.meta.pagination.pageCount) return out;
  }
}

const files = []; // [{folio: id, strapi: id}]
async function pairSeeded() {
  for (const [uid, t] of types) {
    const q = `${dp(t) ? 'status=draft' : ''}${localized(t) ? '&locale=en' : ''}`;
    if (t.kind === 'singleType') {
      const [f, s] = await Promise.all(['folio', 'strapi'].map((side) => call(side, 'GET', `/api/${t.info.singularName}?${q}`)));
      if (f.status === 200 && s.status === 200) addPair(uid, f.body.data.documentId, s.body.data.documentId);
      continue;
    }
    const [f, s] = await Promise.all(['folio', 'strapi'].map((side) => listAll(side, t.info.pluralName, q)));
    // documents with the same first attribute, in creation order (a write that went through on one side only may
    // have left a document there)
    const label = Object.keys(t.attributes)[0];
    const waiting = new Map();
    for (const d of s) waiting.set(d[label], [...(waiting.get(d[label]) ?? []), d]);
    let skipped = 0;
    for (const d of f) {
      const other = waiting.get(d[label])?.shift();
      if (other) addPair(uid, d.documentId, other.documentId);
      else skipped++;
    }
    if (skipped || f.length !== s.length) console.log(`note: ${uid}: ${f.length} vs ${s.length} documents, ${skipped} not paired`);
  }
  const [f, s] = await Promise.all(['folio', 'strapi'].map((side) => call(side, 'GET', '/api/upload/files?sort=id:asc')));
  const fl = [...f.body].sort((a, b) => a.id - b.id);
  const sl = [...s.body].sort((a, b) => a.id - b.id);
  for (let i = 0; i < Math.min(fl.length, sl.length); i++)
    if (fl[i].name === sl[i].name) files.push({ folio: fl[i].id, strapi: sl[i].id, documentId: { folio: fl[i].documentId, strapi: sl[i].documentId } });
}

// ---- payload templates: Ref/FileRef are rendered per side

class Ref {
  constructor(pair) {
    this.pair = pair;
  }
}
class FileRef {
  constructor(file, byDocumentId) {
    this.file = file;
    this.byDocumentId = byDocumentId;
  }
}
function render(v, side) {
  if (v instanceof Ref) return v.pair[side];
  if (v instanceof FileRef) return v.byDocumentId ? v.file.documentId[side] : v.file[side];
  if (Array.isArray(v)) return v.map((x) => render(x, side));
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, render(x, side)]));
  return v;
}
/** the template as text, refs shown by pair number */
function show(v) {
  return JSON.stringify(v, (k, x) => (x instanceof Ref ? `<doc${x.pair.n}>` : x instanceof FileRef ? `<file ${x.file.folio}>` : x));
}

const refOf = (uid) => {
  const list = pools.get(uid) ?? [];
  return list.length ? new Ref(pick(list)) : 'nodocument';
};
const fileOf = () => (files.length ? new FileRef(pick(files), rnd() < 0.2) : 1);

function relationItem(uid, longhand) {
  const ref = refOf(uid);
  if (!longhand) return ref;
  const item = { documentId: ref };
  if (rnd() < 0.5) {
    const r = rnd();
    item.position = r < 0.25 ? { start: true } : r < 0.5 ? { end: true } : r < 0.75 ? { before: refOf(uid) } : { after: refOf(uid) };
  }
  if (rnd() < 0.15) item.locale = pick(['en', 'fr']);
  if (rnd() < 0.15) item.status = pick(['draft', 'published']);
  return item;
}

function relationValue(a) {
  if (a.target === 'plugin::users-permissions.user') return null;
  const many = a.relation.endsWith('ToMany');
  const r = rnd();
  if (!many) {
    if (r < 0.5) return refOf(a.target);
    if (r < 0.65) return { documentId: refOf(a.target) };
    if (r < 0.8) return { connect: [relationItem(a.target, rnd() < 0.5)] };
    if (r < 0.9) return { set: [relationItem(a.target, false)] };
    return null;
  }
  const n = int(0, 3);
  const items = (longhand) => Array.from({ length: n }, () => relationItem(a.target, longhand));
  if (r < 0.3) return items(false);
  if (r < 0.6) return { connect: items(rnd() < 0.6) };
  if (r < 0.7) return { disconnect: items(false) };
  if (r < 0.8) return { connect: items(true), disconnect: [relationItem(a.target, false)] };
  return { set: items(rnd() < 0.3) };
}

function validValue(name, a, uniq) {
  switch (a.type) {
    case 'string': {
      const max = a.maxLength ?? 255;
      const s = a.regex ? `#${int(0, 0xffffff).toString(16).padStart(6, '0')}` : `${words(int(1, 3))}${a.unique ? ` ${uniq}` : ''}`;
      return s.slice(0, max);
    }
    case 'text':
    case 'richtext':
      return words(int(1, 8)).slice(0, a.maxLength ?? 10000);
    case 'uid':
      return `slug-${uniq}`;
    case 'email':
      return `${pick(WORDS)}${int(1, 99)}@example.com`;
    case 'integer':
      return int(a.min ?? 0, a.max ?? 1000);
    case 'biginteger':
      return pick(['9007199254740993', '42', 42]);
    case 'decimal':
      return int(0, 500) / 4;
    case 'float':
      return int(0, 800) / 8;
    case 'boolean':
      return rnd() < 0.5;
    case 'date':
      return `202${int(0, 5)}-0${int(1, 9)}-1${int(0, 9)}`;
    case 'time':
      return `1${int(0, 9)}:${int(10, 59)}:${int(10, 59)}.000`;
    case 'datetime':
      return `202${int(0, 5)}-0${int(1, 9)}-1${int(0, 9)}T1${int(0, 9)}:00:00.000Z`;
    case 'json':
      return pick([{ a: 1, b: [true, null] }, [1, 2], 'text', 5, { nested: { k: 'v' } }]);
    case 'enumeration':
      return pick(a.enum);
    case 'blocks':
      return [{ type: 'paragraph', children: [{ type: 'text', text: words(3) }] }];
    case 'media':
      return a.multiple ? Array.from({ length: int(0, 3) }, fileOf) : fileOf();
    case 'relation':
      return relationValue(a);
    case 'component': {
      const c = components.get(a.component);
      return a.repeatable ? Array.from({ length: int(0, 2) }, () => validObject(c, uniq)) : validObject(c, uniq);
    }
    case 'dynamiczone':
      return Array.from({ length: int(0, 3) }, () => {
        const uid = pick(a.components);
        return { __component: uid, ...validObject(components.get(uid), uniq) };
      });
    default:
      return null;
  }
}

function validObject(schema, uniq, all = false) {
  const out = {};
  for (const [name, a] of Object.entries(schema.attributes)) {
    if (a.private) continue;
    if (!all && !a.required && rnd() < 0.5) continue;
    const v = validValue(name, a, uniq);
    if (v !== null || a.type !== 'relation') out[name] = v;
  }
  return out;
}

// ---- breaking a payload

const WRONG = {
  string: [123, true, {}, ['a'], 'x'.repeat(256)],
  text: [123, false, { a: 1 }],
  richtext: [5, []],
  uid: ['bad slug!', 'é', 5, '', 'a/b'],
  email: ['notanemail', 5, 'a@b'],
  integer: ['abc', 1.5, '12', true, -1, 2147483648, [5], '', null],
  biginteger: ['abc', 1.5, '1e3', true, '+12'],
  decimal: ['x', {}, '3.5', true, 12345678901],
  float: ['x', [], '2.5', false],
  boolean: ['yes', 2, 'true', 0, 't', []],
  date: ['2024-13-45', 123, 'notadate', '2024-01-01T10:00:00Z', ''],
  time: ['25:00', '10:00', 'x', 1000, '10:00:00'],
  datetime: ['garbage', 0, '2024-01-01', '', 1700000000000],
  json: [null, '[]', '{"a":', 'plain'],
  enumeration: ['bogus', 5, '', 'News', ['news']],
  blocks: ['text', [{}], [null], { type: 'paragraph' }, [{ type: 'paragraph', children: [] }], [{ type: 'bogus', children: [{ type: 'text', text: 'x' }] }]],
  media: [999999, 'nofile', [999999], {}, true, { connect: [1] }, { id: 999999 }, [1, 1]],
  relation: [
    'missingdoc',
    999999,
    { connect: ['missingdoc'] },
    { bogus: [] },
    { connect: [{ documentId: 'missingdoc', position: { before: 'nodoc' } }] },
    true,
    [[]],
    '',
    { set: [], connect: [] },
    1.5,
  ],
  component: ['x', 5, [], {}, [{}], { id: 999999 }],
  dynamiczone: [
    {},
    [{}],
    [{ __component: 'shared.bogus' }],
    [{ __component: 'shared.link', label: 'a', url: 'b' }],
    'x',
    [{ __component: 5 }],
    [{ __component: 'shared.quote', bogus: 1 }],
  ],
};

function attributesOf(schema) {
  return Object.entries(schema.attributes);
}

/** breaks one thing in `data` (a top-level object for `schema`); returns a label */
function breakOne(data, schema, uniq) {
  const r = rnd();
  const attrs = attributesOf(schema);
  const [name, a] = pick(attrs);
  if (r < 0.3) {
    data[name] = pick(WRONG[a.type] ?? [null]);
    return `wrong ${a.type}`;
  }
  if (r < 0.38) {
    data[pick(['bogus', 'constructor', '__proto__', 'Title', 'toString'])] = 1;
    return 'unknown key';
  }
  if (r < 0.46) {
    // unknown key (or read-only key) inside a component or a dynamic-zone entry
    const comp = attrs.filter(([, x]) => x.type === 'component' || x.type === 'dynamiczone');
    if (!comp.length) return breakOne(data, schema, uniq);
    const [cn, ca] = pick(comp);
    const key = pick(['bogus', 'createdAt', 'documentId', 'id', 'locale', '__component', 'publishedAt']);
    if (ca.type === 'dynamiczone') {
      const uid = pick(ca.components);
      data[cn] = [{ __component: uid, ...validObject(components.get(uid), uniq), [key]: key === 'id' ? 999999 : 'x' }];
    } else {
      const c = components.get(ca.component);
      const v = { ...validObject(c, uniq, true), [key]: key === 'id' ? 999999 : 'x' };
      if (rnd() < 0.3 && c.attributes.openGraph) v.openGraph = { ogTitle: 'x', bogus: 1 };
      data[cn] = ca.repeatable ? [v] : v;
    }
    return `key ${key} in ${ca.type}`;
  }
  if (r < 0.54) {
    const required = attrs.filter(([, x]) => x.required);
    for (const [n] of required) {
      if (rnd() < 0.5) delete data[n];
      else data[n] = null;
    }
    return 'required missing';
  }
  if (r < 0.64) {
    // constraint violations
    const c = pick(['views', 'title', 'seo', 'color', 'slug', 'contactEmail', 'metaDesc']);
    if (c === 'views') data.views = -1;
    else if (c === 'title') data.title = 't'.repeat(201);
    else if (c === 'seo') data.seo = { metaTitle: 'm'.repeat(71) };
    else if (c === 'metaDesc') data.seo = { metaTitle: 'm', metaDescription: 'd'.repeat(161) };
    else if (c === 'color') data.color = pick(['red', '#12345', '#GGGGGG']);
    else if (c === 'slug') data.slug = pick(['has space', 'ü', 'a'.repeat(256)]);
    else data.contactEmail = 'not-an-email';
    return `constraint ${c}`;
  }
  if (r < 0.72) {
    const k = pick(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', 'internalNotes', 'localizations', 'createdBy']);
    data[k] = k === 'id' ? 5 : k === 'publishedAt' ? pick([null, '2024-01-01T00:00:00.000Z']) : k === 'localizations' ? [] : 'x';
    return `key ${k}`;
  }
  if (r < 0.78) {
    for (const [n] of attrs) if (rnd() < 0.5) data[n] = null;
    return 'nulls';
  }
  if (r < 0.83) {
    const big = attrs.find(([, x]) => x.type === 'text' || x.type === 'richtext');
    if (big) data[big[0]] = 'x'.repeat(pick([70000, 300000]));
    else data[name] = Array.from({ length: 500 }, () => 'x');
    return 'huge';
  }
  // arrays where objects are expected and vice versa
  const comp = attrs.filter(([, x]) => x.type === 'component' || x.type === 'relation' || x.type === 'media');
  if (!comp.length) return breakOne(data, schema, uniq);
  const [cn, ca] = pick(comp);
  const many = ca.type === 'component' ? ca.repeatable : ca.type === 'media' ? ca.multiple : ca.relation.endsWith('ToMany');
  const v = validValue(cn, ca, uniq);
  data[cn] = many ? (Array.isArray(v) ? (v[0] ?? {}) : v) : [v];
  return `shape ${ca.type}`;
}

// ---- one write

let uniqCounter = 0;
function makeRequest() {
  const entries = [...types.entries()];
  const [uid, t] = pick(entries);
  const single = t.kind === 'singleType';
  const path = single ? `/api/${t.info.singularName}` : `/api/${t.info.pluralName}`;
  const q = [];
  // no unknown locale or status: Strapi writes them (README differences), and the databases would drift apart
  if (rnd() < (localized(t) ? 0.35 : 0.1)) q.push(`locale=${pick(['en', 'fr', 'fr', '*'])}`);
  if (rnd() < (dp(t) ? 0.4 : 0.1)) q.push(`status=${pick(['draft', 'draft', 'published'])}`);
  const r = rnd();
  const op = single ? (r < 0.9 ? 'PUT' : 'DELETE') : r < 0.5 ? 'POST' : r < 0.92 ? 'PUT' : 'DELETE';
  let target = null;
  if (!single && op !== 'POST') {
    target = rnd() < 0.05 ? 'missingdocumentid00000000' : refOf(uid);
    if (typeof target === 'string' && target === 'nodocument') return null;
  }
  const uniq = `u${++uniqCounter}`;
  let data = op === 'POST' ? validObject(t, uniq, rnd() < 0.3) : validObject({ attributes: Object.fromEntries(Object.entries(t.attributes).filter(() => rnd() < 0.3)) }, uniq);
  // a new article needs its required fields; an update sends a few
  for (const [n, a] of Object.entries(t.attributes)) if (op === 'POST' && a.required && !(n in data)) data[n] = validValue(n, a, uniq);
  const broken = [];
  if (!VALID && op !== 'DELETE' && rnd() < 0.65) for (let i = 0, n = int(1, 2); i < n; i++) broken.push(breakOne(data, t, uniq));
  let body = { data };
  if (!VALID && op !== 'DELETE' && rnd() < 0.06) {
    const k = pick(['nested', 'nodata', 'null', 'array', 'string', 'text']);
    broken.push(`body ${k}`);
    body =
      k === 'nested'
        ? { data: { data } }
        : k === 'nodata'
          ? data
          : k === 'null'
            ? { data: null }
            : k === 'array'
              ? { data: [data] }
              : k === 'string'
                ? { data: 'x' }
                : '{"data": {';
  }
  return { uid, t, op, path: target ? `${path}/${typeof target === 'string' ? target : ''}` : path, target, query: q.join('&'), body: op === 'DELETE' ? undefined : body, broken };
}

// ---- normalising answers

const TIMESTAMP = new Set(['createdAt', 'updatedAt', 'publishedAt']);
// `size` too: the seeded PNG's stored size differs (README: size optimization keeps the smaller copy)
const FILEKEYS = new Set(['hash', 'url', 'formats', 'previewUrl', 'provider_metadata', 'folderPath', 'size']);
function normalise(v) {
  if (Array.isArray(v)) return v.map((x) => normalise(x));
  if (v !== null && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      if (k === 'id') continue;
      if (k === 'documentId') out[k] = byId.has(x) ? `<doc${byId.get(x).n}>` : files.some((f) => f.documentId.folio === x || f.documentId.strapi === x) ? '<file>' : '<new>';
      else if (TIMESTAMP.has(k)) out[k] = x === null ? null : '<time>';
      else if (FILEKEYS.has(k) && x !== null) out[k] = '<file>';
      else out[k] = normalise(x);
    }
    return out;
  }
  return v;
}
/** the first few paths where two normalised answers differ, with both values */
function diffs(a, b, path = '', out = []) {
  if (out.length >= 4) return out;
  if (JSON.stringify(a) === JSON.stringify(b)) return out;
  const obj = (x) => x !== null && typeof x === 'object';
  if (obj(a) && obj(b) && Array.isArray(a) === Array.isArray(b)) {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    if (!Array.isArray(a) && ka.join() !== kb.join() && [...ka].sort().join() === [...kb].sort().join()) out.push(`${path || '.'}: key order strapi [${kb}] folio [${ka}]`);
    for (const k of new Set([...kb, ...ka])) diffs(a[k], b[k], `${path}.${k}`, out);
    return out;
  }
  const show = (x) => (x === undefined ? 'absent' : JSON.stringify(x).slice(0, 150));
  out.push(`${path || '.'}: strapi ${show(b)} folio ${show(a)}`);
  return out;
}

/** ids in messages: Strapi names row ids where Folio names documentIds (README), both become <id> */
function normaliseMessage(m) {
  let s = String(m ?? '');
  for (const [id, pair] of byId) if (s.includes(id)) s = s.split(id).join(`<doc${pair.n}>`);
  // the value echoed in a type error is the body as each server rewrote it
  return s.replace(/\brelation with id [^ ]+/g, 'relation with id <id>').replace(/, but the final value was:[\s\S]*/, ', but the final value was: …');
}
function errorSummary(body) {
  const e = body?.error;
  if (!e) return null;
  const items = (e.details?.errors ?? []).map((x) => `${(x.path ?? []).join('.')}: ${normaliseMessage(x.message)}`).sort();
  return { name: e.name, message: normaliseMessage(e.message), errors: items };
}

// README "Differences from Strapi": listed, not reported unless COMPARE_ALL=1
const known = [
  [/Strapi 500/, 'Strapi answers 500 (Folio a 400), §13 #16'],
  [/strapi 204 .*folio 404/, 'a missing document is 404 on DELETE/PUT'],
  [/status=bogus/, 'unknown status is a 400'],
  [/locale=xx/, 'unknown locale is a 400'],
  [/not supported for media attributes/, 'connect/set/disconnect on media is a 400'],
  [/Invalid relation value in|Invalid media value in|Invalid position in/, 'relation/media values read strictly'],
  [/already connected/, 'the same target twice is a 400'],
  [/body must be an array of block objects|Block node/, 'blocks checked'],
  [/must be a valid integer/, 'biginteger checked'],
  [/set cannot\s+be combined|set cannot be combined/, 'set with connect is a 400'],
  [/strapi NotFoundError "Not Found" folio NotFoundError "Document not found"/, 'a missing document is 404 Document not found'],
  [/nulls[\s\S]*strapi 400 folio 20\d[\s\S]*must be a `array` type/, 'null clears a repeatable component or a dynamic zone'],
  [/must be one of the following values: shared\.slider/, 'a dynamic zone names its own components'],
  [/slug must be at most 255 characters/, 'uid values beyond 255 characters'],
  [
    /locale=fr[\s\S]*folio (says )?ValidationError "Invalid key (views|wordCount|rating|score|isFeatured|publishDate|publishTime|eventAt|metadata|kind|contactEmail|internalNotes|cover|gallery|favicon|position)"/,
    'a new locale version takes localized fields only',
  ],
  [/There was a problem connecting relation/, 'positions name documentIds'],
  [/holds a single file/, 'several files for a single-file attribute is a 400'],
  [/Invalid key (constructor|toString|__proto__|data)"/, 'prototype-named keys and a nested data are Invalid key'],
  [/wordCount: strapi "9007199254740992" folio "9007199254740993"/, 'a biginteger beyond 2^53 is read back exactly on SQLite'],
  [/missingdocumentid[\s\S]*status: strapi 400 folio 404/, 'a PUT of a missing document is 404 before its relations are looked up'],
  [/must be less than or equal to 2147483647|must be greater than or equal to -2147483648/, 'integers beyond 32 bits are a 400'],
  [/folio (says )?ValidationError "Invalid key (connect|set|disconnect) at/, 'relation items read strictly'],
  [
    /status: strapi 200 folio 400\s+folio says ValidationError "\w+(\.\d+)?\.\w+ must be defined\."/,
    "an update of a type without draft & publish gives a component's required fields",
  ],
];

// ---- the run

await pairSeeded();
console.log(`paired: ${[...pools].map(([u, l]) => `${u.split('.').pop()} ${l.length}`).join(', ')}; files ${files.length}`);
const seen = new Set();
let differing = 0;
let sent = 0;
const kinds = new Map();
for (let i = 0; i < N; i++) {
  const req = makeRequest();
  if (!req) continue;
  sent++;
  const url = (side) => {
    const p = req.target instanceof Ref ? `${req.path}${req.target.pair[side]}` : req.path;
    return req.query ? `${p}?${req.query}` : p;
  };
  const ans = {};
  for (const side of ['folio', 'strapi'])
    ans[side] = await call(side, req.op, url(side), req.body === undefined ? undefined : typeof req.body === 'string' ? req.body : render(req.body, side));
  const f = ans.folio;
  const s = ans.strapi;
  const fOk = f.status >= 200 && f.status < 300;
  const sOk = s.status >= 200 && s.status < 300;
  // keep the two databases in step
  if (req.op === 'POST' && fOk && sOk && f.body?.data?.documentId && s.body?.data?.documentId) addPair(req.uid, f.body.data.documentId, s.body.data.documentId);
  if (req.op === 'POST' && fOk !== sOk) {
    const side = fOk ? 'folio' : 'strapi';
    const id = ans[side].body?.data?.documentId;
    if (id) await call(side, 'DELETE', `${req.path}/${id}?locale=*`);
  }
  if (req.op === 'PUT' && fOk !== sOk && req.target instanceof Ref) dropPair(req.target.pair);
  // a single type's PUT may create it anew
  if (req.t.kind === 'singleType' && req.op === 'PUT' && fOk && sOk && !byId.has(f.body?.data?.documentId)) addPair(req.uid, f.body.data.documentId, s.body.data.documentId);
  if (req.op === 'DELETE' && fOk && sOk && req.target instanceof Ref && !/locale=(en|fr)/.test(req.query)) dropPair(req.target.pair);

  const differences = [];
  if (f.status !== s.status) differences.push(`status: strapi ${s.status} folio ${f.status}`);
  const fe = errorSummary(f.body);
  const se = errorSummary(s.body);
  if (fe && se && f.status === s.status) {
    if (fe.name !== se.name || fe.message !== se.message) differences.push(`error: strapi ${se.name} "${se.message}" folio ${fe.name} "${fe.message}"`);
    else if (JSON.stringify(fe.errors) !== JSON.stringify(se.errors)) differences.push(`details: strapi ${JSON.stringify(se.errors)} folio ${JSON.stringify(fe.errors)}`);
  } else if (f.status !== s.status) {
    if (se) differences.push(`strapi says ${se.name} "${se.message}" ${JSON.stringify(se.errors).slice(0, 300)}`);
    if (fe) differences.push(`folio says ${fe.name} "${fe.message}" ${JSON.stringify(fe.errors).slice(0, 300)}`);
  }
  if (fOk && sOk && req.op !== 'DELETE') {
    const fn = JSON.stringify(normalise(f.body));
    const sn = JSON.stringify(normalise(s.body));
    if (fn !== sn) differences.push(`response: ${diffs(normalise(f.body), normalise(s.body)).join('\n    ')}`);
    // read-back of the document in the written locale and status
    const pair = req.target instanceof Ref ? req.target.pair : byId.get(f.body?.data?.documentId);
    if (pair || req.t.kind === 'singleType') {
      const rq = [req.query, 'populate=*'].filter(Boolean).join('&');
      const rb = {};
      for (const side of ['folio', 'strapi']) rb[side] = await call(side, 'GET', `${req.t.kind === 'singleType' ? req.path : `/api/${req.t.info.pluralName}/${pair[side]}`}?${rq}`);
      const a = JSON.stringify(normalise(rb.folio.body));
      const b = JSON.stringify(normalise(rb.strapi.body));
      if (rb.folio.status !== rb.strapi.status) differences.push(`read-back ${rq}: strapi ${rb.strapi.status} folio ${rb.folio.status}`);
      else if (a !== b) differences.push(`read-back ${rq}: ${diffs(normalise(rb.folio.body), normalise(rb.strapi.body)).join('\n    ')}`);
    }
  }
  if (!differences.length) continue;
  const text = differences.join('\n  ');
  const line = `${req.op} ${req.path}${req.target instanceof Ref ? `<doc${req.target.pair.n}>` : ''}${req.query ? `?${req.query}` : ''} [${req.broken.join(', ') || 'valid'}]`;
  const tag = s.status >= 500 ? 'Strapi 500' : '';
  const knownAs = known.find(([re]) => re.test(`${tag} ${line} strapi ${s.status} folio ${f.status} ${text}`));
  if (knownAs && !env.COMPARE_ALL) {
    kinds.set(knownAs[1], (kinds.get(knownAs[1]) ?? 0) + 1);
    continue;
  }
  differing++;
  const kind = `${req.op}|${s.status}|${f.status}|${text
    .replace(/<doc\d+>/g, '')
    .replace(/\n[\s\S]*/, '')
    .slice(0, 120)}`;
  if (seen.has(kind)) continue;
  seen.add(kind);
  const bodyText = req.body === undefined ? '' : typeof req.body === 'string' ? req.body : show(req.body);
  console.log(`\n${line}\n  body ${bodyText.slice(0, env.COMPARE_VERBOSE ? 1e6 : 500)}\n  ${text}`);
}
console.log(`\n${sent} writes, ${differing} answered differently (${seen.size} kinds shown)`);
for (const [k, n] of kinds) console.log(`  known (README): ${k}: ${n}`);
