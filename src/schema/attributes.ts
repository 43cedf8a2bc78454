// Turns one raw attribute definition into a checked Attribute (relations are paired later).
import { SchemaError } from '../errors.js';
import { visibleRule } from './conditions.js';
import { CUSTOM_FIELD_TYPES, customFieldType } from './custom-fields.js';
import type { LocalRegistration } from './local-custom-fields.js';
import { columnName } from './identifiers.js';
import type { Attribute, RelationKind, ScalarType } from './types.js';

const SCALAR_TYPES: ReadonlySet<string> = new Set<ScalarType>([
  'string',
  'text',
  'richtext',
  'enumeration',
  'email',
  'password',
  'uid',
  'date',
  'time',
  'datetime',
  'timestamp',
  'integer',
  'biginteger',
  'float',
  'decimal',
  'boolean',
  'json',
  'blocks',
]);
const RELATIONS: ReadonlySet<string> = new Set<RelationKind>(['oneToOne', 'oneToMany', 'manyToOne', 'manyToMany']);
const RESERVED = new Set(['id', 'documentId', 'document_id', 'locale', 'localizations', 'createdBy', 'updatedBy', '__component', '__type']);
/** every entry's timestamps: in a component, which has none, plain names (Strapi stores them as declared) */
const ENTRY_TIMESTAMPS: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'publishedAt']);
/**
 * Letters, digits and underscores, as Strapi reads them (`3dModel` included), with one letter or
 * underscore at least: a name of digits alone would be an array index, which JSON objects put first.
 */
// letters of any script (Strapi 5.54 starts with `año`, its column `ano`), digits, underscores, and the spaces
// and hyphens hand-written schemas hold (`Main Category`, column `main_category`), not digits alone
const NAME = /^[\p{L}\p{M}\p{N}_ -]*[\p{L}_][\p{L}\p{M}\p{N}_ -]*$/u;

export interface AttributeContext {
  readonly file: string;
  readonly typeLocalized: boolean;
  /** the project's config/custom-fields mapping (custom field id → stored type) */
  readonly customFields?: ReadonlyMap<string, ScalarType>;
  /** where the project's own plugins register custom fields (local-custom-fields.ts), for the message when one is unknown */
  readonly localCustomField?: (id: string) => LocalRegistration | undefined;
  /** where what start-up should say besides errors goes */
  readonly notices?: string[];
  /** the attribute is a component's */
  readonly inComponent?: boolean;
}

function num(def: Record<string, unknown>, key: string, ctx: AttributeContext, name: string): number | undefined {
  const v = def[key];
  if (v === undefined || v === null) return undefined;
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw new SchemaError(ctx.file, name, `"${key}" must be a number`);
  return n;
}

function bool(def: Record<string, unknown>, key: string, ctx: AttributeContext, name: string): boolean {
  const v = def[key];
  if (v === undefined || v === null) return false;
  if (typeof v !== 'boolean') throw new SchemaError(ctx.file, name, `"${key}" must be true or false`);
  return v;
}

/**
 * Localized only when its pluginOptions say so, as Strapi 5's i18n reads it (`localized === true`):
 * an attribute written without them in a localized type is shared by the locales (the admin panel
 * always writes them; hand-written schemas leave them out). Relations and uids are set apart below.
 */
function localizedFlag(def: Record<string, unknown>, ctx: AttributeContext): boolean {
  if (!ctx.typeLocalized) return false;
  const opts = def['pluginOptions'] as { i18n?: { localized?: unknown } } | undefined;
  return opts?.i18n?.localized === true;
}

function asStoredType(name: string, def: Record<string, unknown>, ctx: AttributeContext): Record<string, unknown> {
  const id = def['customField'];
  if (typeof id !== 'string' || id === '') throw new SchemaError(ctx.file, name, 'a custom field needs "customField": "plugin::<plugin>.<name>"');
  const type = customFieldType(id, ctx.customFields);
  if (type === undefined) {
    const local = ctx.localCustomField?.(id);
    const registered = local !== undefined && (CUSTOM_FIELD_TYPES as readonly string[]).includes(local.type) ? local : undefined;
    throw new SchemaError(
      ctx.file,
      name,
      registered
        ? `custom field "${id}" is not known to Folio: ${registered.file} registers it as "${registered.type}"; map it in config/custom-fields (.json, .js or .ts), e.g. { "${id}": "${registered.type}" }`
        : `custom field "${id}" is not known to Folio: map it in config/custom-fields (.json, .js or .ts) to the type its plugin stores, e.g. { "${id}": "string" } (one of ${CUSTOM_FIELD_TYPES.join(', ')})`,
    );
  }
  return { ...def, type };
}

