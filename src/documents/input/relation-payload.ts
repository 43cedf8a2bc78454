// A relation attribute's value in a write body → one normalised operation (behaviour.md §6.3,
// contract "Relation payload"). Unknown keys were rejected by check-keys.ts before this runs; what
// is left are malformed values, reported as plain 400 ValidationErrors.
import { ValidationError } from '../../errors.js';
import type { RelationAttribute } from '../../schema/types.js';
import { shownValue } from './messages.js';
import { documentIdText, refId } from './refs.js';
import type { Position, RelationOp, RelationRef } from './types.js';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: Obj, k: string): boolean => Object.hasOwn(o, k);

/** An object carrying `documentId` or `id` is one item; otherwise it holds operations. */
export function isRelationItemObject(v: Obj): boolean {
  return has(v, 'documentId') || has(v, 'id');
}

function position(v: unknown, where: string): Position {
  const bad = (): ValidationError =>
    new ValidationError(`Invalid position in ${where}: expected exactly one of {before: documentId}, {after: documentId}, {start: true}, {end: true} but got ${shownValue(v)}`);
  if (!isObj(v)) throw bad();
  // besides the place, the version of the anchor: a locale and a status
  const version: { locale?: string; status?: 'draft' | 'published' } = {};
  if (has(v, 'locale')) {
    if (typeof v['locale'] !== 'string' || v['locale'] === '') throw bad();
    version.locale = v['locale'];
  }
  if (has(v, 'status')) {
    if (v['status'] !== 'draft' && v['status'] !== 'published') throw bad();
    version.status = v['status'];
  }
  const keys = Object.keys(v).filter((k) => k !== 'locale' && k !== 'status');
  if (keys.length !== 1) throw bad();
  if (has(v, 'before') && documentIdText(v['before'])) return { before: v['before'], ...version };
  if (has(v, 'after') && documentIdText(v['after'])) return { after: v['after'], ...version };
  if (has(v, 'start') && v['start'] === true) return { start: true, ...version };
  if (has(v, 'end') && v['end'] === true) return { end: true, ...version };
  throw bad();
}

function item(v: unknown, where: string): RelationRef {
  const bad = (): ValidationError => new ValidationError(`Invalid relation value in ${where}: expected a documentId, a row id, {documentId} or {id} but got ${shownValue(v)}`);
  if (typeof v === 'string') {
    if (!documentIdText(v)) throw bad();
    return { documentId: v };
  }
  if (typeof v === 'number') {
    const id = refId(v);
    if (id === undefined) throw bad();
    return { id };
  }
  if (!isObj(v)) throw bad();
  const out: RelationRef = {};
  // documentId wins when both are sent, as when a client echoes a populated relation back
  if (has(v, 'documentId')) {
    if (!documentIdText(v['documentId'])) throw bad();
    out.documentId = v['documentId'];
  } else {
    const id = refId(v['id']);
    if (id === undefined) throw bad();
    out.id = id;
  }
  if (has(v, 'locale') && v['locale'] !== null) {
    if (typeof v['locale'] !== 'string') throw new ValidationError(`Invalid locale in ${where}: expected a locale code but got ${shownValue(v['locale'])}`);
    out.locale = v['locale'];
  }
  if (has(v, 'status') && v['status'] !== null) {
    const s = v['status'];
    // Strapi reads any other value as draft; a typo silently linking drafts is worse than a 400
    if (s !== 'draft' && s !== 'published') throw new ValidationError(`Invalid status in ${where}: expected "draft" or "published" but got ${shownValue(s)}`);
    out.status = s;
  }
  if (has(v, 'position') && v['position'] !== null) out.position = position(v['position'], where);
  return out;
}

/** A list under set/connect/disconnect; a lone item counts as a list of one. */
function items(v: unknown, where: string): RelationRef[] {
  if (v === null || v === undefined) return [];
  // a null in a list names nothing, as in Strapi: [a, null] is [a]
  return (Array.isArray(v) ? v.filter((x) => x !== null) : [v]).map((x) => item(x, where));
}

/**
 * a document in two locales, or in its draft and its published version, may be two targets (from a
 * source without locales or without draft & publish); the store tells them apart where it can't be
 */
