// Builds the whole model from a project folder: project types, components and built-in types,
// with relations paired and every cross-reference checked. Every problem is collected, so one start
// names them all (SchemaErrors); a reference to something already reported as wrong is not reported again.
import { SchemaError } from '../errors.js';
import { buildAttribute } from './attributes.js';
import { componentTableName, linkTableName, snakeCase, tableName } from './identifiers.js';
import { earlierComponentCollection, earlierComponentTableNames, earlierLinkTableNames, earlierTableNames, earlierTypeCollection } from './earlier-names.js';
import { BUILTIN_SCHEMAS } from './builtin.js';
import { ADMIN_TYPES } from './admin-user.js';
import { SYSTEM_TABLES } from '../database/tables.js';
import { SchemaProblems } from './problems.js';
import { localCustomFields, type LocalRegistration } from './local-custom-fields.js';
import { readComponentFiles, readContentTypeFiles, readExtensionFile, type RawFile } from './read-files.js';
import type { SchemaModule } from './schema-modules.js';
import { SYSTEM_COLUMNS, type Attribute, type Component, type ContentType, type Model, type RelationAttribute, type ScalarType } from './types.js';

// Strapi's Content-Type Builder allows hyphens (`components_blocks_logo-buttons`); every statement quotes names
const TABLE = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/**
 * Strapi's own attributes of the built-in types, served Folio's way: an extension restating them (a
 * copy of Strapi's schema file often does) leaves them as Folio defines them. The account secrets stay
 * private; a role's permission rows and a file's links and folder are kept in Folio's own tables, not
 * as attributes.
 */
const KEPT: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ['plugin::users-permissions.user', new Set(['password', 'resetPasswordToken', 'confirmationToken'])],
  ['plugin::users-permissions.role', new Set(['permissions'])],
  ['plugin::upload.file', new Set(['related', 'folder'])],
]);

/**
 * Attributes Strapi added to a built-in type after projects began copying its schema into
 * src/extensions. Strapi's extension replaces the built-in attributes whole, so an extension that
 * restates an older schema (naming every required built-in attribute) without one of these has no
 * such attribute, and responses leave its key out.
 */
const LATER: ReadonlyMap<string, readonly string[]> = new Map([['plugin::upload.file', ['focalPoint']]]);

export interface LoadModelOptions {
  /** config/custom-fields: custom field id → the type it is stored as */
  readonly customFields?: ReadonlyMap<string, ScalarType>;
  /** content-type schemas written as modules, run beforehand (schema-modules.ts) */
  readonly schemaModules?: ReadonlyMap<string, SchemaModule>;
}

interface Loader {
  readonly root: string;
  readonly problems: SchemaProblems;
  /** what start-up says besides errors */
  readonly notices: string[];
  readonly customFields: ReadonlyMap<string, ScalarType> | undefined;
  /** where the project's own plugins register custom fields, scanned only if one is unknown */
  readonly localCustomField: (id: string) => LocalRegistration | undefined;
  /** table name → the names earlier Folio versions gave it (Model.formerTables) */
  readonly formerTables: Map<string, readonly string[]>;
  /** table name → the collectionName an earlier Folio read for its type (earlier-names.ts) */
  readonly earlierCollections: Map<string, string>;
  /** table name → what holds it (a schema file, a relation), so no two things share one */
  readonly tables: Map<string, string>;
}

/** Takes `table` for `holder`, or says what has it already. */
function claimTable(load: Loader, table: string, holder: string, file: string, attribute: string | null = null): void {
  const prev = load.tables.get(table);
  if (prev !== undefined) throw new SchemaError(file, attribute, `table "${table}" is already used by ${prev}`);
  load.tables.set(table, holder);
}

/** the columns of every content type's rows, and of every component's, that no attribute may take */
const TYPE_COLUMNS: readonly string[] = Object.values(SYSTEM_COLUMNS);
const COMPONENT_COLUMNS: readonly string[] = [SYSTEM_COLUMNS.id];

