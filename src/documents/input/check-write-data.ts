// Checks the `data` of a create/update against the model and normalises it for the writer
// (behaviour.md §6.1–6.4). No database work: whether referenced documents, files and component ids
// exist is the writer's question.
//
// Error precedence, as a Strapi client sees it: bad keys first (check-keys.ts); then malformed
// relation and media values (Strapi resolves relations before validating); then all yup-style field
// errors together; then date/time conversion errors, which Strapi only meets in its database layer.
import type { Ability } from '../../auth/ability.js';
import { ValidationError, type FieldError } from '../../errors.js';
import { linklessRelation, type Component, type ComponentAttribute, type DynamicZoneAttribute, type Model, type ScalarAttribute } from '../../schema/types.js';
import { zoneComponents } from '../../schema/zone.js';
import { castScalar } from './cast-scalar.js';
import { checkKeys } from './check-keys.js';
import { draftListErrors } from './draft-lists.js';
import { mediaRefs } from './media-payload.js';
import { inSchemaOrder } from './error-order.js';
import { fieldError, notTypeMessage, pathText, samePath } from './messages.js';
import { plainValues, withDefaults } from './plain-values.js';
import { relationOp } from './relation-payload.js';
import type { ComponentInput, WriteData, ZoneEntryInput } from './types.js';
import { isObj, type Obj, type Schema } from './walk.js';
import { PARTIAL, textFormRules, validateForPublish } from './validate-publish.js';
import { MISSING_ZONE_COMPONENT, UNPLACEABLE_ZONE_COMPONENT, zoneRootError, type WriteTarget } from './zone-errors.js';

export interface InputContext {
  readonly model: Model;
  readonly ability: Ability;
  /** the write the data is for, when it is a content-API create or update (see zoneRootError) */
  readonly write?: WriteTarget;
}

interface Problems {
  readonly fieldErrors: FieldError[];
  unconvertible: ValidationError | null;
  /** where values no column can hold were sent: they count as given (Strapi meets them after its checks) */
  readonly unconvertibleAt: (readonly string[])[];
  /**
   * a write checked in one pass (a type without draft & publish): a text refused for its length is also
   * held to its form rules, each failing one listed, as Strapi's one yup pass lists them
   */
  readonly onePass: boolean;
  /** the root-level error Strapi adds after a dynamic-zone entry it can't place, from the first such entry */
  zoneRoot: string | null;
}

/** Items one request may send in one repeatable component or dynamic zone. */
export const MAX_LIST_ITEMS = 10_000;

/** An array within the item limit, or else a field error (and undefined). */
function listOf(path: string[], value: unknown, problems: Problems): unknown[] | undefined {
  if (!Array.isArray(value)) {
    problems.fieldErrors.push(fieldError(path, notTypeMessage(path, 'array', value), value));
    return undefined;
  }
  if (value.length > MAX_LIST_ITEMS) {
    problems.fieldErrors.push(fieldError(path, `${pathText(path)} field must have less than or equal to ${MAX_LIST_ITEMS} items`));
    return undefined;
  }
  return value;
}

/** no component row has it: the id of an entry whose sent `id` names none */
const UNRELATED_ID = 0;

/**
 * A component's `id` as the writer takes it: Strapi 5.54 gives it no type, so any value sent (null,
 * text, a fraction) is an id, one naming no component of the entry being "not related" on an update
 * (writeItems) and ignored on a create. A whole number, or its digits, names that row.
 */
function componentId(given: unknown): number | undefined {
  if (given === undefined) return undefined;
  if (typeof given === 'number' && Number.isSafeInteger(given) && given > 0) return given;
  if (typeof given === 'string' && /^[1-9]\d{0,15}$/.test(given) && Number.isSafeInteger(Number(given))) return Number(given);
  return UNRELATED_ID;
}

function emptyData(): WriteData {
  return { scalars: new Map(), relations: new Map(), media: new Map(), components: new Map(), zones: new Map(), unlinked: new Map() };
}

function scalar(a: ScalarAttribute, value: unknown, path: string[], problems: Problems): { value: unknown } | undefined {
  const r = castScalar(a, value, path);
  if (r.kind === 'ok') return { value: r.value };
  if (r.kind === 'invalid') {
    problems.fieldErrors.push(...r.errors);
    if (problems.onePass && typeof value === 'string') textFormRules(a, value, path, problems.fieldErrors);
  } else {
    problems.unconvertible ??= r.error;
    problems.unconvertibleAt.push(path);
  }
  return undefined;
}

function componentInput(model: Model, comp: Component, value: unknown, path: string[], problems: Problems): ComponentInput | undefined {
  if (!isObj(value)) {
    problems.fieldErrors.push(fieldError(path, notTypeMessage(path, 'object', value), value));
    return undefined;
  }
  const id = componentId(value['id']);
  const out: ComponentInput = { data: collect(model, comp, value, path, problems) };
  if (id !== undefined) out.id = id;
  return out;
}

