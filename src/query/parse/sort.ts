// `sort` → SortItem[] (behaviour.md §5.2): strings, comma lists, arrays, objects, and paths through
// relations and components.
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import type { SortItem } from '../ast.js';
import type { Component, ContentType } from '../../schema/types.js';
import { isObj, isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';

type Schema = ContentType | Component;

function invalid(key: string, path: string | null): ValidationError {
  return ValidationError.invalidKey(key, path, 'query', 'sort');
}

function direction(raw: unknown): 'asc' | 'desc' {
  const d = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (d === 'asc' || d === 'desc') return d;
  throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
}

function resolve(ctx: ParseContext, schema: Schema, segments: readonly string[], dir: 'asc' | 'desc'): SortItem {
  let cur: Schema = schema;
  const walked: string[] = [];
  for (const [i, seg] of segments.entries()) {
    if (isPoison(seg)) throw invalid(seg, walked.length ? walked.join('.') : null);
    const last = i === segments.length - 1;
    const field = scalarField(cur, seg);
    if (field) {
      if (!last) throw invalid(segments[i + 1]!, [...walked, seg].join('.'));
      return { path: walked, field, direction: dir };
    }
    const a = cur.attributes.get(seg);
    if (!a) throw invalid(seg, walked.length ? walked.join('.') : null);
    const here = [...walked, seg].join('.');
    if (a.private || a.kind === 'scalar' || a.kind === 'media' || a.kind === 'dynamiczone') throw invalid(seg, here);
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) throw invalid(seg, here);
    if (last) throw invalid(seg, here);
    cur = a.kind === 'relation' ? ctx.model.contentTypes.get(a.target)! : ctx.model.components.get(a.component)!;
    walked.push(seg);
  }
  throw invalid('', null);
}

function fromString(ctx: ParseContext, schema: Schema, s: string, out: SortItem[]): void {
  for (const part of s.split(',')) {
    const [name, dir] = part.split(':');
    if (!name || name.trim() === '') continue;
    out.push(resolve(ctx, schema, name.trim().split('.'), dir === undefined ? 'asc' : direction(dir.trim())));
  }
}

function fromObject(ctx: ParseContext, schema: Schema, o: Record<string, unknown>, prefix: string[], out: SortItem[]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') out.push(resolve(ctx, schema, [...prefix, k], direction(v)));
    else if (isObj(v)) fromObject(ctx, schema, v, [...prefix, k], out);
    else throw new ValidationError(`Invalid sort type expected object or string got ${Array.isArray(v) ? 'array' : typeof v}`);
  }
}

export function parseSort(ctx: ParseContext, schema: Schema, raw: unknown): SortItem[] {
  const out: SortItem[] = [];
  if (raw === undefined || raw === null || raw === '') return out;
  const items = Array.isArray(raw) ? raw : [raw];
  for (const item of items) {
    if (typeof item === 'string') fromString(ctx, schema, item, out);
    else if (isObj(item)) fromObject(ctx, schema, item, [], out);
    else throw new ValidationError(`Invalid sort type expected object or string got ${item === null ? 'null' : typeof item}`);
  }
  return out;
}