function extensionOf(load: Loader, uid: string): RawFile | undefined {
  const m = /^plugin::([a-z0-9-]+)\.([a-z0-9-]+)$/.exec(uid);
  return m ? readExtensionFile(load.root, m[1]!, m[2]!, load.problems) : undefined;
}

/**
 * A built-in schema with a project's extension on top, as Strapi reads src/extensions: its attributes
 * are added to (or replace) the built-in ones; table, names and options stay the built-in type's, and
 * the account secrets keep their built-in definitions.
 */
function extended(uid: string, builtin: Record<string, unknown>, ext: Record<string, unknown>, file: string): Record<string, unknown> {
  const attrs = ext['attributes'];
  if (attrs === undefined) return builtin;
  if (typeof attrs !== 'object' || attrs === null || Array.isArray(attrs)) throw new SchemaError(file, null, '"attributes" must be an object');
  const base = builtin['attributes'] as Record<string, unknown>;
  const kept = KEPT.get(uid);
  // an extension restating the schema is the schema, its attributes in its order (a user's keys come in
  // that order, as in Strapi 5.54); one that only adds attributes keeps the built-in ones first (Folio's
  // reading: Strapi would lose them all)
  const restated = restates(base, attrs);
  const merged: Record<string, unknown> = {};
  if (!restated) Object.assign(merged, base);
  for (const [name, def] of Object.entries(attrs)) {
    // the account secrets and the file's own links keep their built-in definitions (or stay absent)
    if (kept?.has(name)) {
      if (Object.hasOwn(base, name)) merged[name] = base[name];
    } else merged[name] = def;
  }
  // a built-in attribute a restating extension leaves out is gone from Strapi's type (not answered,
  // filtered or sorted on); Folio keeps its column for its own flows (a user's `confirmed`) but private
  for (const [name, def] of Object.entries(base)) if (!Object.hasOwn(merged, name)) merged[name] = restated ? { ...(def as object), private: true } : def;
  if (restated) for (const name of LATER.get(uid) ?? []) if (!Object.hasOwn(attrs, name)) delete merged[name];
  return { ...builtin, attributes: merged };
}

/** whether an extension's attributes restate the built-in schema: they name every required built-in attribute */
function restates(base: Record<string, unknown>, attrs: object): boolean {
  return Object.entries(base).every(([name, def]) => (def as { required?: unknown }).required !== true || Object.hasOwn(attrs, name));
}

function str(json: Record<string, unknown>, path: string[], file: string): string {
  let cur: unknown = json;
  for (const p of path) cur = (cur as Record<string, unknown> | undefined)?.[p];
  if (typeof cur !== 'string' || cur === '') throw new SchemaError(file, null, `missing "${path.join('.')}"`);
  return cur;
}

const TIMESTAMPS: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'publishedAt']);
const CREATOR_FIELDS: ReadonlySet<string> = new Set(['createdBy', 'updatedBy']);

/**
 * `"createdAt": { "type": "datetime" }` and the like, which some projects write out: Strapi reads them as its own,
 * a `date` too (`"publishedAt": { "type": "date" }` in local-law-cms: Strapi keeps its datetime column and ignores
 * the value a body sends).
 */
function isSystemTimestamp(name: string, def: unknown): boolean {
  const type = declaredType(def);
  return TIMESTAMPS.has(name) && (type === 'datetime' || type === 'timestamp' || type === 'date');
}

/** `{ "type": "string" }` or another type holding text, as a declared `locale` may be written */
function isTextual(def: unknown): boolean {
  const type = declaredType(def);
  return type === 'string' || type === 'text' || type === 'enumeration';
}

/** the `type` an attribute's definition declares, before it is checked */
function declaredType(def: unknown): unknown {
  return typeof def === 'object' && def !== null ? (def as Record<string, unknown>)['type'] : undefined;
}