export function buildAttribute(name: string, raw: unknown, ctx: AttributeContext): Attribute {
  if (!NAME.test(name)) throw new SchemaError(ctx.file, name, 'name must be letters, digits, underscores, spaces and hyphens, not digits alone');
  if (RESERVED.has(name) || (ENTRY_TIMESTAMPS.has(name) && !ctx.inComponent)) throw new SchemaError(ctx.file, name, 'name is reserved');
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new SchemaError(ctx.file, name, 'definition must be an object');
  }
  // a custom field is its stored type from here on: validation, filters, sort and JSON form follow that type
  const def = (raw as Record<string, unknown>)['type'] === 'customField' ? asStoredType(name, raw as Record<string, unknown>, ctx) : (raw as Record<string, unknown>);
  const type = def['type'];
  if (typeof type !== 'string') throw new SchemaError(ctx.file, name, 'missing "type"');
  const visible = visibleRule(def, ctx.file, name);
  const base = {
    name,
    required: bool(def, 'required', ctx, name),
    private: bool(def, 'private', ctx, name) || type === 'password',
    localized: localizedFlag(def, ctx),
    writable: def['writable'] !== false,
    ...(visible !== undefined ? { visible } : {}),
  };

  if (SCALAR_TYPES.has(type)) {
    const enumValues = def['enum'];
    if (type === 'enumeration') {
      if (!Array.isArray(enumValues) || enumValues.length === 0 || !enumValues.every((v) => typeof v === 'string')) {
        throw new SchemaError(ctx.file, name, 'an enumeration needs "enum": a non-empty array of strings');
      }
    }
    const regex = def['regex'];
    if (regex !== undefined) {
      if (typeof regex !== 'string') throw new SchemaError(ctx.file, name, '"regex" must be a string');
      try {
        new RegExp(regex);
      } catch {
        throw new SchemaError(ctx.file, name, `"regex" is not a valid regular expression: ${regex}`);
      }
    }
    const targetField = def['targetField'];
    if (targetField !== undefined && typeof targetField !== 'string') {
      throw new SchemaError(ctx.file, name, '"targetField" must be a string');
    }
    const attr: Attribute = {
      ...base,
      // uid is always localized when the type is (Strapi treats it so whatever pluginOptions say)
      localized: type === 'uid' ? ctx.typeLocalized : base.localized,
      kind: 'scalar',
      type: type as ScalarType,
      column: columnName(name),
      // Strapi checks a uid's uniqueness as it checks `unique: true` (among published rows of a locale)
      unique: type === 'uid' || bool(def, 'unique', ctx, name),
      default: def['default'],
      min: num(def, 'min', ctx, name),
      max: num(def, 'max', ctx, name),
      minLength: num(def, 'minLength', ctx, name),
      maxLength: num(def, 'maxLength', ctx, name),
      regex: regex as string | undefined,
      enum: type === 'enumeration' ? (enumValues as string[]) : undefined,
      targetField: targetField as string | undefined,
      searchable: def['searchable'] !== false && type !== 'password',
    };
    return attr;
  }
  if (type === 'relation') {
    const relation = def['relation'];
    const target = def['target'];
    if (typeof relation !== 'string' || !RELATIONS.has(relation)) {
      throw new SchemaError(ctx.file, name, `"relation" must be one of ${[...RELATIONS].join(', ')} (polymorphic relations are not supported)`);
    }
    if (typeof target !== 'string') throw new SchemaError(ctx.file, name, 'a relation needs "target"');
    const inversedBy = def['inversedBy'];
    let mappedBy = def['mappedBy'];
    if (inversedBy !== undefined && mappedBy !== undefined) {
      // Strapi starts with both and stores the links on this side: the inversedBy reading
      ctx.notices?.push(`${ctx.file}: attribute "${name}" has both "inversedBy" and "mappedBy"; it is read as "inversedBy: ${String(inversedBy)}"`);
      mappedBy = undefined;
    }
    const kind = relation as RelationKind;
    return {
      ...base,
      localized: ctx.typeLocalized,
      kind: 'relation',
      relation: kind,
      target,
      owner: mappedBy === undefined,
      inverse: (inversedBy ?? mappedBy) as string | undefined,
      linkTable: '', // set when the pair is resolved
      toMany: kind === 'oneToMany' || kind === 'manyToMany',
      inverseToMany: kind === 'manyToOne' || kind === 'manyToMany',
    };
  }
  if (type === 'media') {
    const allowed = def['allowedTypes'];
    if (allowed !== undefined && (!Array.isArray(allowed) || !allowed.every((v) => typeof v === 'string'))) {
      throw new SchemaError(ctx.file, name, '"allowedTypes" must be an array of strings');
    }
    return { ...base, kind: 'media', multiple: bool(def, 'multiple', ctx, name), allowedTypes: allowed as string[] | undefined };
  }
  if (type === 'component') {
    const component = def['component'];
    if (typeof component !== 'string') throw new SchemaError(ctx.file, name, 'a component attribute needs "component"');
    return {
      ...base,
      kind: 'component',
      component,
      repeatable: bool(def, 'repeatable', ctx, name),
      min: num(def, 'min', ctx, name),
      max: num(def, 'max', ctx, name),
    };
  }
  if (type === 'dynamiczone') {
    const components = def['components'];
    // an empty list is a zone that takes no entry yet, as Strapi starts with it
    if (!Array.isArray(components) || !components.every((c) => typeof c === 'string')) {
      throw new SchemaError(ctx.file, name, 'a dynamic zone needs "components": an array of component uids');
    }
    return { ...base, kind: 'dynamiczone', components, min: num(def, 'min', ctx, name), max: num(def, 'max', ctx, name) };
  }
  throw new SchemaError(ctx.file, name, `unknown type "${type}"`);
}
