// The model: what the schema files say, resolved and checked, as plain immutable data.
// Every other module reads the model; none reads schema files.
import type { VisibleRule } from './conditions.js';

export type ScalarType =
  | 'string'
  | 'text'
  | 'richtext'
  | 'enumeration'
  | 'email'
  | 'password'
  | 'uid'
  | 'date'
  | 'time'
  | 'datetime'
  | 'timestamp'
  | 'integer'
  | 'biginteger'
  | 'float'
  | 'decimal'
  | 'boolean'
  | 'json'
  | 'blocks';

export type RelationKind = 'oneToOne' | 'oneToMany' | 'manyToOne' | 'manyToMany';

interface AttributeBase {
  readonly name: string;
  readonly required: boolean;
  readonly private: boolean;
  /** on a localized type: true when its pluginOptions.i18n.localized is true (relations and uids always) */
  readonly localized: boolean;
  readonly writable: boolean;
  /** Strapi 5's `conditions.visible`: when it is false for the values, the field's publish rules are skipped */
  readonly visible?: VisibleRule;
}

export interface ScalarAttribute extends AttributeBase {
  readonly kind: 'scalar';
  readonly type: ScalarType;
  /** SQL column name */
  readonly column: string;
  readonly unique: boolean;
  readonly default?: unknown;
  readonly min?: number;
  readonly max?: number;
  readonly minLength?: number;
  readonly maxLength?: number;
  readonly regex?: string;
  readonly enum?: readonly string[];
  readonly targetField?: string;
  /** excluded from _q search (passwords, tokens) */
  readonly searchable: boolean;
}

export interface RelationAttribute extends AttributeBase {
  readonly kind: 'relation';
  readonly relation: RelationKind;
  readonly target: string;
  /** true on the side that stores the links (inversedBy side or a one-way relation) */
  readonly owner: boolean;
  /** the attribute on the other side, if the relation is bidirectional */
  readonly inverse?: string;
  /** link table holding this relation's rows (shared by both sides of a pair) */
  readonly linkTable: string;
  /** true when this side holds many targets */
  readonly toMany: boolean;
  /** true when the other side holds many (for owner-side writes that must steal links) */
  readonly inverseToMany: boolean;
}

export interface MediaAttribute extends AttributeBase {
  readonly kind: 'media';
  readonly multiple: boolean;
  readonly allowedTypes?: readonly string[];
}

export interface ComponentAttribute extends AttributeBase {
  readonly kind: 'component';
  readonly component: string;
  readonly repeatable: boolean;
  readonly min?: number;
  readonly max?: number;
}

export interface DynamicZoneAttribute extends AttributeBase {
  readonly kind: 'dynamiczone';
  readonly components: readonly string[];
  readonly min?: number;
  readonly max?: number;
}

export type Attribute = ScalarAttribute | RelationAttribute | MediaAttribute | ComponentAttribute | DynamicZoneAttribute;

/** Shared shape of content-types and components: both are rows in a table with attributes. */
export interface Schema {
  readonly uid: string;
  readonly table: string;
  readonly attributes: ReadonlyMap<string, Attribute>;
  /** attribute names in schema order */
  readonly order: readonly string[];
  /** the file it came from, for error messages */
  readonly file: string;
  /**
   * `mappedBy` relations whose other side doesn't name them back: they can never hold a link, so they
   * are no attributes, but a populate of one is read and checked (and answers no key) and a write to
   * one is checked and ignored, as Strapi serves them
   */
  readonly emptyRelations?: ReadonlyMap<string, RelationAttribute>;
  /**
   * relations to the admin panel's users or roles (`target: admin::user`, `admin::role`): no attributes, as
   * they never hold a link (admin-user.ts), but populated as empty (null, [], {count: 0}), filtered and
   * sorted as Strapi does while none is linked, and a write naming one is refused
   */
  readonly adminRelations?: ReadonlyMap<string, RelationAttribute>;
  /** when a schema has adminRelations: every populatable name in schema order, those included (`populate=*`) */
  readonly populateOrder?: readonly string[];
  /**
   * when a type's schema declares a system field (`"publishedAt": { "type": "datetime" }`, a localized type's
   * `locale`): its fields in schema order with that one where it was declared, which is where Strapi answers it
   */
  readonly fieldOrder?: readonly string[];
}

export interface ContentType extends Schema {
  readonly modelType: 'contentType';
  readonly kind: 'collectionType' | 'singleType';
  readonly singularName: string;
  readonly pluralName: string;
  readonly displayName: string;
  readonly draftAndPublish: boolean;
  readonly localized: boolean;
  /** 'api' for application types, 'plugin' for built-in ones (users, roles, files) */
  readonly origin: 'api' | 'plugin';
  /** link table for components and dynamic zones of this type's rows */
  readonly componentTable: string;
}

export interface Component extends Schema {
  readonly modelType: 'component';
  readonly category: string;
  readonly componentTable: string;
}

export interface Model {
  readonly contentTypes: ReadonlyMap<string, ContentType>;
  readonly components: ReadonlyMap<string, Component>;
  /** route segment (pluralName for collections, singularName for singles) → uid */
  readonly routes: ReadonlyMap<string, string>;
  /** what start-up says about the schema files besides errors (load-model.ts) */
  readonly notices?: readonly string[];
  /** a table → the names earlier Folio versions gave it, newest first (earlier-names.ts), which schema sync renames */
  readonly formerTables?: ReadonlyMap<string, readonly string[]>;
  /** the admin panel's user and role as a relation to one sees them (admin-user.ts); never served, never stored */
  readonly adminTypes?: ReadonlyMap<string, ContentType>;
}

export const SYSTEM_COLUMNS = {
  id: 'id',
  documentId: 'document_id',
  locale: 'locale',
  publishedAt: 'published_at',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
} as const;

export const FILE_UID = 'plugin::upload.file';
/** where every media attribute's links are kept: file, owner row and type, attribute name and order */
export const MEDIA_LINK_TABLE = 'files_related_mph';
export const USER_UID = 'plugin::users-permissions.user';
export const ROLE_UID = 'plugin::users-permissions.role';
/** kept outside the model (table up_permissions); only `populate` of a role reaches it */
export const PERMISSION_UID = 'plugin::users-permissions.permission';

export function isScalar(a: Attribute): a is ScalarAttribute {
  return a.kind === 'scalar';
}

/** A relation of `schema` that never holds a link: a mappedBy side nothing names back, or one to the admin panel's users or roles. */
export function linklessRelation(schema: Schema, name: string): RelationAttribute | undefined {
  return schema.emptyRelations?.get(name) ?? schema.adminRelations?.get(name);
}

/** The type a relation names: a served one, or for a relation among a schema's adminRelations the admin panel's user or role. */
export function relationTarget(model: Model, a: RelationAttribute): ContentType {
  const t = model.contentTypes.get(a.target) ?? model.adminTypes?.get(a.target);
  if (!t) throw new Error(`unknown relation target ${a.target}`);
  return t;
}

export function schemaOf(model: Model, uid: string): ContentType | Component {
  const s = model.contentTypes.get(uid) ?? model.components.get(uid);
  if (!s) throw new Error(`unknown schema ${uid}`);
  return s;
}