function targetKey(r: RelationRef): string {
  return r.documentId !== undefined ? `doc:${r.documentId}\u0000${r.locale ?? ''}\u0000${r.status ?? ''}` : `id:${r.id}`;
}

/** Contract rule 3: the same target twice in one list is an error (Strapi drops exact duplicates). */
function rejectDuplicates(list: readonly RelationRef[]): void {
  const seen = new Set<string>();
  for (const r of list) {
    const key = targetKey(r);
    if (seen.has(key)) {
      throw new ValidationError(`The relation with id ${r.documentId ?? r.id} is already connected. You cannot connect the same relation twice.`);
    }
    seen.add(key);
  }
}

/** before/after chains inside one connect list that loop back can never be placed. */
function rejectCircularPositions(connect: readonly RelationRef[]): void {
  const anchorOf = new Map<string, string>();
  for (const r of connect) {
    const p = r.position;
    // a document in one locale and another are two items; an anchor without a locale names the item's
    if (r.documentId !== undefined && p && ('before' in p || 'after' in p)) {
      anchorOf.set(`${r.documentId}\u0000${r.locale ?? ''}`, `${'before' in p ? p.before : p.after}\u0000${p.locale ?? r.locale ?? ''}`);
    }
  }
  // each item names at most one anchor, so a loop is a walk that comes back to an item of its own path, and
  // an item whose walk ended without one needs no second walk: every item is walked once. (Walking the whole chain again from
  // every item was quadratic: a 10,000-item chain of made-up ids held the event loop for 50 s.)
  const done = new Set<string>();
  for (const start of anchorOf.keys()) {
    if (done.has(start)) continue;
    const path = new Set<string>([start]);
    for (let next = anchorOf.get(start); next !== undefined && !done.has(next); next = anchorOf.get(next)) {
      if (path.has(next)) {
        throw new ValidationError(
          'A circular reference was found in the connect array. One relation is trying to connect before/after another one that is trying to connect before/after it',
        );
      }
      path.add(next);
    }
    for (const k of path) done.add(k);
  }
}

function options(v: unknown, where: string): void {
  if (v === undefined || v === null) return;
  if (!isObj(v) || (has(v, 'strict') && typeof v['strict'] !== 'boolean')) {
    throw new ValidationError(`Invalid options in ${where}: expected {strict: true|false} but got ${shownValue(v)}`);
  }
}

/** More references than one request may name in one relation: beyond this a statement's parameters overflow. */
export const MAX_RELATION_REFS = 10_000;

function capped(list: RelationRef[], where: string): RelationRef[] {
  if (list.length > MAX_RELATION_REFS) {
    throw new ValidationError(`Too many relations in ${where}: at most ${MAX_RELATION_REFS} in one request, got ${list.length}`);
  }
  return list;
}

/**
 * Normalises a relation value. `where` names the field in messages (`tags`, `blocks[0].person`).
 * To-one relations keep only the last item of a list (contract rule 4), before duplicates are
 * looked for: sending `[a, a]` to a to-one relation is just "a".
 */
export function relationOp(attr: RelationAttribute, value: unknown, where: string): RelationOp {
  const last = (list: RelationRef[]): RelationRef[] => capped(attr.toMany ? list : list.slice(-1), where);
  if (value === null) return { kind: 'set', items: [] };
  if (!isObj(value) || isRelationItemObject(value)) {
    const list = last(items(value, where));
    rejectDuplicates(list);
    return { kind: 'set', items: list };
  }
  options(value['options'], where);
  // a key holding null is no operation, as in Strapi 5.54: `{set: null}` leaves the relation as it is
  const given = (key: string): boolean => has(value, key) && value[key] !== null;
  if (given('set')) {
    if (given('connect') || given('disconnect')) {
      throw new ValidationError(`Invalid relation value in ${where}: set cannot be combined with connect or disconnect`);
    }
    const list = last(items(value['set'], where));
    rejectDuplicates(list);
    return { kind: 'set', items: list };
  }
  const connect = last(items(value['connect'], where));
  rejectDuplicates(connect);
  rejectCircularPositions(connect);
  const opts = value['options'];
  const strict = isObj(opts) && typeof opts['strict'] === 'boolean' ? opts['strict'] : undefined;
  return { kind: 'change', connect, disconnect: capped(items(value['disconnect'], where), where), ...(strict === undefined ? {} : { strict }) };
}
