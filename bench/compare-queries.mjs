#!/usr/bin/env node
// Sends the same random read queries to Folio and to the reference Strapi, both seeded alike
// (../shared/tools/seed.mjs with the same SEED_ARTICLES), and prints where their answers differ: the
// status and error message, the total, and with COMPARE_SHAPE=1 the keys (in order) of the first entry.
// The queries are built from the example app's schema files: filters (operators, nesting, $and/$or/$not),
// populate (fields, filters, sort, count, nested), sort, fields, pagination, locale, status and _q, with
// bad names and values mixed in unless COMPARE_VALID=1.
//
//   FOLIO=http://127.0.0.1:1338 FOLIO_TOKEN=… STRAPI=http://127.0.0.1:1337 STRAPI_TOKEN=… node bench/compare-queries.mjs
//
// Env: COMPARE_N (2000 queries), COMPARE_SEED (1), COMPARE_VALID, COMPARE_SHAPE, COMPARE_ALL (also list
// answers that are errors on both sides with different messages, and Strapi's 500s). Row ids and document
// ids differ between the two databases, so queries naming them (`[id]`, `documentId`, `_q`) are reported
// only when the statuses differ. Each kind of difference is printed once, with the first query that showed it.
import { exampleSchemas, seededRandom, servers } from './compare-common.mjs';

const env = process.env;
const SIDES = servers(env);
const N = Number(env.COMPARE_N ?? 2000);
const VALID = env.COMPARE_VALID === '1';
const { rnd, pick } = seededRandom(env.COMPARE_SEED ?? 1);
const { types, components } = exampleSchemas();
const FILE = { attributes: { name: { type: 'string' }, url: { type: 'string' }, size: { type: 'decimal' }, mime: { type: 'string' } } };

const OPERATORS = ['$eq', '$eqi', '$ne', '$nei', '$lt', '$lte', '$gt', '$gte', '$in', '$notIn', '$contains', '$notContains', '$containsi', '$notContainsi'];
const MORE_OPERATORS = ['$null', '$notNull', '$between', '$startsWith', '$startsWithi', '$endsWith', '$endsWithi'];
const GOOD_VALUES = [
  '1',
  '5',
  '30',
  'a',
  'e',
  'ar',
  'tag',
  'Author',
  'alpha',
  'Alpha',
  '2024',
  '2024-01-01',
  '2025-06-01T00:00:00.000Z',
  'true',
  'false',
  '0',
  'https',
  '10:00:00',
  '3.5',
];
const BAD_VALUES = ['-1', 'abc', '', '1e309', '9999999999999999999999', '%', '_', '\\', "'", 'null', '[]', '{}', 'é', '😀', '1.5', 'NaN', '00:00', '  '];
const values = VALID ? GOOD_VALUES : [...GOOD_VALUES, ...BAD_VALUES];
const operators = VALID ? [...OPERATORS, ...MORE_OPERATORS] : [...OPERATORS, ...MORE_OPERATORS, '$bogus', '$EQ'];

const attributesOf = (schema) => Object.entries(schema?.attributes ?? {}).filter(([, a]) => !a.private);
function targetOf(a) {
  if (a.type === 'relation') return types.get(a.target);
  if (a.type === 'component') return components.get(a.component);
  if (a.type === 'media') return FILE;
  return undefined;
}

/** a path of attribute names, through relations, components and media */
function fieldPath(schema, depth = 0) {
  const names = [...attributesOf(schema).map(([n]) => n), 'createdAt', 'updatedAt', 'publishedAt'];
  if (!VALID) names.push('id', 'documentId', 'bogus', 'constructor', 'internalNotes');
  const name = pick(names);
  const a = schema?.attributes?.[name];
  const next = a && targetOf(a);
  if (next && depth < 2 && rnd() < 0.5) return [name, ...fieldPath(next, depth + 1)];
  return [name];
}

function filters(schema, prefix, depth = 0) {
  const r = rnd();
  if (r < 0.12 && depth < 2) {
    const op = pick(['$or', '$and']);
    const n = 1 + Math.floor(rnd() * 3);
    return Array.from({ length: n }, (_, i) => filters(schema, `${prefix}[${op}][${i}]`, depth + 1)).flat();
  }
  if (r < 0.17 && depth < 2) return filters(schema, `${prefix}[$not]`, depth + 1);
  const path = fieldPath(schema)
    .map((p) => `[${p}]`)
    .join('');
  const op = pick(operators);
  const value = () => encodeURIComponent(pick(values));
  if (op === '$in' || op === '$notIn' || op === '$between') {
    const n = op === '$between' && VALID ? 2 : Math.floor(rnd() * 4);
    if (n === 0) return [`${prefix}${path}[${op}]=${value()}`];
    return Array.from({ length: n }, (_, i) => `${prefix}${path}[${op}][${i}]=${value()}`);
  }
  return [`${prefix}${path}[${op}]=${value()}`];
}

