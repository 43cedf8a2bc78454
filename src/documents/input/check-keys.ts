// The key checks on a write body (behaviour.md §6.1), run before any value is looked at. Each check
// walks the whole body, components and dynamic-zone entries included, and they run in Strapi's
// order, so with several bad keys the client gets the error Strapi would report first.
import { findAction, type Ability } from '../../auth/ability.js';
import { ValidationError } from '../../errors.js';
import type { Model } from '../../schema/types.js';
import { MEDIA_OPERATIONS } from './media-payload.js';
import { isRelationItemObject } from './relation-payload.js';
import { isObj, walkKeys, type KeyVisit, type Obj, type Place, type Schema } from './walk.js';

/** System attributes of every content type: part of the model in Strapi, never writable. */
const SYSTEM_KEYS: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'createdBy', 'updatedBy']);

/** Non-attribute keys each place accepts (and the writer ignores, except a component's `id`). */
const EXTRA_KEYS: Record<Place, ReadonlySet<string>> = {
  root: new Set(['publishedAt', 'locale']),
  // `id` picks the stored component to update; accepted at any depth (Strapi bug #25074 class).
  // `__component` names a dynamic zone's entry only: in a component it is Strapi 5.54's `Invalid key`
  component: new Set(['id', 'documentId']),
  'zone-entry': new Set(['id', 'documentId', '__component']),
};

const RELATION_OPERATIONS: ReadonlySet<string> = new Set(['connect', 'disconnect', 'set', 'options']);
const RELATION_ITEM_KEYS: ReadonlySet<string> = new Set(['documentId', 'id', 'locale', 'status', 'position']);
/** a relation given directly (`tags: [{documentId}]`), not under set/connect/disconnect: Strapi 5.54 takes no status or position there */
const SHORTHAND_ITEM_KEYS: ReadonlySet<string> = new Set(['documentId', 'id', 'locale']);
/**
 * Strapi 5.54 checks a direct item's other keys as the target's attributes: a `status` is taken there when
 * the target has an attribute of that name (ins1derft/Marcus's product variants), and then read as the
 * version to link, as under connect
 */
const SHORTHAND_WITH_STATUS: ReadonlySet<string> = new Set([...SHORTHAND_ITEM_KEYS, 'status']);
const MEDIA_KEYS: ReadonlySet<string> = new Set(['id', 'documentId', ...MEDIA_OPERATIONS]);
const MEDIA_ITEM_KEYS: ReadonlySet<string> = new Set(['id', 'documentId']);

function onlyKeys(o: Obj, allowed: ReadonlySet<string>, path: string): void {
  for (const k of Object.keys(o)) if (!allowed.has(k)) throw ValidationError.invalidKey(k, path, 'body');
}

function checkRelationValueKeys(value: unknown, path: string, target: Schema | undefined): void {
  const itemOf =
    (allowed: ReadonlySet<string>) =>
    (x: unknown): void => {
      if (isObj(x)) onlyKeys(x, allowed, path);
    };
  const item = itemOf(RELATION_ITEM_KEYS);
  const shorthand = itemOf(target?.attributes.has('status') ? SHORTHAND_WITH_STATUS : SHORTHAND_ITEM_KEYS);
  const list = (x: unknown): void => (Array.isArray(x) ? x.forEach(item) : item(x));
  if (Array.isArray(value)) value.forEach(shorthand);
  else if (isObj(value) && isRelationItemObject(value)) shorthand(value);
  else if (isObj(value)) {
    onlyKeys(value, RELATION_OPERATIONS, path);
    for (const op of ['connect', 'disconnect', 'set']) if (Object.hasOwn(value, op)) list(value[op]);
    const options = value['options'];
    if (isObj(options)) onlyKeys(options, new Set(['strict']), path);
  }
}

/**
 * A file reference ({id} or {documentId}) may carry the rest of the file's fields: clients commonly send
 * back the populated media object they read, and Strapi accepts it. Only the reference is used.
 */
function isFileReference(o: Obj): boolean {
  return Object.hasOwn(o, 'id') || Object.hasOwn(o, 'documentId');
}

function checkMediaValueKeys(value: unknown, path: string): void {
  if (isObj(value)) {
    if (!isFileReference(value) || MEDIA_OPERATIONS.some((op) => Object.hasOwn(value, op))) onlyKeys(value, MEDIA_KEYS, path);
  } else if (Array.isArray(value)) {
    for (const x of value) if (isObj(x) && !isFileReference(x)) onlyKeys(x, MEDIA_ITEM_KEYS, path);
  }
}

function nonWritable(v: KeyVisit): void {
  // `localizations` too, on every content type: Strapi 5.54's i18n gives each one that attribute, private and read-only
  // where the type has no locales, so it is refused before an unknown key there as well
  const system = v.place === 'root' && v.schema.modelType === 'contentType' && (SYSTEM_KEYS.has(v.key) || v.key === 'localizations');
  if (system || (v.attribute && !v.attribute.writable)) throw ValidationError.invalidKey(v.key, v.path, 'body');
}

const unrecognised =
  (model: Model) =>
  (v: KeyVisit): void => {
    if (!v.attribute) {
      if (!EXTRA_KEYS[v.place].has(v.key)) throw ValidationError.invalidKey(v.key, v.parentPath, 'body');
      return;
    }
    if (v.attribute.kind === 'relation') checkRelationValueKeys(v.value, v.path, model.contentTypes.get(v.attribute.target));
    else if (v.attribute.kind === 'media') checkMediaValueKeys(v.value, v.path);
  };

/** Throws the first bad key of `data`, as a 400 "Invalid key …" ValidationError. */
export function checkKeys(model: Model, ability: Ability, schema: Schema, data: Obj): void {
  if (Object.hasOwn(data, 'id')) throw new ValidationError('Invalid key id', { key: 'id', source: 'body' });
  if (Object.hasOwn(data, 'documentId')) throw new ValidationError('Invalid key documentId', { key: 'documentId', source: 'body' });
  walkKeys(model, schema, data, nonWritable);
  walkKeys(model, schema, data, unrecognised(model));
  walkKeys(model, schema, data, (v) => {
    // a relation the caller can't read would let it probe or link documents it may not see
    if (v.attribute?.kind === 'relation' && !ability.can(findAction(v.attribute.target))) {
      throw ValidationError.invalidKey(v.key, v.path, 'body');
    }
  });
}