function componentValue(model: Model, a: ComponentAttribute, value: unknown, path: string[], problems: Problems): ComponentInput | ComponentInput[] | null | undefined {
  if (value === null) return null;
  const comp = model.components.get(a.component);
  if (!comp) throw new Error(`${a.name}: component ${a.component} is not in the model`);
  if (!a.repeatable) return componentInput(model, comp, value, path, problems);
  const list = listOf(path, value, problems);
  if (list === undefined) return undefined;
  const out: ComponentInput[] = [];
  list.forEach((v, i) => {
    const p = [...path, String(i)];
    // a list item is cast to null first, as a zone entry is (Strapi 5.54); a single component isn't
    if (!isObj(v)) return void problems.fieldErrors.push(fieldError(p, notTypeMessage(p, 'object', null, v), null));
    const c = componentInput(model, comp, v, p, problems);
    if (c) out.push(c);
  });
  return out;
}

function zoneValue(model: Model, a: DynamicZoneAttribute, value: unknown, path: string[], problems: Problems): ZoneEntryInput[] | null | undefined {
  if (value === null) return null;
  // Strapi's relation step then reads the value as one entry, and finds no component identifier in it
  // unless it is an object naming one
  if (!Array.isArray(value) && !(isObj(value) && typeof value['__component'] === 'string' && value['__component'] !== '')) problems.zoneRoot ??= MISSING_ZONE_COMPONENT;
  const list = listOf(path, value, problems);
  if (list === undefined) return undefined;
  const allowed = zoneComponents(a);
  const out: ZoneEntryInput[] = [];
  list.forEach((entry, i) => {
    const p = [...path, String(i)];
    if (!isObj(entry)) {
      // yup casts the entry to null first, and Strapi's relation step then fails on it
      problems.fieldErrors.push(fieldError(p, notTypeMessage(p, 'object', null, entry), null));
      problems.zoneRoot ??= UNPLACEABLE_ZONE_COMPONENT;
      return;
    }
    // a number is cast to its text, as yup's string() does
    const uid = typeof entry['__component'] === 'number' ? String(entry['__component']) : entry['__component'];
    const uidPath = [...p, '__component'];
    // never a silent no-op: an entry the writer couldn't place is an error
    if (uid === undefined) {
      problems.fieldErrors.push(fieldError(uidPath, `${pathText(uidPath)} is a required field`));
      problems.zoneRoot ??= MISSING_ZONE_COMPONENT;
      return;
    }
    // null is yup's type error and then its one-of error (Strapi 5.54 lists both)
    if (uid === null) problems.fieldErrors.push(fieldError(uidPath, notTypeMessage(uidPath, 'string', null), null));
    // only the zone's own components: Strapi takes any registered one and then never shows it
    const comp = typeof uid === 'string' && allowed.includes(uid) ? model.components.get(uid) : undefined;
    if (!comp) {
      // an empty name is yup's one-of error like any other (Strapi 5.54), though no component can be built from it either
      problems.fieldErrors.push(fieldError(uidPath, `${pathText(uidPath)} must be one of the following values: ${allowed.join(', ')}`, uid));
      problems.zoneRoot ??= uid === '' || uid === null ? MISSING_ZONE_COMPONENT : UNPLACEABLE_ZONE_COMPONENT;
      return;
    }
    const c = componentInput(model, comp, entry, p, problems);
    if (c) out.push({ component: comp.uid, ...(c.id !== undefined ? { id: c.id } : {}), data: c.data });
  });
  return out;
}

/** The value pass: keys were vetted, so anything that isn't an attribute is an accepted extra and is dropped. */
function collect(model: Model, schema: Schema, data: Obj, path: string[], problems: Problems): WriteData {
  const out = emptyData();
  for (const [key, value] of Object.entries(data)) {
    const a = schema.attributes.get(key);
    if (value === undefined) continue;
    const p = [...path, key];
    if (!a) {
      // read as any relation value (a malformed one is the same 400); what it names must exist, as Strapi
      // checks it, and then it is ignored: it holds no link
      const empty = linklessRelation(schema, key);
      if (empty) out.unlinked.set(key, relationOp(empty, value, pathText(p)));
      continue;
    }
    switch (a.kind) {
      case 'scalar': {
        const r = scalar(a, value, p, problems);
        if (r) out.scalars.set(key, r.value);
        break;
      }
      case 'relation':
        out.relations.set(key, relationOp(a, value, pathText(p)));
        break;
      case 'media':
        out.media.set(key, mediaRefs(a, value, pathText(p)));
        break;
      case 'component': {
        const c = componentValue(model, a, value, p, problems);
        if (c !== undefined) out.components.set(key, c);
        break;
      }
      case 'dynamiczone': {
        const z = zoneValue(model, a, value, p, problems);
        if (z !== undefined) out.zones.set(key, z);
        break;
      }
    }
  }
  return out;
}

/** Strapi's list entries as its sanitizer leaves them: objects kept, strings spread into objects, other values `{}` */
function asSanitized(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(asSanitized);
  if (isObj(v)) return v;
  return typeof v === 'string' ? Object.assign({}, v) : {};
}

