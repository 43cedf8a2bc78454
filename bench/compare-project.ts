// One Strapi 5 project's content types, driven alike on Folio and on the reference Strapi, and every
// difference a client would see listed: status, error message, keys (and their order) and values of each
// answer, ids, document ids, timestamps and file details aside. Bodies come from the model alone
// (test/support/model-bodies.ts): create, read, populate=*, deep populate, filter and sort, update with
// relations to the other types' documents, the draft, a second locale, delete. The run fails when any
// difference is found.
//
//   bash bench/compare-project-setup.sh <project> <reference folder> <work folder>   (starts both servers)
//   COMPARE_PROJECT=<project> FOLIO_TOKEN=… STRAPI_TOKEN=… npx vitest run --config bench/compare-project.config.ts
//
// Env: FOLIO (http://127.0.0.1:1341), STRAPI (http://127.0.0.1:1340), COMPARE_LOCALE (fr), COMPARE_KEEP=1 leaves
// the documents in place.
import qs from 'qs';
import { expect, it } from 'vitest';
import { loadModel } from '../src/schema/load-model.js';
import type { ContentType, Model } from '../src/schema/types.js';
import { createBody, deepPopulate, filterAttribute, localeBody } from '../test/support/model-bodies.js';
import { png } from '../test/upload/helpers.js';

type Side = 'folio' | 'strapi';
const SIDES: readonly Side[] = ['folio', 'strapi'];

