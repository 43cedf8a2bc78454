// Checks the `data` of a create/update against the model and normalises it (behaviour.md §6.1–6.4).
// Key checks run first, in Strapi's order, and the first failure wins; then type checks, whose field
// errors are reported together.
import { ValidationError, type FieldError } from '../../errors.js';
import { findAction, type Ability } from '../../auth/ability.js';
import type { Attribute, Component, ContentType, Model, RelationAttribute } from '../../schema/types.js';
import { castScalar } from './cast-scalar.js';
import { zoneComponents } from '../../schema/zone.js';
import { relationOp, mediaRefs } from './relation-payload.js';
import type { ComponentInput, WriteData, ZoneEntryInput } from './types.js';

export interface InputContext {
  readonly model: Model;
  readonly ability: Ability;
}

type Schema = ContentType | Component;
type Obj = Record<string, unknown>;

const NON_WRITABLE = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy', 'localizations']);
const IGNORED = new Set(['publishedAt', 'locale']);

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function dotted(path: string[]): string | null {
  return path.length ? path.join('.') : null;
}

/** Pass 1: keys. Throws the first invalid key, walking components and zones depth-first. */
function checkKeys(ctx: InputContext, schema: Schema, data: Obj, path: string[], root: boolean): void {
  if (root) {
    if ('id' in data) throw new ValidationError('Invalid key id', { key: 'id', source: 'body' });
    if ('documentId' in data) throw new ValidationError('Invalid key documentId', { key: 'documentId', source: 'body' });
  }
  for (const key of Object.keys(data)) {
    const a = schema.attributes.get(key);
    if (NON_WRITABLE.has(key) || (a && !a.writable)) throw ValidationError.invalidKey(key, [...path, key].join('.'), 'body');
  }
  for (const key of Object.keys(data)) {
    if (!root && key === 'id') continue;
    if (root && IGNORED.has(key)) continue;
    if (schema.modelType === 'component' && key === '__component') continue;
    if (!schema.attributes.has(key)) throw ValidationError.invalidKey(key, dotted(path), 'body');
  }
  for (const [key, value] of Object.entries(data)) {
    const a = schema.attributes.get(key);
    if (!a) continue;
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) throw ValidationError.invalidKey(key, [...path, key].join('.'), 'body');
    if (a.kind === 'component' && value !== null && value !== undefined) {
      const comp = ctx.model.components.get(a.component)!;
      const items = Array.isArray(value) ? value : [value];
      items.forEach((item, i) => {
        if (isObj(item)) checkKeys(ctx, comp, item, a.repeatable ? [...path, key, String(i)] : [...path, key], false);
      });
    }
    if (a.kind === 'dynamiczone' && Array.isArray(value)) {
      value.forEach((item, i) => {
        if (!isObj(item)) return;
        const comp = typeof item['__component'] === 'string' ? ctx.model.components.get(item['__component']) : undefined;
        if (comp) checkKeys(ctx, comp, item, [...path, key, String(i)], false);
      });
    }
  }
}

function emptyData(): WriteData {
  return { scalars: new Map(), relations: new Map(), media: new Map(), components: new Map(), zones: new Map() };
}

function componentValue(ctx: InputContext, comp: Component, v: unknown, path: string[], errors: FieldError[]): ComponentInput | null {
  if (!isObj(v)) {
    errors.push({ path, message: `${path.join('.')} must be a \`object\` type, but the final value was: \`${JSON.stringify(v)}\`.`, name: 'ValidationError', value: v });
    return null;
  }
  const id = v['id'];
  if (id !== undefined && (typeof id !== 'number' || !Number.isInteger(id))) {
    errors.push({ path: [...path, 'id'], message: `${path.join('.')}.id must be an integer`, name: 'ValidationError', value: id });
  }
  const { id: _id, __component: _c, ...rest } = v;
  void _id; void _c;
  const out: ComponentInput = { data: collect(ctx, comp, rest, path, errors) };
  if (typeof id === 'number') out.id = id;
  return out;
}

function zoneEntries(ctx: InputContext, a: Attribute & { kind: 'dynamiczone' }, v: unknown, path: string[], errors: FieldError[]): ZoneEntryInput[] | null {
  if (v === null) return null;
  if (!Array.isArray(v)) {
    errors.push({ path, message: `${path.join('.')} must be an array`, name: 'ValidationError', value: v });
    return null;
  }
  const out: ZoneEntryInput[] = [];
  v.forEach((item, i) => {
    const p = [...path, String(i)];
    const where = `${path.join('.')}[${i}]`;
    if (!isObj(item)) {
      errors.push({ path: p, message: `${where} must be a \`object\` type`, name: 'ValidationError', value: item });
      return;
    }
    const uid = item['__component'];
    if (uid === undefined || uid === null || uid === '') {
      errors.push({ path: [...p, '__component'], message: `${where}.__component is a required field`, name: 'ValidationError' });
      return;
    }
    const allowed = zoneComponents(ctx.model, a);
    if (typeof uid !== 'string' || !allowed.includes(uid)) {
      errors.push({ path: [...p, '__component'], message: `${where}.__component must be one of the following values: ${allowed.join(', ')}`, name: 'ValidationError', value: uid });
      return;
    }
    const c = componentValue(ctx, ctx.model.components.get(uid)!, item, p, errors);
    if (c) out.push({ component: uid, ...(c.id !== undefined ? { id: c.id } : {}), data: c.data });
  });
  return out;
}

/** Pass 2: values. Collects field errors instead of throwing, so a client sees all of them. */
function collect(ctx: InputContext, schema: Schema, data: Obj, path: string[], errors: FieldError[]): WriteData {
  const out = emptyData();
  for (const [key, value] of Object.entries(data)) {
    const a = schema.attributes.get(key);
    if (!a || value === undefined) continue;
    const p = [...path, key];
    switch (a.kind) {
      case 'scalar': {
        const r = castScalar(a, value, p);
        if (r.ok) out.scalars.set(key, r.value);
        else errors.push(r.error);
        break;
      }
      case 'relation':
        out.relations.set(key, relationOp(a as RelationAttribute, value, p));
        break;
      case 'media':
        out.media.set(key, mediaRefs(a.name, a.multiple, value));
        break;
      case 'component': {
        const comp = ctx.model.components.get(a.component)!;
        if (value === null) out.components.set(key, null);
        else if (a.repeatable) {
          if (!Array.isArray(value)) errors.push({ path: p, message: `${p.join('.')} must be an array`, name: 'ValidationError', value });
          else out.components.set(key, value.map((v, i) => componentValue(ctx, comp, v, [...p, String(i)], errors)).filter((c): c is ComponentInput => c !== null));
        } else {
          const c = componentValue(ctx, comp, value, p, errors);
          if (c) out.components.set(key, c);
        }
        break;
      }
      case 'dynamiczone':
        out.zones.set(key, zoneEntries(ctx, a, value, p, errors));
        break;
    }
  }
  return out;
}

export function checkWriteData(ctx: InputContext, schema: Schema, data: unknown): WriteData {
  if (!isObj(data)) throw new ValidationError('Missing "data" payload in the request body');
  checkKeys(ctx, schema, data, [], true);
  const errors: FieldError[] = [];
  const out = collect(ctx, schema, data, [], errors);
  if (errors.length) throw ValidationError.of(errors);
  return out;
}
