// Rules that apply only to published rows (and every row of types without draft & publish):
// required, minimum sizes, formats (behaviour.md §6.2). Drafts skip them.
import type { FieldError } from '../../errors.js';
import type { Component, ContentType, Model, ScalarAttribute } from '../../schema/types.js';
import { pathText } from './cast-scalar.js';

/** Marks the values of a component updated in place: its absent keys keep their stored values. */
export const PARTIAL = '__partial';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const UID = /^[A-Za-z0-9-_.~]*$/;

export interface PublishOptions {
  isCreate: boolean;
  draftAndPublish: boolean;
}

function typeName(a: ScalarAttribute): string {
  if (['integer', 'biginteger', 'float', 'decimal'].includes(a.type)) return 'number';
  if (a.type === 'boolean') return 'boolean';
  if (['date', 'datetime', 'timestamp'].includes(a.type)) return 'date';
  if (a.type === 'json' || a.type === 'blocks') return 'mixed';
  return 'string';
}

function err(path: string[], message: string, value?: unknown): FieldError {
  const e: FieldError = { path, message, name: 'ValidationError' };
  if (value !== undefined) e.value = value;
  return e;
}

function scalarRules(a: ScalarAttribute, v: unknown, path: string[], out: FieldError[]): void {
  const where = pathText(path);
  if (typeof v === 'string') {
    if (a.minLength !== undefined && v.length < a.minLength) out.push(err(path, `${where} must be at least ${a.minLength} characters`, v));
    if (a.regex !== undefined && v !== '' && !new RegExp(a.regex).test(v)) out.push(err(path, `${where} must match the following: "/${a.regex}/"`, v));
    if (a.type === 'email' && v !== '' && !EMAIL.test(v)) out.push(err(path, `${where} must be a valid email`, v));
    if (a.type === 'uid' && a.regex === undefined && !UID.test(v)) out.push(err(path, `${where} must match the following: "/^[A-Za-z0-9-_.~]*$/"`, v));
  }
  if (typeof v === 'number' && a.min !== undefined && v < a.min) out.push(err(path, `${where} must be greater than or equal to ${a.min}`, v));
}

function validate(model: Model, schema: ContentType | Component, values: Record<string, unknown>, opts: PublishOptions, path: string[], out: FieldError[]): void {
  for (const a of schema.attributes.values()) {
    const p = [...path, a.name];
    const present = a.name in values;
    const v = values[a.name];
    if (a.required && a.kind === 'scalar') {
      if (!present || v === undefined) {
        if (values[PARTIAL] === true) continue;
        if (opts.draftAndPublish && path.length === 0) out.push(err(p, `${pathText(p)} must be a \`${typeName(a)}\` type, but the final value was: \`null\`.`, null));
        else if (opts.isCreate || path.length > 0) out.push(err(p, `${pathText(p)} must be defined.`));
        continue;
      }
      if (v === null) {
        out.push(opts.draftAndPublish && path.length === 0
          ? err(p, `${pathText(p)} must be a \`${typeName(a)}\` type, but the final value was: \`null\`.`, null)
          : err(p, `${pathText(p)} cannot be null.`, null));
        continue;
      }
    }
    if (v === null || v === undefined) continue;
    if (a.kind === 'scalar') scalarRules(a, v, p, out);
    else if (a.kind === 'component') {
      const comp = model.components.get(a.component)!;
      const items = Array.isArray(v) ? v : [v];
      if (a.repeatable && a.min !== undefined && items.length < a.min) out.push(err(p, `${pathText(p)} field must have at least ${a.min} items`, v));
      if (a.repeatable && a.max !== undefined && items.length > a.max) out.push(err(p, `${pathText(p)} field must have less than or equal to ${a.max} items`, v));
      items.forEach((item, i) => {
        if (typeof item === 'object' && item !== null) validate(model, comp, item as Record<string, unknown>, { ...opts, isCreate: true }, a.repeatable ? [...p, String(i)] : p, out);
      });
    } else if (a.kind === 'dynamiczone' && Array.isArray(v)) {
      if (a.min !== undefined && v.length < a.min) out.push(err(p, `${pathText(p)} field must have at least ${a.min} items`, v));
      if (a.max !== undefined && v.length > a.max) out.push(err(p, `${pathText(p)} field must have less than or equal to ${a.max} items`, v));
      v.forEach((item, i) => {
        const uid = (item as Record<string, unknown>)['__component'];
        const comp = typeof uid === 'string' ? model.components.get(uid) : undefined;
        if (comp) validate(model, comp, item as Record<string, unknown>, { ...opts, isCreate: true }, [...p, String(i)], out);
      });
    }
  }
}

export function validateForPublish(model: Model, schema: ContentType | Component, values: Record<string, unknown>, opts: PublishOptions): FieldError[] {
  const out: FieldError[] = [];
  validate(model, schema, values, opts, [], out);
  return out;
}