function populate(schema, prefix, depth = 0) {
  const relational = attributesOf(schema).filter(([, a]) => ['relation', 'component', 'media', 'dynamiczone'].includes(a.type));
  if (relational.length === 0 || rnd() < 0.15) return [`${prefix}=${pick(VALID ? ['*', 'true'] : ['*', 'true', 'bogus', ''])}`];
  const [name, a] = pick(relational);
  const target = targetOf(a);
  const r = rnd();
  if (r < 0.3 || !target) return [`${prefix}[${name}]=${pick(['true', '*'])}`];
  if (r < 0.5 && depth < 3) return populate(target, `${prefix}[${name}][populate]`, depth + 1);
  if (r < 0.65) return [`${prefix}[${name}][fields][0]=${pick(attributesOf(target).map(([n]) => n))}`];
  if (r < 0.8) return filters(target, `${prefix}[${name}][filters]`);
  if (r < 0.92) return [`${prefix}[${name}][sort]=${pick(attributesOf(target).map(([n]) => n))}:${pick(['asc', 'desc'])}`];
  return [`${prefix}[${name}][count]=true`];
}

function query(schema) {
  const parts = [];
  for (let i = 0, n = 1 + Math.floor(rnd() * 3); i < n; i++) {
    const r = rnd();
    if (r < 0.35) parts.push(...filters(schema, 'filters'));
    else if (r < 0.55) parts.push(...populate(schema, 'populate'));
    else if (r < 0.65) parts.push(`sort=${fieldPath(schema).join('.')}:${pick(['asc', 'desc'])}`);
    else if (r < 0.72) parts.push(`fields[0]=${pick(attributesOf(schema).map(([n]) => n))}`);
    else if (r < 0.8) parts.push(`pagination[${pick(['page', 'pageSize', 'start', 'limit', 'withCount'])}]=${pick(['1', '2', '5', '100', VALID ? '3' : '-5'])}`);
    else if (r < 0.87) parts.push(`locale=${pick(['en', 'fr', '*'])}`);
    else if (r < 0.93) parts.push(`status=${pick(['draft', 'published'])}`);
    else parts.push(`_q=${encodeURIComponent(pick(values))}`);
  }
  return parts.join('&');
}

/** key order of a value, values replaced by their kinds; arrays by their first entry */
function shape(v) {
  if (Array.isArray(v)) return v.length ? [shape(v[0])] : [];
  if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shape(x)]));
  return v === null ? null : typeof v;
}

async function answer(base, token, path) {
  // a server that went down (Strapi runs out of memory on some deep populates) is one answer, not the end of the run
  const res = await fetch(base + path, { headers: { authorization: `Bearer ${token}` } }).catch((e) => e);
  if (res instanceof Error) return { ok: false, text: `no answer: ${res.cause?.code ?? res.message}` };
  const body = await res.json().catch(() => null);
  if (body?.error) return { ok: false, text: `${body.error.status} ${body.error.message}` };
  const data = body?.data;
  const total = body?.meta?.pagination?.total ?? (Array.isArray(data) ? data.length : data ? 1 : 0);
  const first = Array.isArray(data) ? (data[0] ?? null) : data;
  return { ok: true, text: `${res.status} total=${total}${env.COMPARE_SHAPE === '1' ? ` ${JSON.stringify(shape(first))}` : ''}` };
}

const collections = [...types.values()].filter((t) => t.kind === 'collectionType');
const seen = new Set();
let differing = 0;
for (let i = 0; i < N; i++) {
  const type = pick(collections);
  const path = `/api/${type.info.pluralName}?${query(type)}`;
  const folio = await answer(SIDES.folio.base, SIDES.folio.token, path);
  // what Folio refuses for its populate limit is left unasked of Strapi, which may build it until it runs out of memory
  if (!folio.ok && folio.text.includes('This populate would return more than')) continue;
  const strapi = await answer(SIDES.strapi.base, SIDES.strapi.token, path);
  if (folio.text === strapi.text) continue;
  const bothErrors = !folio.ok && !strapi.ok;
  const namesRows = /\[id\]|documentId|_q=/.test(decodeURIComponent(path.replace(/%(?![0-9a-f]{2})/gi, '%25')));
  if (!env.COMPARE_ALL && (bothErrors || strapi.text.startsWith('500'))) continue;
  if (namesRows && folio.ok === strapi.ok) continue;
  differing++;
  const kind = `${folio.ok}|${strapi.ok}|${folio.ok && strapi.ok ? path : folio.text.slice(0, 60)}`;
  if (seen.has(kind)) continue;
  seen.add(kind);
  console.log(`${path}\n  strapi ${strapi.text.slice(0, 300)}\n  folio  ${folio.text.slice(0, 300)}`);
}
console.log(`${N} queries, ${differing} answered differently (${seen.size} kinds shown)`);