/**
 * A content-API `data` that is a list: Strapi checks the keys of each object in it as it would the
 * data's, then refuses the list with yup's type error, printing it as its sanitizer left it.
 */
function dataNotAnObject(ctx: InputContext, schema: Schema, data: unknown[]): ValidationError {
  for (const entry of data) if (isObj(entry)) checkKeys(ctx.model, ctx.ability, schema, entry);
  return ValidationError.of([fieldError([], notTypeMessage([], 'object', null, asSanitized(data)), null)]);
}

/** A body's `data` read for the writer, and the 400 its values earned (null when none). */
export interface ReadData {
  readonly data: WriteData;
  readonly refused: ValidationError | null;
}

/**
 * Checks a create/update body's `data` for `schema` and returns it normalised. Throws a 400
 * ValidationError on the first bad key, malformed relation or media value, or with every field
 * error found. Only the checks drafts get run here (types, maxima, enumerations); the publish
 * rules are validateForPublish's.
 */
export function checkWriteData(ctx: InputContext, schema: Schema, data: unknown): WriteData {
  const read = readWriteData(ctx, schema, data);
  if (read.refused) throw read.refused;
  return read.data;
}

/**
 * checkWriteData, answering the value errors instead of throwing them: what Strapi checks before
 * them (documents a relation names, see missing-documents.ts) needs the database.
 */
export function readWriteData(ctx: InputContext, schema: Schema, data: unknown): ReadData {
  if (Array.isArray(data) && ctx.write) throw dataNotAnObject(ctx, schema, data);
  // the HTTP layer rejects bodies without a data object first; this only keeps other callers safe
  if (!isObj(data)) throw new ValidationError('Missing "data" payload in the request body');
  checkKeys(ctx.model, ctx.ability, schema, data);
  const onePass = ctx.write !== undefined && schema.modelType === 'contentType' && !schema.draftAndPublish;
  const problems: Problems = { fieldErrors: [], unconvertible: null, unconvertibleAt: [], onePass, zoneRoot: null };
  const out = collect(ctx.model, schema, data, [], problems);
  if (ctx.write && schema.modelType === 'contentType' && schema.draftAndPublish) problems.fieldErrors.push(...draftListErrors(schema, data, ctx.write.create));
  if (problems.zoneRoot !== null) problems.fieldErrors.push(zoneRootError(ctx.model, problems.zoneRoot, schema, data, ctx.write));
  // a one-pass create with a value no column holds still answers what the checks find first, if anything
  if (problems.fieldErrors.length || problems.unconvertible) {
    const errors = withPublishErrors(ctx, schema, out, data, problems);
    if (errors.length) return { data: out, refused: ValidationError.of(inSchemaOrder(ctx.model, schema, data, errors)) };
  }
  return { data: out, refused: problems.unconvertible };
}

/**
 * A write checked in one pass (WriteTarget.singlePass), refused for its types or sizes, also reports
 * what the publish rules find beside those errors (a required name left out beside a bad age, a link's
 * missing url beside another link's bad label, a uid's format beside a name's type on an update), as
 * Strapi's one yup pass reports each field's first error. An update's rules read only what it sends:
 * the fields it leaves out keep their stored values, checked when they were written. A component or
 * zone with an error is read as sent, since what was read of it is partial (a refused list entry is
 * left out, so later entries would be reported at the wrong index); a field with an error, or under
 * one, keeps only its own. Uniqueness needs the database: not here.
 */
function withPublishErrors(ctx: InputContext, schema: Schema, data: WriteData, sent: Obj, problems: Problems): FieldError[] {
  const errors = problems.fieldErrors;
  if (!ctx.write?.singlePass || schema.modelType !== 'contentType') return errors;
  const isCreate = ctx.write.create;
  const plain = plainValues(ctx.model, schema, data, isCreate);
  const values = isCreate ? withDefaults(plain, schema, data) : plain;
  const failed = new Set(errors.map((e) => e.path[0]));
  for (const a of schema.attributes.values()) {
    if ((a.kind === 'component' || a.kind === 'dynamiczone') && failed.has(a.name) && Object.hasOwn(sent, a.name)) values[a.name] = asSent(sent[a.name], isCreate);
  }
  const covered = (path: readonly string[]): boolean => errors.some((e) => e.path.length <= path.length && e.path.every((seg, i) => seg === path[i]));
  const unconvertible = (path: readonly string[]): boolean => problems.unconvertibleAt.some((p) => samePath(p, path));
  const more = validateForPublish(ctx.model, schema, values, { isCreate, draftAndPublish: schema.draftAndPublish }).filter((e) => !covered(e.path) && !unconvertible(e.path));
  return [...errors, ...more];
}

/** A component or zone value as sent, its items given with an id marked partial as plainValues marks them (on an update). */
function asSent(v: unknown, fresh: boolean): unknown {
  const item = (x: unknown): unknown => (!fresh && isObj(x) && x['id'] !== undefined && x['id'] !== null ? { ...x, [PARTIAL]: true } : x);
  return Array.isArray(v) ? v.map(item) : item(v);
}
