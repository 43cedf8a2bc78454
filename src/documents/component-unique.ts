// Unique attributes inside components and dynamic zones, as Strapi 5.54 holds them when a version goes
// live: a value may not repeat within the document's own list (every repeat is named, `links.0.label`
// and `links.1.label`), nor appear at the same place in another document's live version of the locale
// (`seo.metaTitle` of another article; the same value under another attribute, or in a zone entry of
// another kind, is no clash). The document's own other rows never clash with it.
import { sql, type SqlBool } from 'kysely';
import type { FieldError } from '../errors.js';
import { lockKey } from '../database/key-lock.js';
import type { Component, ContentType, Model, ScalarAttribute } from '../schema/types.js';
import { isVisible } from '../schema/conditions.js';
import { formatterFor } from '../values/format-value.js';
import { toColumn, type Store } from './store/rows.js';
import { holdsToUniqueness, notUnique, type UniqueScope } from './unique-values.js';

/** One hop from a row to its component: the attribute, and the component kind when it is a zone's. */
interface Hop {
  readonly field: string;
  readonly component: Component;
  readonly zone: boolean;
}

/** A unique value found in the written version, where it sits and how to reach its kind of place. */
interface Occurrence {
  readonly hops: readonly Hop[];
  readonly attr: ScalarAttribute;
  readonly value: unknown;
  readonly path: readonly string[];
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function collect(model: Model, schema: ContentType | Component, values: Record<string, unknown>, hops: readonly Hop[], path: readonly string[], out: Occurrence[]): void {
  for (const a of schema.attributes.values()) {
    const v = values[a.name];
    if (a.kind === 'scalar') {
      if (hops.length > 0 && a.unique && holdsToUniqueness(v) && isVisible(a, values)) out.push({ hops, attr: a, value: v, path: [...path, a.name] });
    } else if (a.kind === 'component') {
      const component = model.components.get(a.component)!;
      const items = a.repeatable ? (Array.isArray(v) ? v : []) : isObj(v) ? [v] : [];
      items.forEach((item, i) => {
        if (isObj(item))
          collect(model, component, item, [...hops, { field: a.name, component, zone: false }], a.repeatable ? [...path, a.name, String(i)] : [...path, a.name], out);
      });
    } else if (a.kind === 'dynamiczone' && Array.isArray(v)) {
      v.forEach((item, i) => {
        const component = isObj(item) && typeof item['__component'] === 'string' ? model.components.get(item['__component']) : undefined;
        if (component && isObj(item)) collect(model, component, item, [...hops, { field: a.name, component, zone: true }], [...path, a.name, String(i)], out);
      });
    }
  }
}

/** the same kind of place: the same attributes down to it, the same component kinds in zones */
const placeOf = (o: Occurrence): string => [...o.hops.map((h) => (h.zone ? `${h.field}[${h.component.uid}]` : h.field)), o.attr.name].join('.');

/**
 * The values of `place` that another document's live version of the locale holds among `values`, each
 * as `valueKey` shows it: one statement per place, however many entries a list gives it.
 */
async function heldElsewhere(s: Store, scope: UniqueScope, place: Occurrence, values: readonly unknown[]): Promise<Set<string>> {
  const { type, documentId, locale } = scope;
  let q = s.tx.selectFrom(`${type.table} as r`);
  let parentAlias = 'r';
  let parentSchema: ContentType | Component = type;
  place.hops.forEach((h, i) => {
    const link = `c${i}`;
    const row = `t${i}`;
    const conds = [sql<SqlBool>`${sql.ref(`${link}.entity_id`)} = ${sql.ref(`${parentAlias}.id`)}`, sql<SqlBool>`${sql.ref(`${link}.field`)} = ${h.field}`];
    if (h.zone) conds.push(sql<SqlBool>`${sql.ref(`${link}.component_type`)} = ${h.component.uid}`);
    q = q
      .innerJoin(`${parentSchema.componentTable} as ${link}`, (j) => j.on(sql<SqlBool>`${sql.join(conds, sql` and `)}`))
      .innerJoin(`${h.component.table} as ${row}`, `${row}.id`, `${link}.cmp_id`);
    parentAlias = row;
    parentSchema = h.component;
  });
  const column = sql.ref(`${parentAlias}.${place.attr.column}`);
  let found = q
    .select(sql`${column}`.as('v'))
    .distinct()
    .where(sql<SqlBool>`${column} in (${sql.join(values.map((v) => toColumn(s.dialect, place.attr, v)))})`)
    .where('r.document_id', '<>', documentId);
  if (type.draftAndPublish) found = found.where('r.published_at', 'is not', null);
  if (type.localized && locale !== null) found = found.where('r.locale', '=', locale);
  return new Set((await found.execute()).map((r) => valueKey(place.attr, r['v'])));
}

/** a value as its attribute reads it back, whether given as input or as a column holds it (a decimal PostgreSQL answers as text) */
function valueKey(attr: ScalarAttribute, stored: unknown): string {
  return JSON.stringify(formatterFor(attr.type)(stored));
}

export async function componentUniqueErrors(s: Store, model: Model, scope: UniqueScope, values: Record<string, unknown>): Promise<FieldError[]> {
  const occurrences: Occurrence[] = [];
  collect(model, scope.type, values, [], [], occurrences);
  if (occurrences.length === 0) return [];
  const keyOf = (o: Occurrence): string => valueKey(o.attr, toColumn(s.dialect, o.attr, o.value));
  const byPlace = new Map<string, Occurrence[]>();
  for (const o of occurrences) {
    const list = byPlace.get(placeOf(o));
    if (list) list.push(o);
    else byPlace.set(placeOf(o), [o]);
  }
  const clashing = new Set<Occurrence>();
  for (const [place, list] of byPlace) {
    const counts = new Map<string, number>();
    for (const o of list) counts.set(keyOf(o), (counts.get(keyOf(o)) ?? 0) + 1);
    // a value repeated within the document clashes at each repeat; the others are compared with other documents
    const single: Occurrence[] = [];
    for (const o of list) {
      if (counts.get(keyOf(o)) === 1) single.push(o);
      else clashing.add(o);
    }
    if (single.length === 0) continue;
    // one writer of the place at a time, from its check to its commit, as for top-level attributes
    await lockKey(s.tx, s.dialect, `${scope.type.uid}.${place}:unique`);
    const held = await heldElsewhere(
      s,
      scope,
      single[0]!,
      single.map((o) => o.value),
    );
    for (const o of single) if (held.has(keyOf(o))) clashing.add(o);
  }
  return occurrences.filter((o) => clashing.has(o)).map((o) => ({ ...notUnique(o.attr, o.value), path: [...o.path] }));
}