/** The attributes that are right; each wrong one is recorded and left out. */
function attributesOf(
  load: Loader,
  uid: string,
  json: Record<string, unknown>,
  file: string,
  typeLocalized: boolean,
  system: readonly string[],
): [Map<string, Attribute>, string[], string[] | undefined] {
  const raw = json['attributes'];
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new SchemaError(file, null, 'missing "attributes" object');
  const map = new Map<string, Attribute>();
  const columns = new Map<string, string>(system.map((c) => [c, '']));
  const inComponent = !uid.includes('::');
  const ctx = { file, typeLocalized, customFields: load.customFields, localCustomField: load.localCustomField, notices: load.notices, inComponent };
  // the system fields declared: Strapi answers them where they are declared
  const declaredSystem = new Set<string>();
  for (const [name, def] of Object.entries(raw)) {
    if (!inComponent && isSystemTimestamp(name, def)) {
      load.notices.push(`${file}: attribute "${name}" is the system timestamp every entry has; its declaration is left out`);
      declaredSystem.add(name);
      continue;
    }
    // Strapi puts its own (private) admin-user fields in their place on every content type, so a client can
    // neither send, populate nor filter them (`Invalid key createdBy`); Folio has no admin users
    if (CREATOR_FIELDS.has(name) && !inComponent) {
      load.notices.push(`${file}: attribute "${name}" is Strapi's own admin-user field, which clients can't read or write; its declaration is left out`);
      continue;
    }
    // a localized type declaring `locale` (elankosan/digity-strapi does): Strapi serves its own locale there
    // (`?locale=` picks it, a `locale` in a body is ignored, filters and sort read it)
    if (name === 'locale' && typeLocalized && isTextual(def)) {
      load.notices.push(`${file}: attribute "locale" is the locale every entry of a localized type has; its declaration is left out`);
      declaredSystem.add(name);
      continue;
    }
    // a localized type declaring `localizations` (an exported Strapi schema, UmarSidiki/meetswiss_website): Strapi's
    // i18n puts its own relation to the document's other locales there, which Folio serves under that name too
    if (name === 'localizations' && typeLocalized) {
      load.notices.push(`${file}: attribute "localizations" is the list of other locales every entry of a localized type has; its declaration is left out`);
      continue;
    }
    // on a type without i18n Strapi 5.54 starts and serves no such field (leqta_strapi's partner request):
    // a `locale` in a body is ignored, responses leave it out, filters and sort on it are `Invalid key locale`
    if (name === 'locale' && !typeLocalized) {
      load.notices.push(`${file}: attribute "locale" is a name Strapi keeps for locales and serves no field under on a type without i18n; its declaration is left out`);
      continue;
    }
    const attr = load.problems.attempt(() => {
      const a = buildAttribute(name, def, ctx);
      if (a.kind === 'scalar') {
        const clash = columns.get(a.column);
        if (clash === '') throw new SchemaError(file, name, `its column "${a.column}" is one every entry has already`);
        if (clash !== undefined) throw new SchemaError(file, name, `its column "${a.column}" clashes with attribute "${clash}"`);
        columns.set(a.column, name);
      }
      return a;
    });
    if (attr) map.set(name, attr);
    else load.problems.markAttribute(uid, name);
  }
  const order = Object.keys(raw).filter((n) => map.has(n));
  const fieldOrder = declaredSystem.size > 0 ? Object.keys(raw).filter((n) => map.has(n) || declaredSystem.has(n)) : undefined;
  return [map, order, fieldOrder];
}

/**
 * A localized type's attributes that say nothing about i18n are shared by its locales, as Strapi 5
 * reads them (the admin panel always writes the option; hand-written schemas leave it out). Said once
 * per type at start-up: a database written when such fields were kept per locale has each locale's own
 * value until the next write copies one over the others.
 */
