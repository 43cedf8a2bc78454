// The component links under some rows, all levels deep, read one statement per level and component
// kind (not per row): deleting or copying a row's children then reads nothing more. Rows the write
// under way created are known from what it wrote (new-rows.ts) and cost no statement at all.
import type { Component, ContentType, Model } from '../../schema/types.js';
import type { CmpLink } from './new-rows.js';
import type { Store } from './rows.js';
import { inChunks } from '../../database/in-list.js';

type Schema = ContentType | Component;

export function hasComponents(schema: Schema): boolean {
  for (const a of schema.attributes.values()) if (a.kind === 'component' || a.kind === 'dynamiczone') return true;
  return false;
}

export interface ComponentTree {
  /** the component links of a row under the roots, in field and position order */
  links(schema: Schema, id: number): readonly CmpLink[];
}

export async function readComponentTree(s: Store, model: Model, schema: Schema, rootIds: readonly number[]): Promise<ComponentTree> {
  const read = new Map<string, CmpLink[]>();
  const key = (sch: Schema, id: number): string => `${sch.componentTable}#${id}`;
  const known = (sch: Schema, id: number): readonly CmpLink[] | undefined => s.newRows?.of(sch.componentTable, id) ?? read.get(key(sch, id));
  let level = new Map<Schema, Set<number>>([[schema, new Set(rootIds)]]);
  while (level.size > 0) {
    const next = new Map<Schema, Set<number>>();
    const descend = (links: readonly CmpLink[]): void => {
      for (const l of links) {
        const comp = model.components.get(l.component_type);
        if (!comp || !hasComponents(comp)) continue;
        let ids = next.get(comp);
        if (!ids) next.set(comp, (ids = new Set()));
        ids.add(l.cmp_id);
      }
    };
    for (const [sch, ids] of level) {
      if (!hasComponents(sch)) continue;
      const missing = [...ids].filter((id) => known(sch, id) === undefined);
      for (const id of missing) read.set(key(sch, id), []);
      for (const part of inChunks(missing)) {
        const rows = await s.tx
          .selectFrom(sch.componentTable)
          .select(['entity_id', 'cmp_id', 'component_type', 'field', 'ord'])
          .where('entity_id', 'in', part)
          .orderBy('entity_id')
          .orderBy('field')
          .orderBy('ord')
          .execute();
        for (const r of rows) {
          read.get(key(sch, Number(r.entity_id)))!.push({ cmp_id: Number(r.cmp_id), component_type: String(r.component_type), field: String(r.field), ord: Number(r.ord) });
        }
      }
      for (const id of ids) descend(known(sch, id) ?? []);
    }
    level = next;
  }
  return { links: (sch, id) => (hasComponents(sch) ? (known(sch, id) ?? []) : []) };
}
