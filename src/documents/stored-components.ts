// What a publish check knows of the components and dynamic-zone entries a write leaves out: the stored
// version keeps them, and Strapi publishes from the stored draft, validating it whole. So those the
// check has rules for are read back with their stored values, every level deep: a draft whose
// component lacks a required field, or repeats a unique value, is refused when it goes live even
// when the publishing write doesn't send that component.
import type { Attribute, Component, ContentType, Model } from '../schema/types.js';
import { formatterFor } from '../values/format-value.js';
import type { WriteData } from './input/types.js';
import { readComponentTree, type ComponentTree } from './store/component-tree.js';
import type { Store } from './store/rows.js';
import { inChunks } from '../database/in-list.js';

type Schema = ContentType | Component;
type Values = Record<string, unknown>;

/** a rule the publish check holds that a draft write does not: required, unique, minimums, counts, formats */
const draftSkips = (a: Attribute): boolean =>
  a.required === true ||
  ('min' in a && a.min !== undefined) ||
  ('max' in a && a.max !== undefined) ||
  (a.kind === 'scalar' && (a.unique === true || a.minLength !== undefined || a.regex !== undefined || a.type === 'email' || a.type === 'uid'));

/** whether a component or zone attribute holds, at any depth, something the publish check asks */
function checked(model: Model, a: Attribute, seen: ReadonlySet<string> = new Set()): boolean {
  if (a.kind !== 'component' && a.kind !== 'dynamiczone') return false;
  if (draftSkips(a)) return true;
  const uids = a.kind === 'component' ? [a.component] : a.components;
  return uids.some((uid) => {
    const c = model.components.get(uid);
    if (!c || seen.has(uid)) return false;
    const inner = new Set(seen).add(uid);
    return [...c.attributes.values()].some((x) => (x.kind === 'scalar' ? draftSkips(x) : checked(model, x, inner)));
  });
}

/** the stored rows of the components under the tree's links, one statement per component kind */
async function componentRows(s: Store, model: Model, tree: ComponentTree, type: ContentType, rowId: number, fields: ReadonlySet<string>): Promise<Map<string, Values>> {
  const ids = new Map<Component, Set<number>>();
  const visit = (schema: Schema, id: number, only?: ReadonlySet<string>): void => {
    for (const l of tree.links(schema, id)) {
      if (only && !only.has(l.field)) continue;
      const c = model.components.get(l.component_type);
      if (!c) continue;
      let set = ids.get(c);
      if (!set) ids.set(c, (set = new Set()));
      set.add(l.cmp_id);
      visit(c, l.cmp_id);
    }
  };
  visit(type, rowId, fields);
  const rows = new Map<string, Values>();
  for (const [c, set] of ids) {
    for (const part of inChunks([...set])) {
      const found = await s.tx.selectFrom(c.table).selectAll().where('id', 'in', part).execute();
      for (const r of found) rows.set(`${c.uid}#${Number((r as Values)['id'])}`, r as Values);
    }
  }
  return rows;
}

/**
 * The values of the component and zone attributes `data` leaves out, as the row `rowId` stores them,
 * in the shape plainValues gives sent ones. `sharedOnly`: only the non-localized ones, for a new locale
 * version, which starts with copies of another locale's shared components and none of its localized ones.
 */
export async function storedComponentValues(s: Store, model: Model, type: ContentType, rowId: number, data: WriteData, sharedOnly = false): Promise<Values> {
  const left = [...type.attributes.values()].filter((a) => checked(model, a) && !(sharedOnly && a.localized) && !data.components.has(a.name) && !data.zones.has(a.name));
  if (left.length === 0) return {};
  const tree = await readComponentTree(s, model, type, [rowId]);
  const rows = await componentRows(s, model, tree, type, rowId, new Set(left.map((a) => a.name)));
  const valuesOf = (schema: Schema, id: number, row: Values): Values => {
    const out: Values = {};
    const links = tree.links(schema, id);
    for (const a of schema.attributes.values()) {
      if (a.kind === 'scalar') {
        if (a.column in row) out[a.name] = formatterFor(a.type)(row[a.column]);
      } else if (a.kind === 'component' || a.kind === 'dynamiczone') {
        const v = itemsOf(a, links);
        if (v !== undefined) out[a.name] = v;
      }
    }
    return out;
  };
  const itemsOf = (a: Attribute, links: ReturnType<ComponentTree['links']>): unknown => {
    const items: Values[] = [];
    for (const l of links) {
      if (l.field !== a.name) continue;
      const c = model.components.get(l.component_type);
      const row = c && rows.get(`${c.uid}#${l.cmp_id}`);
      if (!c || !row) continue;
      const values = valuesOf(c, l.cmp_id, row);
      items.push(a.kind === 'dynamiczone' ? { __component: c.uid, ...values } : values);
    }
    if (a.kind === 'dynamiczone' || (a.kind === 'component' && a.repeatable)) return items;
    // none stored is left out, as the body left it (a required one is then reported as missing)
    return items[0];
  };
  const links = tree.links(type, rowId);
  const out: Values = {};
  for (const a of left) {
    const v = itemsOf(a, links);
    if (v !== undefined) out[a.name] = v;
  }
  return out;
}