function sayShared(notices: string[], file: string, json: Record<string, unknown>, attributes: ReadonlyMap<string, Attribute>): void {
  const raw = json['attributes'] as Record<string, { pluginOptions?: { i18n?: { localized?: unknown } } } | undefined>;
  const shared = [...attributes.values()].filter((a) => !a.localized && a.kind !== 'relation' && raw[a.name]?.pluginOptions?.i18n?.localized === undefined).map((a) => a.name);
  if (shared.length)
    notices.push(
      `${file}: ${shared.map((n) => `"${n}"`).join(', ')} ${shared.length === 1 ? 'has' : 'have'} no pluginOptions.i18n.localized: shared by the locales, as in Strapi 5`,
    );
}

function contentType(load: Loader, uid: string, json: Record<string, unknown>, file: string, origin: 'api' | 'plugin'): ContentType {
  // Strapi reads a missing (or empty) kind as a collection type
  const kind = json['kind'] === undefined || json['kind'] === null || json['kind'] === '' ? 'collectionType' : json['kind'];
  if (kind !== 'collectionType' && kind !== 'singleType') {
    throw new SchemaError(file, null, '"kind" must be "collectionType" or "singleType"');
  }
  const singularName = str(json, ['info', 'singularName'], file);
  const pluralName = str(json, ['info', 'pluralName'], file);
  if (singularName === pluralName) throw new SchemaError(file, null, 'singularName and pluralName must differ');
  // without a collectionName Strapi names the table after the singularName, as written (`gadget-item`)
  const given = typeof json['collectionName'] === 'string' ? (json['collectionName'] as string) : undefined;
  const collectionName = given ?? singularName;
  if (!TABLE.test(collectionName)) throw new SchemaError(file, null, `collectionName "${collectionName}" is not a valid table name`);
  const [table, componentTable] = namedTables(load, collectionName, given ?? earlierTypeCollection(pluralName));
  const options = (json['options'] ?? {}) as Record<string, unknown>;
  const localized = (json['pluginOptions'] as { i18n?: { localized?: unknown } } | undefined)?.i18n?.localized === true;
  const [attributes, order, fieldOrder] = attributesOf(load, uid, json, file, localized, TYPE_COLUMNS);
  if (localized) sayShared(load.notices, file, json, attributes);
  const info = json['info'] as Record<string, unknown>;
  return {
    modelType: 'contentType',
    uid,
    kind,
    singularName,
    pluralName,
    table,
    file,
    origin,
    displayName: typeof info['displayName'] === 'string' ? info['displayName'] : singularName,
    draftAndPublish: options['draftAndPublish'] === true,
    localized,
    attributes,
    order,
    ...(fieldOrder && { fieldOrder }),
    componentTable,
  };
}

/** notes the names earlier Folio versions gave a table, so a sync renames those tables instead of starting empty ones */
function noteFormer(former: Map<string, readonly string[]>, table: string, earlier: readonly string[]): void {
  if (earlier.length) former.set(table, earlier);
}

/**
 * A type's table and its components' table, shortened as Strapi shortens them, with what earlier
 * Folio versions named them from `earlierCollection`, the collectionName they read.
 */
function namedTables(load: Loader, collectionName: string, earlierCollection: string): [string, string] {
  const table = tableName(collectionName);
  const componentTable = componentTableName(collectionName);
  noteFormer(load.formerTables, table, earlierTableNames(table, earlierCollection));
  noteFormer(load.formerTables, componentTable, earlierComponentTableNames(componentTable, earlierCollection));
  load.earlierCollections.set(table, earlierCollection);
  return [table, componentTable];
}

/** A relation's link table, `<table>_<attribute>_lnk` in lodash's snake_case, shortened as Strapi shortens it. */
function linkTableOf(load: Loader, table: string, attribute: string): string {
  const name = linkTableName(table, attribute);
  noteFormer(load.formerTables, name, earlierLinkTableNames(name, load.earlierCollections.get(table) ?? table, attribute));
  return name;
}

