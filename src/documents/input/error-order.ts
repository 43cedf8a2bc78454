// Field errors in the order yup lists them for Strapi: by the schema's attribute order at each level
// (components by their own, dynamic-zone entries by the component each names), list entries by
// index (a component list's items that aren't objects first), and root errors last. Errors inside one scalar attribute keep the order they were found in.
import type { FieldError } from '../../errors.js';
import type { Model } from '../../schema/types.js';
import { isObj, type Schema } from './walk.js';

/** Where an error sits: one number per path segment, as far as the schema says. */
function rank(model: Model, schema: Schema, data: unknown, path: readonly string[]): number[] {
  const out: number[] = [];
  let s: Schema | undefined = schema;
  let v: unknown = data;
  let zone = false;
  for (const [depth, seg] of path.entries()) {
    if (/^\d+$/.test(seg)) {
      // yup doesn't sort a list's errors: an item that isn't an object fails at once and comes before the
      // errors found inside the other items of a component list (seen on Strapi 5.54); then by index
      if (!zone) out.push(depth === path.length - 1 ? 0 : 1);
      out.push(Number(seg));
      v = Array.isArray(v) ? v[Number(seg)] : undefined;
      if (zone) {
        const uid = isObj(v) ? v['__component'] : undefined;
        s = typeof uid === 'string' ? model.components.get(uid) : undefined;
        zone = false;
      }
      continue;
    }
    if (s === undefined) break;
    const names = [...s.attributes.keys()];
    const i = names.indexOf(seg);
    out.push(i < 0 ? names.length : i);
    const a = s.attributes.get(seg);
    v = isObj(v) ? v[seg] : undefined;
    if (a?.kind === 'component') s = model.components.get(a.component);
    else if (a?.kind === 'dynamiczone') [s, zone] = [undefined, true];
    else break;
  }
  return out;
}

function compare(a: readonly number[], b: readonly number[]): number {
  // a root error (no path) comes after every field's
  if (a.length === 0 || b.length === 0) return (a.length === 0 ? 1 : 0) - (b.length === 0 ? 1 : 0);
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** `errors` sorted as Strapi lists them for a body `data` of `schema` (a stable sort). */
export function inSchemaOrder(model: Model, schema: Schema, data: unknown, errors: readonly FieldError[]): FieldError[] {
  const ranked = errors.map((e) => ({ e, r: rank(model, schema, data, e.path) }));
  return ranked.sort((x, y) => compare(x.r, y.r)).map((x) => x.e);
}
