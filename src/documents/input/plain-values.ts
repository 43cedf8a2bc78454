// A write's input as plain values (what the publish rules read): scalars by attribute name, components
// as objects (arrays when repeatable), dynamic-zone entries as objects with `__component`.
import type { Component, ContentType, Model } from '../../schema/types.js';
import type { WriteData } from './types.js';
import { PARTIAL } from './validate-publish.js';

/**
 * `values` with the schema's defaults for the scalars `data` leaves out: a new row is stored with them,
 * and Strapi checks a required field against them (a required `value` with `default: "/"` may be left out)
 */
export function withDefaults(values: Record<string, unknown>, schema: ContentType | Component, data: WriteData): Record<string, unknown> {
  for (const a of schema.attributes.values()) if (a.kind === 'scalar' && a.default !== undefined && !data.scalars.has(a.name)) values[a.name] = a.default;
  return values;
}

/**
 * The values `data` writes, as the publish rules read them. `fresh`: the row is new (a create, a new
 * locale version), so no stored component can be updated in place and an `id` sent with one is ignored,
 * as the writer ignores it: the component is new and held to its rules whole.
 */
export function plainValues(model: Model, schema: ContentType | Component, data: WriteData, fresh = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of data.scalars) out[k] = v;
  // a component sent back with its id is a partial update: absent keys keep their stored values; a new one takes its defaults
  const item = (uid: string, c: { id?: number; data: WriteData }): Record<string, unknown> => {
    const component = model.components.get(uid)!;
    const values = plainValues(model, component, c.data, fresh);
    return c.id !== undefined && !fresh ? { ...values, [PARTIAL]: true } : withDefaults(values, component, c.data);
  };
  for (const [k, v] of data.components) {
    const a = schema.attributes.get(k);
    if (a?.kind !== 'component') continue;
    out[k] = v === null ? null : Array.isArray(v) ? v.map((c) => item(a.component, c)) : item(a.component, v);
  }
  for (const [k, v] of data.zones) out[k] = v === null ? null : v.map((e) => ({ __component: e.component, ...item(e.component, e) }));
  return out;
}
