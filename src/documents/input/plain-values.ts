// A write's input as plain values (what the publish rules read): scalars by attribute name, components
// as objects (arrays when repeatable), dynamic-zone entries as objects with `__component`.
import type { WriteData } from './types.js';
import { PARTIAL } from './validate-publish.js';

export function plainValues(data: WriteData): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of data.scalars) out[k] = v;
  // a component sent back with its id is a partial update: absent keys keep their stored values
  const item = (c: { id?: number; data: WriteData }): Record<string, unknown> => ({ ...plainValues(c.data), ...(c.id !== undefined ? { [PARTIAL]: true } : {}) });
  for (const [k, v] of data.components) out[k] = v === null ? null : Array.isArray(v) ? v.map(item) : item(v);
  for (const [k, v] of data.zones) out[k] = v === null ? null : v.map((e) => ({ __component: e.component, ...item(e) }));
  return out;
}