function required(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required (see the header of bench/compare-project.ts)`);
  return v;
}

const PROJECT = required('COMPARE_PROJECT');
const SERVERS: Record<Side, { base: string; token: string }> = {
  folio: { base: process.env['FOLIO'] ?? 'http://127.0.0.1:1341', token: required('FOLIO_TOKEN') },
  strapi: { base: process.env['STRAPI'] ?? 'http://127.0.0.1:1340', token: required('STRAPI_TOKEN') },
};
const LOCALE = process.env['COMPARE_LOCALE'] ?? 'fr';
/** a file id no server has: replaced in each side's bodies by the id of the file uploaded there */
const FILE_MARK = -987654;
/** values that differ between two servers by nature: compared by presence only */
const VOLATILE: ReadonlySet<string> = new Set(['id', 'documentId', 'createdAt', 'updatedAt', 'publishedAt', 'url', 'hash', 'formats', 'previewUrl', 'size']);

interface Answer {
  readonly status: number;
  readonly body: unknown;
}

async function call(side: Side, method: string, path: string, body?: unknown): Promise<Answer> {
  const { base, token } = SERVERS[side];
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  try {
    return { status: r.status, body: text === '' ? null : (JSON.parse(text) as unknown) };
  } catch {
    return { status: r.status, body: text };
  }
}

/** volatile values masked; document ids inside messages too */
function masked(v: unknown, key = ''): unknown {
  if (Array.isArray(v)) return v.map((x) => masked(x));
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = VOLATILE.has(k) && (x === null || typeof x !== 'object' || k === 'formats') ? (x === null ? null : '<set>') : masked(x, k);
    return out;
  }
  return key === 'message' && typeof v === 'string' ? v.replace(/\b[a-z0-9]{24}\b/g, '<documentId>') : v;
}

function differences(folio: unknown, strapi: unknown, path: string, out: string[]): void {
  if (Array.isArray(folio) && Array.isArray(strapi)) {
    if (folio.length !== strapi.length) out.push(`${path}: ${folio.length} items, Strapi ${strapi.length}`);
    for (let i = 0; i < Math.min(folio.length, strapi.length); i++) differences(folio[i], strapi[i], `${path}[${i}]`, out);
    return;
  }
  if (folio !== null && strapi !== null && typeof folio === 'object' && typeof strapi === 'object' && !Array.isArray(folio) && !Array.isArray(strapi)) {
    const [f, s] = [folio as Record<string, unknown>, strapi as Record<string, unknown>];
    const onlyFolio = Object.keys(f).filter((k) => !Object.hasOwn(s, k));
    const onlyStrapi = Object.keys(s).filter((k) => !Object.hasOwn(f, k));
    if (onlyFolio.length > 0) out.push(`${path}: only Folio answers ${onlyFolio.join(', ')}`);
    if (onlyStrapi.length > 0) out.push(`${path}: only Strapi answers ${onlyStrapi.join(', ')}`);
    const common = Object.keys(f).filter((k) => Object.hasOwn(s, k));
    const strapiOrder = Object.keys(s).filter((k) => Object.hasOwn(f, k));
    if (common.join() !== strapiOrder.join()) out.push(`${path}: keys in the order ${common.join(', ')}; Strapi ${strapiOrder.join(', ')}`);
    for (const k of common) differences(f[k], s[k], `${path}.${k}`, out);
    return;
  }
  if (JSON.stringify(folio) !== JSON.stringify(strapi)) out.push(`${path}: ${JSON.stringify(folio)?.slice(0, 200)}; Strapi ${JSON.stringify(strapi)?.slice(0, 200)}`);
}

class Comparison {
  readonly found: string[] = [];
  readonly documents: Record<Side, Map<string, string>> = { folio: new Map(), strapi: new Map() };
  constructor(
    readonly model: Model,
    readonly files: Record<Side, number>,
  ) {}

  /** the same request on both sides (path and body made per side); each difference noted under the type and step */
  async both(ct: ContentType, step: string, method: string, path: (side: Side) => string, body?: (side: Side) => unknown): Promise<Record<Side, Answer>> {
    const [folio, strapi] = (await Promise.all(SIDES.map((side) => call(side, method, path(side), body?.(side))))) as [Answer, Answer];
    const out: string[] = [];
    if (folio.status !== strapi.status)
      out.push(`status ${folio.status}, Strapi ${strapi.status}: ${JSON.stringify(folio.body).slice(0, 300)}; Strapi ${JSON.stringify(strapi.body).slice(0, 300)}`);
    else differences(masked(folio.body), masked(strapi.body), 'body', out);
    for (const o of out) this.found.push(`${ct.uid} ${step}: ${o}`);
    return { folio, strapi };
  }

  /** a body with the file mark replaced by this side's uploaded file */
  withFile(body: unknown, side: Side): unknown {
    return JSON.parse(JSON.stringify(body).replaceAll(String(FILE_MARK), String(this.files[side]))) as unknown;
  }

  path(ct: ContentType, side: Side, document = true): string {
    if (ct.kind === 'singleType') return `/api/${ct.singularName}`;
    const id = this.documents[side].get(ct.uid);
    return document && id !== undefined ? `/api/${ct.pluralName}/${id}` : `/api/${ct.pluralName}`;
  }

  /** connects each relation to the document made on that side for its target type */
  relations(ct: ContentType, side: Side): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const a of ct.attributes.values()) {
      const target = a.kind === 'relation' ? this.documents[side].get(a.target) : undefined;
      if (a.kind === 'relation' && target !== undefined) out[a.name] = { connect: [target] };
    }
    return out;
  }
}

async function uploadOne(side: Side, image: Buffer): Promise<number> {
  const form = new FormData();
  form.append('files', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'pixel.png');
  const r = await fetch(`${SERVERS[side].base}/api/upload`, { method: 'POST', headers: { authorization: `Bearer ${SERVERS[side].token}` }, body: form });
  const files = (await r.json()) as { id?: number }[];
  const id = files[0]?.id;
  if (r.status !== 201 || id === undefined) throw new Error(`${side}: upload answered ${r.status}`);
  return id;
}

it(`${PROJECT} answers on Folio as on Strapi`, async () => {
  const model = loadModel(PROJECT);
  const image = await png(8, 8);
  const c = new Comparison(model, { folio: await uploadOne('folio', image), strapi: await uploadOne('strapi', image) });
  const types = [...model.contentTypes.values()].filter((ct) => ct.uid.startsWith('api::'));
  const made = (ct: ContentType) => c.documents.folio.has(ct.uid) && c.documents.strapi.has(ct.uid);

  for (const ct of types) {
    const body = createBody(model, ct, { fileId: FILE_MARK });
    const r = await c.both(
      ct,
      'create',
      ct.kind === 'singleType' ? 'PUT' : 'POST',
      (side) => c.path(ct, side, false),
      (side) => ({ data: c.withFile(body, side) }),
    );
    for (const side of SIDES) {
      const id = (r[side].body as { data?: { documentId?: unknown } } | null)?.data?.documentId;
      if (typeof id === 'string') c.documents[side].set(ct.uid, id);
    }
  }
  for (const ct of types.filter(made)) {
    const deep = qs.stringify({ populate: deepPopulate(model, ct) }, { encodeValuesOnly: true });
    await c.both(ct, 'read', 'GET', (side) => c.path(ct, side));
    await c.both(ct, 'populate=*', 'GET', (side) => `${c.path(ct, side)}?populate=*`);
    await c.both(ct, 'deep populate', 'GET', (side) => `${c.path(ct, side)}?${deep}`);
    const a = filterAttribute(ct);
    if (ct.kind === 'collectionType' && a)
      await c.both(ct, 'list, sorted', 'GET', (side) => `${c.path(ct, side, false)}?${qs.stringify({ sort: `${a.name}:desc`, populate: '*' })}`);
  }
  for (const ct of types.filter(made)) {
    const body = createBody(model, ct, { fileId: FILE_MARK });
    const deep = qs.stringify({ populate: deepPopulate(model, ct) }, { encodeValuesOnly: true });
    await c.both(
      ct,
      'update with relations',
      'PUT',
      (side) => c.path(ct, side),
      (side) => ({ data: { ...(c.withFile(body, side) as object), ...c.relations(ct, side) } }),
    );
    await c.both(ct, 'deep populate after update', 'GET', (side) => `${c.path(ct, side)}?${deep}`);
    if (ct.draftAndPublish) await c.both(ct, 'draft', 'GET', (side) => `${c.path(ct, side)}?status=draft&populate=*`);
    if (ct.localized) {
      const other = localeBody(model, ct, { fileId: FILE_MARK });
      await c.both(
        ct,
        `locale ${LOCALE}`,
        'PUT',
        (side) => `${c.path(ct, side)}?locale=${LOCALE}`,
        (side) => ({ data: c.withFile(other, side) }),
      );
      await c.both(ct, `read locale ${LOCALE}`, 'GET', (side) => `${c.path(ct, side)}?locale=${LOCALE}&populate=*`);
    }
  }
  if (process.env['COMPARE_KEEP'] !== '1') for (const ct of types.filter(made)) await c.both(ct, 'delete', 'DELETE', (side) => c.path(ct, side));

  console.log(`${types.length} types, ${c.documents.folio.size} made on Folio, ${c.documents.strapi.size} on Strapi; ${c.found.length} differences`);
  expect(c.found).toEqual([]);
}, 300_000);
