// The Query AST: what a request asks for, checked against the model, before any SQL exists.
// Plain immutable data: parsers build it, the SQL compiler and populate loader read it.

export type CompareOp =
  | '$eq'
  | '$eqi'
  | '$ne'
  | '$nei'
  | '$lt'
  | '$lte'
  | '$gt'
  | '$gte'
  | '$in'
  | '$notIn'
  | '$contains'
  | '$notContains'
  | '$containsi'
  | '$notContainsi'
  | '$startsWith'
  | '$startsWithi'
  | '$endsWith'
  | '$endsWithi'
  | '$null'
  | '$notNull'
  | '$between';

export const COMPARE_OPS: ReadonlySet<string> = new Set<CompareOp>([
  '$eq',
  '$eqi',
  '$ne',
  '$nei',
  '$lt',
  '$lte',
  '$gt',
  '$gte',
  '$in',
  '$notIn',
  '$contains',
  '$notContains',
  '$containsi',
  '$notContainsi',
  '$startsWith',
  '$startsWithi',
  '$endsWith',
  '$endsWithi',
  '$null',
  '$notNull',
  '$between',
]);

/** A value cast to the attribute's type: what is bound as an SQL parameter. */
export type SqlValue = string | number | boolean | null;

/**
 * What a field name in a filter or sort resolves to. `column` is an SQL identifier taken from the
 * model (never from input); `valueType` says how values were cast.
 */
export interface FieldRef {
  readonly column: string;
  readonly valueType: 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'time' | 'datetime' | 'biginteger' | 'json';
}

export type Where =
  | { readonly kind: 'and'; readonly items: readonly Where[] }
  | { readonly kind: 'or'; readonly items: readonly Where[] }
  | { readonly kind: 'not'; readonly item: Where }
  /**
   * value: a single value for most ops; an array for $in/$notIn (and for any op given an array:
   * then it means OR over the elements, which the parser already expands); [a, b] for $between;
   * a boolean for $null/$notNull.
   */
  | { readonly kind: 'compare'; readonly field: FieldRef; readonly op: CompareOp; readonly value: SqlValue | readonly SqlValue[] }
  /** a condition on related documents: true when at least one related target matches */
  | { readonly kind: 'relation'; readonly attribute: string; readonly owner: string; readonly where: Where }
  /** a condition on a component (single or repeatable) of the row */
  | { readonly kind: 'component'; readonly attribute: string; readonly owner: string; readonly where: Where }
  /** a condition on a media attribute's files (cover.name) */
  | { readonly kind: 'media'; readonly attribute: string; readonly owner: string; readonly where: Where }
  /**
   * a condition on the document's other locale versions, the rows `populate[localizations]` shows
   * (`attribute` is always 'localizations')
   */
  | { readonly kind: 'localizations'; readonly attribute: 'localizations'; readonly owner: string; readonly where: Where }
  /**
   * a condition decided without reading: one through a relation that never holds a link (to the admin
   * panel's users) holds exactly when it holds on Strapi's row of NULLs (missing-row.ts)
   */
  | { readonly kind: 'constant'; readonly value: boolean };

export interface SortItem {
  /**
   * Attribute names walked from the root schema through to-one/to-many relations or components
   * before reaching the field; empty for a root field.
   */
  readonly path: readonly string[];
  readonly field: FieldRef;
  readonly direction: 'asc' | 'desc';
}

export interface Pagination {
  readonly mode: 'page' | 'offset';
  readonly start: number;
  readonly limit: number;
  readonly withCount: boolean;
}

export type PublicationFilter =
  | 'never-published'
  | 'has-published-version'
  | 'modified'
  | 'unmodified'
  | 'never-published-document'
  | 'has-published-version-document'
  | 'published-without-draft'
  | 'published-with-draft';

export const PUBLICATION_FILTERS: readonly PublicationFilter[] = [
  'never-published',
  'has-published-version',
  'modified',
  'unmodified',
  'never-published-document',
  'has-published-version-document',
  'published-without-draft',
  'published-with-draft',
];

/**
 * `permissions`: a role's permissions, kept outside the model (see populate-permissions.ts);
 * `unlinked`: a relation to the admin panel's users, which never holds a link (schema adminRelations)
 */
export type PopulateKind = 'relation' | 'media' | 'component' | 'dynamiczone' | 'localizations' | 'permissions' | 'unlinked';

/** What to load for one populated attribute. */
export interface PopulateNode {
  readonly attribute: string;
  readonly kind: PopulateKind;
  /** selected scalar attribute names of the target; null = all scalars */
  readonly fields: readonly string[] | null;
  readonly where: Where | null;
  readonly sort: readonly SortItem[] | null;
  /** nested populate of the target (relations, media, components: keyed by attribute name) */
  readonly populate: PopulateMap;
  /**
   * whether the entry asked for a level below itself (`populate` given, even naming nothing, or a dotted
   * path going on): Strapi reads such a level, and that decides where the key comes (populate.ts)
   */
  readonly nested: boolean;
  /** relations and components: return {count: n} instead of entries */
  readonly count: boolean;
  /**
   * dynamic zones only: per component uid, how its entries are read (a node of kind 'component'
   * keyed by the uid: fields, filters, nested populate)
   */
  readonly on: ReadonlyMap<string, PopulateNode> | null;
  /**
   * dynamic zones only: true when the client named components with `on` fragments; then only
   * entries of those components come back (a dot path or `populate=*` keeps every entry)
   */
  readonly fragmentsOnly: boolean;
  /** media only: each file's `related` (`populate[cover][populate]=related`), null when not asked */
  readonly related: RelatedSpec | null;
}

/**
 * What is asked of a file's `related`, the polymorphic link to the entries and components that use
 * it: the whole list, or Strapi's morph forms (`on` fragments, `count`).
 */
export interface RelatedSpec {
  /** the linked types to show, each with its field selection (null: all fields); null: every type */
  readonly on: ReadonlyMap<string, readonly string[] | null> | null;
  /** answer `{count}`, how many linked entries there are, instead of listing them */
  readonly count: boolean;
  /** the content types the caller may `find`: only their entries (and components they hold) are listed */
  readonly readable: ReadonlySet<string>;
}

export type PopulateMap = ReadonlyMap<string, PopulateNode>;

export type Status = 'published' | 'draft';

/** A parsed GET query of a content list or single document. */
export interface FindQuery {
  readonly where: Where | null;
  readonly sort: readonly SortItem[];
  readonly pagination: Pagination;
  readonly fields: readonly string[] | null;
  readonly populate: PopulateMap;
  readonly status: Status;
  /** '*' for every locale; a list for several; on a non-localized type the one locale named (for its localized targets) or null */
  readonly locale: string | readonly string[] | null;
  readonly publicationFilter: PublicationFilter | null;
  readonly search: string | null;
}
