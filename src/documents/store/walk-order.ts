// The order in which writing a document's data row by row reached its rows: each row's components and zone
// entries first (depth first, components before zones), then the row itself. A file's `related` list shows
// the rows linking it at one place in the order their links were inserted, so the media links of rows
// written a level at a time (component-lists.ts) are inserted in this order, as row by row inserted them.
import type { WriteData } from '../input/types.js';

export function walkOrder(data: WriteData): WeakMap<WriteData, number> {
  const order = new WeakMap<WriteData, number>();
  let next = 0;
  const visit = (d: WriteData): void => {
    for (const value of d.components.values()) for (const c of value === null ? [] : Array.isArray(value) ? value : [value]) visit(c.data);
    for (const value of d.zones.values()) for (const e of value ?? []) visit(e.data);
    order.set(d, next++);
  };
  visit(data);
  return order;
}