const PAIRED: Readonly<Record<string, string>> = { oneToOne: 'oneToOne', oneToMany: 'manyToOne', manyToOne: 'oneToMany', manyToMany: 'manyToMany' };

/** Whether `a` comes after `b` in the order the schema files are read (built-in types, then the project's). */
function declaredLater(types: Map<string, ContentType>, a: ContentType | Component, b: ContentType): boolean {
  const order = [...types.keys()];
  return a.modelType === 'contentType' && order.indexOf(a.uid) > order.indexOf(b.uid);
}

/** whether attribute `a` comes after attribute `b` in the schema file */
function declaredAfter(schema: ContentType | Component, a: string, b: string): boolean {
  const order = [...schema.attributes.keys()];
  return order.indexOf(a) > order.indexOf(b);
}

/**
 * 'drop': the relation's target isn't served, and it is left out of its schema; 'empty': it can never
 * hold a link, and is left out of the attributes but kept among the schema's emptyRelations; 'admin':
 * a relation to the admin panel's users or roles, kept among the schema's adminRelations
 */
type Paired = 'drop' | 'empty' | 'admin' | undefined;

/**
 * A relation whose partner doesn't name it back. Strapi starts with it: the owning side works one way,
 * and a mappedBy side has no links to read, so it is always empty. Folio serves the first as a one-way
 * relation and keeps the second out of the attributes (among the schema's emptyRelations), saying so
 * at start-up.
 */
function unpaired(notices: string[], schema: ContentType | Component, attr: RelationAttribute, target: ContentType, why: string): Paired {
  const said = `${schema.file}: attribute "${attr.name}": "${attr.owner ? 'inversedBy' : 'mappedBy'}: ${attr.inverse}" ${why} ${target.uid}`;
  if (!attr.owner) {
    notices.push(`${said}; it can never hold a link: a populate of it answers no key and a write to it is ignored, as in Strapi`);
    return 'empty';
  }
  const mutable = attr as { -readonly [K in keyof RelationAttribute]: RelationAttribute[K] };
  mutable.inverse = undefined;
  mutable.inverseToMany = true;
  notices.push(`${said}; it is served as a one-way relation`);
  return undefined;
}

/**
 * Types a project can name but never defines: a third-party plugin's (`plugin::refresh-token.token`,
 * from node_modules) or the admin panel's (`admin::user`, `admin::role`, which Strapi's content API never shows).
 */
const FOREIGN_TYPE = /^(?:plugin|admin)::/;

