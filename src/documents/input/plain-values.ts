// A write's input as plain values (what the publish rules read): scalars by attribute name, components
// as objects (arrays when repeatable), dynamic-zone entries as objects with `__component`.
import type { Component, ContentType, Model } from '../../schema/types.js';
import type { WriteData } from './types.js';
import { PARTIAL } from './validate-publish.js';

/**
 * A new component's values with its defaults for what it leaves out: the row is stored with them, and
 * Strapi checks a required field against them (a required `value` with `default: "/"` may be left out)
 */
function withDefaults(values: Record<string, unknown>, component: Component | undefined, data: WriteData): Record<string, unknown> {
  if (!component) return values;
  for (const a of component.attributes.values()) if (a.kind === 'scalar' && a.default !== undefined && !data.scalars.has(a.name)) values[a.name] = a.default;
  return values;
}

export function plainValues(model: Model, schema: ContentType | Component, data: WriteData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of data.scalars) out[k] = v;
  // a component sent back with its id is a partial update: absent keys keep their stored values
  const item = (uid: string | undefined, c: { id?: number; data: WriteData }): Record<string, unknown> => {
    const component = uid === undefined ? undefined : model.components.get(uid);
    const values = component ? plainValues(model, component, c.data) : {};
    return c.id !== undefined ? { ...values, [PARTIAL]: true } : withDefaults(values, component, c.data);
  };
  for (const [k, v] of data.components) {
    const a = schema.attributes.get(k);
    const uid = a?.kind === 'component' ? a.component : undefined;
    out[k] = v === null ? null : Array.isArray(v) ? v.map((c) => item(uid, c)) : item(uid, v);
  }
  for (const [k, v] of data.zones) out[k] = v === null ? null : v.map((e) => ({ __component: e.component, ...item(e.component, e) }));
  return out;
}
