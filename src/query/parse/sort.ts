// `sort` → SortItem[] (behaviour.md §5.2): strings, comma lists, arrays, objects, and paths through
// relations and components.
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import type { SortItem } from '../ast.js';
import { FILE_UID, type Component, type ContentType } from '../../schema/types.js';
import { isObj, isPoison, type ParseContext } from './context.js';
import { scalarField } from './field-ref.js';
import { strapiOnlyAttribute } from './strapi-only-attributes.js';

type Schema = ContentType | Component;

function invalid(key: string, path: string | null): ValidationError {
  return ValidationError.invalidKey(key, path, 'query', 'sort');
}

function direction(raw: unknown): 'asc' | 'desc' {
  const d = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (d === 'asc' || d === 'desc') return d;
  throw new ValidationError('Invalid order. order can only be one of asc|desc|ASC|DESC');
}

/**
 * `order`: the direction as the client wrote it (undefined when none). It is checked only once the path
 * ends at a field: on a relation, component or media Strapi reads it as one key deeper (`author:desc`
 * is "Invalid key desc at author"), and an empty one as none.
 */
function resolve(ctx: ParseContext, schema: Schema, segments: readonly string[], order: string | undefined): SortItem {
  let cur: Schema = schema;
  const walked: string[] = [];
  for (const [i, seg] of segments.entries()) {
    if (isPoison(seg)) throw invalid(seg, walked.length ? walked.join('.') : null);
    const last = i === segments.length - 1;
    const field = scalarField(cur, seg);
    if (field) {
      if (!last) throw invalid(segments[i + 1]!, [...walked, seg].join('.'));
      return { path: walked, field, direction: direction(order ?? 'asc') };
    }
    const a = cur.attributes.get(seg);
    const here = [...walked, seg].join('.');
    const deeper = (): ValidationError => (order?.trim() ? invalid(order.trim(), here) : invalid(seg, here));
    if (!a) {
      const strapiOnly = strapiOnlyAttribute(cur, seg);
      if (strapiOnly === null) throw invalid(seg, walked.length ? walked.join('.') : null);
      throw strapiOnly === 'relation' && last ? deeper() : invalid(seg, here);
    }
    if (a.private || a.kind === 'scalar' || a.kind === 'dynamiczone') throw invalid(seg, here);
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) throw invalid(seg, here);
    if (last) throw deeper();
    cur = a.kind === 'relation' ? ctx.model.contentTypes.get(a.target)! : a.kind === 'media' ? ctx.model.contentTypes.get(FILE_UID)! : ctx.model.components.get(a.component)!;
    walked.push(seg);
  }
  throw invalid('', null);
}

function fromString(ctx: ParseContext, schema: Schema, s: string, out: SortItem[]): void {
  for (const part of s.split(',')) {
    const [name, order] = part.split(':');
    if (!name || name.trim() === '') continue;
    out.push(resolve(ctx, schema, name.trim().split('.'), order?.trim()));
  }
}

function fromObject(ctx: ParseContext, schema: Schema, o: Record<string, unknown>, prefix: string[], out: SortItem[]): void {
  for (const [k, v] of Object.entries(o)) {
    if (typeof v === 'string') out.push(resolve(ctx, schema, [...prefix, k], v));
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