function pairRelation(
  problems: SchemaProblems,
  notices: string[],
  load: Loader,
  types: Map<string, ContentType>,
  schema: ContentType | Component,
  attr: RelationAttribute,
): Paired {
  const target = types.get(attr.target);
  if (!target) {
    if (problems.reported(attr.target)) return;
    const admin = ADMIN_TYPES.get(attr.target);
    if (admin) {
      notices.push(
        `${schema.file}: attribute "${attr.name}": its target ${attr.target} is ${admin.what}, which Folio does not run; the relation never holds a link (populated as empty, and a write naming ${admin.one} is refused, as Strapi answers while none is linked)`,
      );
      return 'admin';
    }
    if (FOREIGN_TYPE.test(attr.target)) {
      notices.push(
        `${schema.file}: attribute "${attr.name}": its target ${attr.target} is defined by a plugin or the admin panel, which Folio does not run; the relation is left out`,
      );
      return 'drop';
    }
    throw new SchemaError(schema.file, attr.name, `relation target "${attr.target}" does not exist`);
  }
  const mutable = attr as { -readonly [K in keyof RelationAttribute]: RelationAttribute[K] };
  if (attr.owner) {
    mutable.linkTable = linkTableOf(load, schema.table, attr.name);
    if (attr.inverse === undefined) {
      mutable.inverseToMany = true; // a one-way relation: any number of sources may point at one target
      return undefined;
    }
  }
  if (schema.modelType === 'component' && attr.inverse !== undefined) {
    throw new SchemaError(schema.file, attr.name, 'relations in components must be one-way (no inversedBy/mappedBy)');
  }
  const other = target.attributes.get(attr.inverse!);
  if (!other && problems.reported(target.uid, attr.inverse)) return;
  if (!other && !target.attributes.has(attr.inverse!)) return unpaired(notices, schema, attr, target, 'names no attribute of');
  // an attribute naming itself as its partner (xkeeper-net-cms's `relatedServices` inversedBy `relatedServices`):
  // Strapi warns, reads it as mappedBy, and serves it one way
  if (attr.owner && other === attr) return unpaired(notices, schema, attr, target, 'names itself on');
  // a partner that is a relation to another type (harbour-air-backend's `dealsDepartures` mappedBy
  // `departureLocation`, a relation to destinations): Strapi starts; a mappedBy side never holds a link
  if (other?.kind === 'relation' && other.target !== schema.uid) return unpaired(notices, schema, attr, target, `names a relation to ${other.target} on`);
  // two relations claiming one partner (`author` and `authorsBio` both `inversedBy: articles`, and
  // `articles` `mappedBy: authorsBio`): Strapi serves the one its partner doesn't name one way
  // `inversedBy` a relation back to this type that pairs with another, or is one-way (Gaodafeiyan's
  // `jihua` inversedBy `dingdanList`, which says neither): Strapi starts, each side keeping its own links
  if (attr.owner && other?.kind === 'relation' && other.target === schema.uid && other.inverse !== attr.name) {
    const says = other.inverse === undefined ? 'a one-way relation' : `a relation that pairs with "${other.inverse}"`;
    return unpaired(notices, schema, attr, target, `names ${says} on`);
  }
  // both sides of a pair `inversedBy`: Strapi starts and warns that the later one should say `mappedBy`,
  // which is how it is read here; on one type (a tag's `parents` and `children`) the later attribute
  if (attr.owner && other?.kind === 'relation' && other.owner && other.target === schema.uid && other.inverse === attr.name && other !== attr) {
    const later = schema.uid === target.uid ? declaredAfter(schema, attr.name, other.name) : declaredLater(types, schema, target);
    if (!later) return undefined;
    const mutable = attr as { -readonly [K in keyof RelationAttribute]: RelationAttribute[K] };
    mutable.owner = false;
    mutable.linkTable = '';
    notices.push(`${schema.file}: attribute "${attr.name}": both sides of its pair say "inversedBy"; it is read as "mappedBy: ${attr.inverse!}", as Strapi does`);
    return pairRelation(problems, notices, load, types, schema, attr);
  }
  // `mappedBy` a relation back to this type that is one-way, or pairs with another (zenithus-my's
  // `spins` mappedBy `result`, which says no inversedBy): Strapi starts, and the side never holds a link
  if (!attr.owner && other?.kind === 'relation' && other.owner && other.target === schema.uid && other.inverse !== attr.name) {
    const says = other.inverse === undefined ? 'a one-way relation' : `a relation that pairs with "${other.inverse}"`;
    return unpaired(notices, schema, attr, target, `names ${says} on`);
  }
  if (!other || other.kind !== 'relation' || other.target !== schema.uid || other.inverse !== attr.name) {
    throw new SchemaError(
      schema.file,
      attr.name,
      `"${attr.owner ? 'inversedBy' : 'mappedBy'}: ${attr.inverse}" needs a matching relation "${attr.inverse}" on ${attr.target} pointing back with "${attr.owner ? 'mappedBy' : 'inversedBy'}: ${attr.name}"`,
    );
  }
  if (other.owner === attr.owner) throw new SchemaError(schema.file, attr.name, 'one side of a pair must use inversedBy and the other mappedBy');
  if (PAIRED[attr.relation] !== other.relation) {
    throw new SchemaError(schema.file, attr.name, `a ${attr.relation} relation must be paired with ${PAIRED[attr.relation]}, not ${other.relation}`);
  }
  if (!attr.owner) mutable.linkTable = linkTableOf(load, target.table, other.name);
  return undefined;
}

