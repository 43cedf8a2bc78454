// Checked, normalised write input: what the document writer consumes.

/**
 * Where a connected item goes. An anchor may say which version of its document it names (`locale`,
 * `status`), as Strapi 5.54 reads it: from a source without locales one document may be linked in
 * several locales.
 */
export type Position = ({ before: string } | { after: string } | { start: true } | { end: true }) & { locale?: string; status?: 'draft' | 'published' };

export interface RelationRef {
  documentId?: string;
  id?: number;
  locale?: string;
  status?: 'draft' | 'published';
  position?: Position;
}

export type RelationOp =
  | { kind: 'set'; items: RelationRef[] }
  /** strict: a position naming a document that isn't connected is an error (else: appended); unset = strict, as in Strapi 5.54 */
  | { kind: 'change'; connect: RelationRef[]; disconnect: RelationRef[]; strict?: boolean };

export interface MediaRef {
  id?: number;
  documentId?: string;
}

export interface ComponentInput {
  id?: number;
  data: WriteData;
}

export interface ZoneEntryInput {
  component: string;
  id?: number;
  data: WriteData;
}

export interface WriteData {
  /** attribute name → value cast for storage; null clears */
  scalars: Map<string, unknown>;
  relations: Map<string, RelationOp>;
  /** null or [] clears */
  media: Map<string, MediaRef[] | null>;
  components: Map<string, ComponentInput | ComponentInput[] | null>;
  zones: Map<string, ZoneEntryInput[] | null>;
  /** relations that can never hold a link (schema.emptyRelations): what they name is checked, nothing written */
  unlinked: Map<string, RelationOp>;
}
