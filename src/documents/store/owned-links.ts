// The links a row holds besides its components: the relations it owns and its media. Deleting and
// copying a row's children (children.ts) and holding what a copy names (copied-targets.ts) walk the same ones.
import type { Component, ContentType, RelationAttribute } from '../../schema/types.js';

type Schema = ContentType | Component;

/** The relations a schema's rows hold the links of; `only`: of those attributes alone. */
export function ownedRelations(schema: Schema, only?: ReadonlySet<string>): RelationAttribute[] {
  const out: RelationAttribute[] = [];
  for (const a of schema.attributes.values()) if (a.kind === 'relation' && a.owner && (!only || only.has(a.name))) out.push(a);
  return out;
}

/** Whether a schema's rows have media links (among `only`'s attributes, when given). */
export function hasMedia(schema: Schema, only?: ReadonlySet<string>): boolean {
  for (const a of schema.attributes.values()) if (a.kind === 'media' && (!only || only.has(a.name))) return true;
  return false;
}