/** Each kept relation's link table is its own (`owner1` and `owner_1` would share `<table>_owner_1_lnk`). */
function claimLinkTables(problems: SchemaProblems, load: Loader, schemas: readonly (ContentType | Component)[]): void {
  for (const schema of schemas) {
    for (const a of schema.attributes.values()) {
      if (a.kind === 'relation' && a.owner) problems.attempt(() => claimTable(load, a.linkTable, `${schema.file} attribute "${a.name}"`, schema.file, a.name));
    }
  }
}

/** Pairs every relation, saying in `notices` how lenient readings were made; leaves out each that can hold nothing. */
function pairRelations(problems: SchemaProblems, notices: string[], load: Loader, types: Map<string, ContentType>, components: Map<string, Component>): void {
  const dropped: [ContentType | Component, RelationAttribute, Paired][] = [];
  for (const schema of [...types.values(), ...components.values()]) {
    for (const attr of schema.attributes.values()) {
      if (attr.kind !== 'relation') continue;
      const paired = problems.attempt(() => pairRelation(problems, notices, load, types, schema, attr));
      if (paired !== undefined) dropped.push([schema, attr, paired]);
    }
  }
  // after the loop: a Map's entries are not deleted while it is walked
  const declared = new Map<ContentType | Component, readonly string[]>();
  for (const [schema, attr, paired] of dropped) {
    const name = attr.name;
    const mutable = schema as { emptyRelations?: Map<string, RelationAttribute>; adminRelations?: Map<string, RelationAttribute> };
    if (paired === 'empty') (mutable.emptyRelations ??= new Map()).set(name, attr);
    if (paired === 'admin') {
      if (!declared.has(schema)) declared.set(schema, [...schema.order]);
      (mutable.adminRelations ??= new Map()).set(name, attr);
    }
    (schema.attributes as Map<string, Attribute>).delete(name);
    const order = schema.order as string[];
    order.splice(order.indexOf(name), 1);
  }
  for (const [schema, names] of declared) {
    (schema as { populateOrder?: readonly string[] }).populateOrder = names.filter((n) => schema.attributes.has(n) || schema.adminRelations?.has(n));
  }
}

function checkComponentRefs(problems: SchemaProblems, schemas: Iterable<ContentType | Component>, components: Map<string, Component>): void {
  for (const schema of schemas) {
    for (const attr of schema.attributes.values()) {
      const refs = attr.kind === 'component' ? [attr.component] : attr.kind === 'dynamiczone' ? attr.components : [];
      for (const ref of refs) {
        if (!components.has(ref) && !problems.reported(ref)) problems.add(new SchemaError(schema.file, attr.name, `component "${ref}" does not exist`));
      }
    }
  }
}

function checkComponentCycles(problems: SchemaProblems, components: Map<string, Component>): void {
  const visiting = new Set<string>();
  const done = new Set<string>();
  const visit = (c: Component): void => {
    if (done.has(c.uid)) return;
    if (visiting.has(c.uid)) {
      problems.add(new SchemaError(c.file, null, `component "${c.uid}" contains itself`));
      done.add(c.uid); // once per cycle member, not once per path into it
      return;
    }
    visiting.add(c.uid);
    for (const attr of c.attributes.values()) {
      const inner = attr.kind === 'component' ? components.get(attr.component) : undefined;
      if (inner) visit(inner);
    }
    visiting.delete(c.uid);
    done.add(c.uid);
  };
  for (const c of components.values()) visit(c);
}

