// Relation and media values of a write body → normalised operations (contract "Relation payload").
import { ValidationError } from '../../errors.js';
import type { RelationAttribute } from '../../schema/types.js';
import type { MediaRef, Position, RelationOp, RelationRef } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const OPS = new Set(['connect', 'disconnect', 'set', 'options']);
const ITEM_KEYS = new Set(['documentId', 'id', 'locale', 'status', 'position']);

function position(v: unknown, field: string): Position {
  if (!isObj(v)) throw new ValidationError(`Invalid position for ${field}: expected one of {before}, {after}, {start: true}, {end: true}`);
  const keys = Object.keys(v);
  if (keys.length === 1) {
    const k = keys[0]!;
    if ((k === 'before' || k === 'after') && typeof v[k] === 'string') return k === 'before' ? { before: v[k] as string } : { after: v[k] as string };
    if (k === 'start' && v[k] === true) return { start: true };
    if (k === 'end' && v[k] === true) return { end: true };
  }
  throw new ValidationError(`Invalid position for ${field}: expected exactly one of before, after, start: true, end: true`);
}

function ref(v: unknown, field: string): RelationRef {
  if (typeof v === 'string' && v !== '') return { documentId: v };
  if (typeof v === 'number' && Number.isInteger(v)) return { id: v };
  if (!isObj(v)) throw new ValidationError(`Invalid relation value for ${field}: expected a documentId or {documentId}`);
  for (const k of Object.keys(v)) if (!ITEM_KEYS.has(k)) throw ValidationError.invalidKey(k, field, 'body');
  const out: RelationRef = {};
  if (typeof v['documentId'] === 'string') out.documentId = v['documentId'];
  else if (typeof v['id'] === 'number' && Number.isInteger(v['id'])) out.id = v['id'];
  else throw new ValidationError(`Invalid relation value for ${field}: expected a documentId or {documentId}`);
  if (v['locale'] !== undefined) {
    if (typeof v['locale'] !== 'string') throw new ValidationError(`Invalid locale in ${field}: expected a string`);
    out.locale = v['locale'];
  }
  if (v['status'] !== undefined) {
    if (v['status'] !== 'draft' && v['status'] !== 'published') throw new ValidationError(`Invalid status in ${field}: expected 'draft' or 'published'`);
    out.status = v['status'];
  }
  if (v['position'] !== undefined) out.position = position(v['position'], field);
  return out;
}

function refs(v: unknown, field: string): RelationRef[] {
  if (v === null || v === undefined) return [];
  return (Array.isArray(v) ? v : [v]).map((x) => ref(x, field));
}

export function relationOp(attr: RelationAttribute, value: unknown, path: string[]): RelationOp {
  const field = path.join('.');
  if (value === null) return { kind: 'set', items: [] };
  if (!isObj(value) || 'documentId' in value || 'id' in value) return { kind: 'set', items: refs(value, field) };
  for (const k of Object.keys(value)) if (!OPS.has(k)) throw ValidationError.invalidKey(k, field, 'body');
  if ('set' in value) {
    if ('connect' in value || 'disconnect' in value) throw new ValidationError(`${field}: "set" cannot be combined with "connect" or "disconnect"`);
    return { kind: 'set', items: refs(value['set'], field) };
  }
  void attr;
  return { kind: 'change', connect: refs(value['connect'], field), disconnect: refs(value['disconnect'], field) };
}

function mediaRef(v: unknown, field: string): MediaRef {
  if (typeof v === 'number' && Number.isInteger(v)) return { id: v };
  if (typeof v === 'string' && /^\d+$/.test(v)) return { id: Number(v) };
  if (typeof v === 'string' && v !== '') return { documentId: v };
  if (isObj(v)) {
    if (typeof v['id'] === 'number') return { id: v['id'] };
    if (typeof v['documentId'] === 'string') return { documentId: v['documentId'] };
  }
  throw new ValidationError(`Invalid media value for ${field}: expected file ids`);
}

export function mediaRefs(field: string, multiple: boolean, value: unknown): MediaRef[] | null {
  if (value === null) return null;
  if (isObj(value) && ('connect' in value || 'disconnect' in value || 'set' in value)) {
    throw new ValidationError(`connect is not supported for media attributes (${field}): send the file ids`);
  }
  const list = (Array.isArray(value) ? value : [value]).map((v) => mediaRef(v, field));
  if (!multiple && list.length > 1) throw new ValidationError(`${field} holds a single file: send one file id`);
  return list;
}
