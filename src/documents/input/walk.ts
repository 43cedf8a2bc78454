// Depth-first walk over the keys of a write body and of the component and dynamic-zone values
// inside it, the traversal each key check of check-keys.ts runs over the whole body.
import { linklessRelation, type Attribute, type Component, type ContentType, type Model } from '../../schema/types.js';

export type Schema = ContentType | Component;
export type Obj = Record<string, unknown>;

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Where the object being walked sits: the body itself, a component value, or a dynamic-zone entry. */
export type Place = 'root' | 'component' | 'zone-entry';

export interface KeyVisit {
  readonly schema: Schema;
  readonly key: string;
  readonly value: unknown;
  readonly attribute: Attribute | undefined;
  readonly place: Place;
  /**
   * Dotted attribute path of the object holding the key, without array indices (`seo`, `links`,
   * `blocks`), null at the root: the `path` Strapi puts in "Invalid key" details.
   */
  readonly parentPath: string | null;
  /** the same path with the key appended */
  readonly path: string;
}

/**
 * The component a dynamic-zone entry names, if it is a registered one; else it isn't walked. Its keys
 * are checked even when the zone doesn't list it, as Strapi checks them before it looks at the zone
 * (the value pass then refuses the entry).
 */
export function zoneEntryComponent(model: Model, entry: Obj): Component | undefined {
  const uid = entry['__component'];
  return typeof uid === 'string' ? model.components.get(uid) : undefined;
}

export function walkKeys(model: Model, schema: Schema, data: Obj, visit: (v: KeyVisit) => void, place: Place = 'root', parentPath: string | null = null): void {
  for (const key of Object.keys(data)) {
    const value = data[key];
    // a relation that never holds a link is checked as any relation (then the value is ignored)
    const attribute = schema.attributes.get(key) ?? linklessRelation(schema, key);
    const path = parentPath === null ? key : `${parentPath}.${key}`;
    visit({ schema, key, value, attribute, place, parentPath, path });
    if (attribute?.kind === 'component') {
      const comp = model.components.get(attribute.component);
      if (!comp) continue;
      for (const v of Array.isArray(value) ? value : [value]) {
        if (isObj(v)) walkKeys(model, comp, v, visit, 'component', path);
      }
    } else if (attribute?.kind === 'dynamiczone' && Array.isArray(value)) {
      for (const entry of value) {
        if (!isObj(entry)) continue;
        const comp = zoneEntryComponent(model, entry);
        if (comp) walkKeys(model, comp, entry, visit, 'zone-entry', path);
      }
    }
  }
}
