// What a publish check knows of the components and dynamic-zone entries a write leaves out: the stored
// version keeps them, so a required component or a zone's item count holds when the body doesn't
// name them (Strapi publishes from the stored draft). Each stored item stands as a partial value —
// its own required fields are not asked again — in the shape plainValues gives sent ones.
import type { ContentType } from '../schema/types.js';
import type { WriteData } from './input/types.js';
import { PARTIAL } from './input/validate-publish.js';
import type { Store } from './store/rows.js';

/**
 * `sharedOnly`: read only the non-localized ones, for a new locale version, which starts with copies
 * of another locale's shared components and none of its localized ones.
 */
export async function storedComponentValues(s: Store, type: ContentType, rowId: number, data: WriteData, sharedOnly = false): Promise<Record<string, unknown>> {
  // only what a publish check reads: required ones, and those with an item count to hold
  const left = [...type.attributes.values()].filter(
    (a) =>
      (a.kind === 'component' || a.kind === 'dynamiczone') &&
      (a.required || a.min !== undefined) &&
      !(sharedOnly && a.localized) &&
      !data.components.has(a.name) &&
      !data.zones.has(a.name),
  );
  if (left.length === 0) return {};
  const rows = await s.tx
    .selectFrom(type.componentTable)
    .select(['field', 'component_type'])
    .where('entity_id', '=', rowId)
    .where(
      'field',
      'in',
      left.map((a) => a.name),
    )
    .orderBy('ord')
    .execute();
  const out: Record<string, unknown> = {};
  for (const a of left) {
    const items = rows.filter((r) => r.field === a.name);
    if (a.kind === 'dynamiczone') out[a.name] = items.map((r) => ({ __component: String(r.component_type), [PARTIAL]: true }));
    else if (a.kind === 'component' && a.repeatable) out[a.name] = items.map(() => ({ [PARTIAL]: true }));
    else if (items.length > 0) out[a.name] = { [PARTIAL]: true };
  }
  return out;
}