export function loadModel(root: string, options: LoadModelOptions = {}): Model {
  const problems = new SchemaProblems();
  const load: Loader = {
    root,
    problems,
    notices: [],
    customFields: options.customFields,
    localCustomField: localCustomFields(root),
    formerTables: new Map(),
    earlierCollections: new Map(),
    tables: new Map(SYSTEM_TABLES.map((t) => [t.name, 'Folio itself'])),
  };
  const types = new Map<string, ContentType>();
  for (const b of BUILTIN_SCHEMAS) {
    const ext = extensionOf(load, b.uid);
    // a wrong extension is reported and the built-in type is used without it, so its users don't report again
    const fromExt = ext && problems.attempt(() => contentType(load, b.uid, extended(b.uid, b.json, ext.json, ext.file), ext.file, 'plugin'));
    if (ext && !fromExt) problems.markSchema(b.uid);
    const ct = fromExt ?? contentType(load, b.uid, b.json, `<built-in ${b.uid}>`, 'plugin');
    claimTable(load, ct.table, ct.file, ct.file);
    claimTable(load, ct.componentTable, `${ct.file} (its components)`, ct.file);
    types.set(ct.uid, ct);
  }
  for (const raw of readContentTypeFiles(root, problems, options.schemaModules, load.notices)) {
    const uid = `api::${raw.api}.${raw.name}`;
    const ct = problems.attempt(() => {
      const t = contentType(load, uid, raw.json, raw.file, 'api');
      if (t.singularName !== raw.name) throw new SchemaError(raw.file, null, `info.singularName "${t.singularName}" must match the folder name "${raw.name}"`);
      claimTable(load, t.table, raw.file, raw.file);
      claimTable(load, t.componentTable, `${raw.file} (its components)`, raw.file);
      return t;
    });
    if (ct) types.set(uid, ct);
    else problems.markSchema(uid);
  }
  const components = new Map<string, Component>();
  for (const raw of readComponentFiles(root, problems, options.schemaModules)) {
    const uid = `${raw.category}.${raw.name}`;
    const component = problems.attempt((): Component => {
      // Strapi refuses a component without collectionName; Folio names it `components_<category>_<name>`
      const given = typeof raw.json['collectionName'] === 'string' ? (raw.json['collectionName'] as string) : undefined;
      const collectionName = given ?? `components_${snakeCase(raw.category)}_${snakeCase(raw.name)}`;
      if (!TABLE.test(collectionName)) throw new SchemaError(raw.file, null, `collectionName "${collectionName}" is not a valid table name`);
      const [table, componentTable] = namedTables(load, collectionName, given ?? earlierComponentCollection(raw.category, raw.name));
      claimTable(load, table, raw.file, raw.file);
      const [attributes, order] = attributesOf(load, uid, raw.json, raw.file, false, COMPONENT_COLUMNS);
      return { modelType: 'component', uid, category: raw.category, table, file: raw.file, attributes, order, componentTable };
    });
    if (component) components.set(uid, component);
    else problems.markSchema(uid);
  }
  checkComponentRefs(problems, [...types.values(), ...components.values()], components);
  checkComponentCycles(problems, components);
  pairRelations(problems, load.notices, load, types, components);
  claimLinkTables(problems, load, [...types.values(), ...components.values()]);

  const routes = new Map<string, string>();
  for (const ct of types.values()) {
    if (ct.origin !== 'api') continue;
    const segment = ct.kind === 'collectionType' ? ct.pluralName : ct.singularName;
    const prev = routes.get(segment);
    if (prev) problems.add(new SchemaError(ct.file, null, `route /api/${segment} is already used by ${prev}`));
    else routes.set(segment, ct.uid);
  }
  problems.throwIfAny();
  // built apart from the model's own tables and their earlier names: it is never stored
  const adminTypes = new Map(
    [...ADMIN_TYPES].map(([uid, { schema }]) => [
      uid,
      contentType({ ...load, notices: [], formerTables: new Map(), earlierCollections: new Map(), tables: new Map() }, uid, schema, '<admin panel>', 'plugin'),
    ]),
  );
  return { contentTypes: types, components, routes, notices: load.notices, formerTables: load.formerTables, adminTypes };
}
