// `populate` → PopulateMap (behaviour.md §5.5): `*`, names, dot paths, arrays, and the object form
// with fields/filters/sort/populate/count/on. Relations the caller can't find are left out silently.
import { ValidationError } from '../../errors.js';
import { findAction } from '../../auth/ability.js';
import type { PopulateKind, PopulateMap, PopulateNode } from '../ast.js';
import { FILE_UID, PERMISSION_UID, ROLE_UID, USER_UID, linklessRelation, relationTarget, type Attribute, type Component, type ContentType } from '../../schema/types.js';
import { isObj, isPoison, textOf, type ParseContext } from './context.js';
import { zoneComponents } from '../../schema/zone.js';
import { parseFields } from './fields.js';
import { parseFilters } from './filters.js';
import { parseSort } from './sort.js';
import { adminDottedProblem, adminEntryProblem } from './admin-model.js';
import { isAdminAuthor, isStrapiOnlyAttribute } from './strapi-only-attributes.js';
import { permissionFields } from './permission-fields.js';
import { underPopulate } from './under-populate.js';
import { parseRelated, splitFilePopulate } from './file-related.js';

type Schema = ContentType | Component;
type MutableMap = Map<string, PopulateNode>;

const ENTRY_KEYS = new Set(['fields', 'filters', 'sort', 'populate', 'count', 'on']);

function invalid(key: string, path: string | null): ValidationError {
  return ValidationError.invalidKey(key, path, 'query', 'populate');
}

function truthy(v: unknown): boolean | null {
  if (v === true || v === 'true' || v === 't' || v === '1' || v === '*') return true;
  if (v === false || v === 'false' || v === 'f' || v === '0') return false;
  return null;
}

/** How an attribute of `schema` is populated; null when it can't be (a scalar, a private one). */
function kindOf(schema: Schema, a: Attribute): PopulateKind | null {
  if (a.private) return null;
  if (schema.adminRelations?.get(a.name) === a) return 'unlinked';
  if (a.kind === 'relation' || a.kind === 'media' || a.kind === 'component' || a.kind === 'dynamiczone') return a.kind;
  return null;
}

/** What a populated name resolves to: an attribute, or one of the two links Folio keeps outside the model. */
type Found = Attribute | 'localizations' | 'permissions';

/** The schema entries of a populated attribute are read against. */
function targetOf(ctx: ParseContext, schema: Schema, a: Found): Schema | null {
  if (a === 'localizations') return schema;
  if (a === 'permissions') return null;
  if (a.kind === 'relation') return relationTarget(ctx.model, a);
  if (a.kind === 'media') return ctx.model.contentTypes.get(FILE_UID)!;
  if (a.kind === 'component') return ctx.model.components.get(a.component)!;
  return null;
}

/**
 * A role's users are never shown, wherever the role is populated (`/api/users?populate[role][populate]=users`,
 * `role.users`, `*` below a role): listing them would hand every caller who may see one user's role the
 * whole membership of that role. Strapi 5.54 strips them from every content-API answer the same way. The
 * request is still read and checked in full, so a bad key below them is the same 400 as elsewhere.
 */
function withheld(schema: Schema, a: Found): boolean {
  if (typeof a === 'string') return false;
  // a mappedBy side that never holds a link: read and checked like a relation, answered with no key (as Strapi 5.54 does)
  if (schema.emptyRelations?.get(a.name) === a) return true;
  return schema.uid === ROLE_UID && a.kind === 'relation' && a.target === USER_UID;
}

/**
 * A role's permissions, as Strapi 5.54 serves them to a caller who may find its permission type (a
 * full-access API token; no users-permissions role can hold that action, so a user's populate leaves
 * them out, as a relation the caller can't find).
 */
function rolePermissions(ctx: ParseContext, schema: Schema, name: string): boolean {
  return name === 'permissions' && schema.uid === ROLE_UID && !schema.attributes.has(name) && ctx.ability.can(findAction(PERMISSION_UID));
}

function node(attribute: string, kind: PopulateKind): PopulateNode {
  return { attribute, kind, fields: null, where: null, sort: null, populate: new Map(), nested: false, count: false, on: null, fragmentsOnly: false, related: null };
}

/**
 * Resolves a populatable name on a schema; null = silently dropped (a relation the caller can't find).
 * An unknown name is reported at `errPath`, one of the attributes Strapi has and Folio leaves out of
 * queries (a file's folder, localizations of a type that isn't localized) at `ownPath`, its whole
 * dotted path, as Strapi reports it (`Invalid key folder at cover.folder`), and one that exists but can't be
 * populated at `writtenPath`, where the request wrote it (`Invalid key name at author.populate.name`).
 */
function lookup(
  ctx: ParseContext,
  schema: Schema,
  name: string,
  errPath: string | null,
  ownPath: string,
  writtenPath: string | null = errPath,
): { attr: Found; kind: PopulateKind } | null {
  if (isPoison(name)) throw invalid(name, errPath);
  if (name === 'localizations' && schema.modelType === 'contentType' && schema.localized) {
    // the other versions are documents of the same type, listed as a relation to it: `find` on it, as any relation asks
    return ctx.ability.can(findAction(schema.uid)) ? { attr: 'localizations', kind: 'localizations' } : null;
  }
  if (name === 'permissions' && schema.uid === ROLE_UID && !schema.attributes.has(name)) {
    return rolePermissions(ctx, schema, name) ? { attr: 'permissions', kind: 'permissions' } : null;
  }
  const a = schema.attributes.get(name) ?? linklessRelation(schema, name);
  if (!a) throw invalid(name, isStrapiOnlyAttribute(schema, name) ? ownPath : errPath);
  const kind = kindOf(schema, a);
  // an attribute that can't be populated (a scalar, a private one) is named where the request wrote it;
  // a private relation at its whole path, as Strapi 5.54 names it (`Invalid key roles at owner.roles`)
  if (!kind) throw invalid(name, a.kind === 'relation' && a.private ? ownPath : writtenPath);
  if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) return null;
  return { attr: a, kind };
}

function merge(map: MutableMap, n: PopulateNode): void {
  const prev = map.get(n.attribute);
  if (!prev) {
    map.set(n.attribute, n);
    return;
  }
  const populate = new Map(prev.populate);
  for (const child of n.populate.values()) merge(populate, child);
  let on = prev.on;
  if (n.on) {
    // fragment nodes are keyed by their component uid, like attributes in a populate map
    const merged = new Map(prev.on ?? []);
    for (const fragment of n.on.values()) merge(merged, fragment);
    on = merged;
  }
  map.set(n.attribute, {
    ...prev,
    ...n,
    fields: n.fields ?? prev.fields,
    where: n.where ?? prev.where,
    sort: n.sort ?? prev.sort,
    populate,
    on,
    nested: prev.nested || n.nested,
    fragmentsOnly: prev.fragmentsOnly || n.fragmentsOnly,
    related: n.related ?? prev.related,
  });
}

/** Every populatable attribute in schema order, then localizations, then the dynamic zones, as Strapi orders them. */
function star(ctx: ParseContext, schema: Schema): MutableMap {
  const map: MutableMap = new Map();
  const zones: string[] = [];
  for (const name of schema.populateOrder ?? schema.order) {
    const a = schema.attributes.get(name) ?? schema.adminRelations?.get(name);
    if (!a) continue;
    const kind = kindOf(schema, a);
    if (!kind) continue;
    if (a.kind === 'relation' && !ctx.ability.can(findAction(a.target))) continue;
    if (withheld(schema, a)) continue;
    if (kind === 'dynamiczone') zones.push(name);
    else map.set(name, node(name, kind));
  }
  if (rolePermissions(ctx, schema, 'permissions')) map.set('permissions', node('permissions', 'permissions'));
  if (schema.modelType === 'contentType' && schema.localized && ctx.ability.can(findAction(schema.uid))) map.set('localizations', node('localizations', 'localizations'));
  for (const name of zones) map.set(name, node(name, 'dynamiczone'));
  return map;
}

/** A dotted path left out whole: one of its relations is one the caller can't find. */
const DROPPED = Symbol('dropped');

/**
 * A dotted path below a zone for a component that can't take it whole, as Strapi 5.54's query reads it
 * there: each segment populated while it names something populatable, the rest of the path left out
 * from the first that doesn't (a plain value, a name the level doesn't have, anything below a media).
 */
function asFarAsItGoes(ctx: ParseContext, schema: Schema, segments: readonly string[]): PopulateNode | null | typeof DROPPED {
  const [name, ...rest] = segments;
  if (name === undefined || name === '') return null;
  let found: ReturnType<typeof lookup>;
  try {
    found = lookup(ctx, schema, name, name, name);
  } catch (e) {
    if (e instanceof ValidationError) return null;
    throw e;
  }
  if (!found) return DROPPED;
  if (withheld(schema, found.attr)) return null;
  const n = node(name, found.kind);
  if (rest.length === 0) return n;
  if (found.kind === 'media' || found.attr === 'permissions') return { ...n, nested: true };
  if (found.attr !== 'localizations' && found.attr.kind === 'dynamiczone') {
    const on = new Map<string, PopulateNode>();
    for (const uid of zoneComponents(found.attr)) {
      const child = asFarAsItGoes(ctx, ctx.model.components.get(uid)!, rest);
      if (child && child !== DROPPED) on.set(uid, { ...node(uid, 'component'), populate: new Map([[child.attribute, child]]), nested: true });
    }
    return on.size ? { ...n, on, nested: true } : { ...n, nested: true };
  }
  const target = targetOf(ctx, schema, found.attr);
  const child = target ? asFarAsItGoes(ctx, target, rest) : null;
  if (child === DROPPED) return DROPPED;
  return child ? { ...n, populate: new Map([[child.attribute, child]]), nested: true } : { ...n, nested: true };
}

/**
 * `a.b.c` — each segment one level deeper; in a dynamic zone the next segment names an attribute of its
 * components. A bad key is reported, as in Strapi, at the dotted path up to it (`Invalid key nope at
 * author.nope`; a bad first segment at its own name). A relation the caller can't find anywhere on the
 * path leaves out the whole path, as Strapi 5.54 does (`role.permissions` for a user: no role either);
 * a role's users, never shown, leave out only themselves.
 */
function dotted(ctx: ParseContext, schema: Schema, segments: string[], errPath: string | null, prefix: string | null = null): PopulateNode | null | typeof DROPPED {
  const [name, ...rest] = segments;
  const here = prefix === null ? (name ?? '') : `${prefix}.${name ?? ''}`;
  if (name === undefined || name === '') throw invalid('', prefix === null ? errPath : here);
  if (!schema.attributes.has(name) && isAdminAuthor(schema, name)) {
    // named at its whole path, below a nested populate's parent too, after the names past it
    const full = prefix ?? errPath;
    const at = full === null ? [name] : [...full.split('.'), name];
    const p = adminDottedProblem(rest, at);
    throw p ? invalid(p.key, p.path) : invalid(name, at.join('.'));
  }
  const found = lookup(ctx, schema, name, here, prefix === null && errPath !== null ? `${errPath}.${name}` : here);
  if (!found) return DROPPED;
  const n = node(name, found.kind);
  if (rest.length === 0) return withheld(schema, found.attr) ? null : n;
  if (found.kind === 'media') throw invalid(name, prefix === null ? name : here);
  // Folio serves a permission's own fields only
  if (found.attr === 'permissions') throw invalid(rest[0]!, `${here}.${rest[0]!}`);
  if (found.attr !== 'localizations' && found.attr.kind === 'dynamiczone') {
    const next = rest[0]!;
    // Strapi reports any bad key below a zone at the zone's next segment (`blocks.person.nope` is
    // "Invalid key person at blocks.person")
    const atZone = invalid(next, `${here}.${next}`);
    const candidates = zoneComponents(found.attr).filter((uid) => {
      const comp = ctx.model.components.get(uid)!;
      return comp.attributes.has(next) || comp.adminRelations?.has(next);
    });
    if (candidates.length === 0) throw atZone;
    // a private (or password) name is refused wherever it stands, whatever another component has under it
    if (candidates.some((uid) => ctx.model.components.get(uid)!.attributes.get(next)?.private)) throw atZone;
    // As Strapi 5.54 checks a path below a zone: it is taken when one component takes it whole; a name
    // that ends the path is taken when any component has it, even as a plain value (`sections.layout`,
    // which then populates the zone alone). Each component then populates what of the path it can
    // (`sections.slides.image` where one component's `slides` are files: those files, in full).
    let taken = rest.length === 1;
    const on = new Map<string, PopulateNode>();
    for (const uid of candidates) {
      const comp = ctx.model.components.get(uid)!;
      let child: PopulateNode | null | typeof DROPPED;
      try {
        child = dotted(ctx, comp, rest, name, here);
        taken = true;
      } catch (e) {
        if (!(e instanceof ValidationError)) throw e;
        child = asFarAsItGoes(ctx, comp, rest);
      }
      // a relation the caller can't find leaves out only itself: the zone's entries still come back, as in Strapi 5.54
      if (child && child !== DROPPED) on.set(uid, { ...node(uid, 'component'), populate: new Map([[child.attribute, child]]), nested: true });
    }
    if (!taken) throw atZone;
    return on.size ? { ...n, on, nested: true } : { ...n, nested: true };
  }
  const target = targetOf(ctx, schema, found.attr)!;
  const child = dotted(ctx, target, rest, name, here);
  if (withheld(schema, found.attr)) return null;
  if (child === DROPPED) return DROPPED;
  return child ? { ...n, populate: new Map([[child.attribute, child]]), nested: true } : { ...n, nested: true };
}

const INVALID_POPULATE = 'Invalid populate parameter. Expected a string, an array of strings, a populate object';

/**
 * An entry given a list (`populate[articles][0]=…`), as Strapi 5.54 refuses it: a list holding anything but
 * names is no populate at all; otherwise the first name that is an attribute of the target is named at its
 * own path, `true`/`false` make it no populate, and any other word is named at the entry.
 */
function listEntryError(target: Schema | null, list: readonly unknown[], path: readonly string[]): ValidationError {
  const nested = new ValidationError("Invalid nested populate. Expected '*' or an object");
  if (!list.every((item) => typeof item === 'string')) return nested;
  for (const item of list as string[]) {
    if (target?.attributes.has(item)) return invalid(item, [...path, item].join('.'));
    if (item === 'true' || item === 'false') return nested;
    return invalid(item, path.join('.'));
  }
  return nested;
}

/** Strapi's message for a zone entry that is neither a boolean nor an object of `on`/`populate`/`count`. */
function zoneValueError(schema: Schema, a: Attribute, value: unknown): ValidationError {
  const type = schema as ContentType;
  return new ValidationError(
    `Invalid nested populate for ${type.singularName ?? schema.uid}.${a.name} (${schema.uid}). Expected a fragment ("on") or "count" but found ${JSON.stringify(value)}`,
  );
}

function zoneEntry(ctx: ParseContext, schema: Schema, a: Attribute & { kind: 'dynamiczone' }, value: Record<string, unknown>, path: string[], written: string): PopulateNode {
  const n = node(a.name, 'dynamiczone');
  const here = path.join('.');
  const keys = Object.keys(value);
  const unexpected = keys.filter((k) => k !== 'on' && k !== 'populate' && k !== 'count');
  if (unexpected.length) throw zoneValueError(schema, a, value);
  let on: Map<string, PopulateNode> | null = null;
  if (value['populate'] !== undefined) {
    // named where the request wrote it, as Strapi 5.54 names it (`Invalid key populate at localizations.populate.sections`)
    if (value['populate'] !== '*' && truthy(value['populate']) !== true) throw invalid('populate', written);
    on = new Map(zoneComponents(a).map((uid) => [uid, { ...node(uid, 'component'), populate: star(ctx, ctx.model.components.get(uid)!), nested: true }]));
  }
  const fragmentsOnly = value['on'] !== undefined;
  if (fragmentsOnly) {
    if (!isObj(value['on'])) throw invalid('on', here);
    // fragments replace `populate` beside them, as in Strapi: only what they name, as they say it
    on = new Map();
    for (const [uid, frag] of Object.entries(value['on'])) {
      // any registered component may be named, as in Strapi: one the zone doesn't list matches no entry
      const comp = ctx.model.components.get(uid);
      if (!comp) throw invalid(uid, [...path, 'on', uid].join('.'));
      // as in Strapi, even `false` names a component to return (its entries with their scalars)
      if (truthy(frag) !== null) {
        on.set(uid, node(uid, 'component'));
        continue;
      }
      if (!isObj(frag)) throw invalid(textOf(frag), [...path, 'on', uid].join('.'));
      // what lies below a fragment is reported at the zone's path, as Strapi 5.54 does (`Invalid key nope at
      // blocks`, `… at blocks.person`)
      on.set(uid, objectEntry(ctx, comp, { attribute: uid, kind: 'component' }, frag, path, `${written}.on[${uid}]`));
    }
  }
  return { ...n, on, fragmentsOnly, nested: value['populate'] !== undefined, count: value['count'] !== undefined && truthy(value['count']) === true };
}

/**
 * `on` under an attribute that isn't a dynamic zone. As in Strapi, its keys are checked as component
 * uids first; naming only real components is still refused, with Strapi's message.
 */
function fragmentOnNonZone(ctx: ParseContext, schema: Schema, name: string, on: unknown, path: readonly string[]): ValidationError {
  if (!isObj(on)) return invalid('on', [...path, 'on'].join('.'));
  for (const uid of Object.keys(on)) if (isPoison(uid) || !ctx.model.components.has(uid)) return invalid(uid, [...path, 'on', uid].join('.'));
  return new ValidationError(`Using fragments is not permitted to populate "${name}" in "${schema.uid}"`);
}

/** the attributes Strapi gives every content type (and file) besides its own: named at their own path too */
const ENTRY_SYSTEM_ATTRIBUTES: ReadonlySet<string> = new Set(['createdAt', 'updatedAt', 'publishedAt', 'createdBy', 'updatedBy']);

/** `written`: the entry's path as the request wrote it (`author`, `blocks.on[shared.quote]`), for errors named there */
function objectEntry(
  ctx: ParseContext,
  target: Schema,
  base: { attribute: string; kind: PopulateKind },
  value: Record<string, unknown>,
  path: string[],
  written: string,
): PopulateNode {
  const here = path.join('.');
  // a key naming one of the target's attributes is named at its own path, as Strapi 5.54 names it
  // (`Invalid key name at category.name`), and so is a `locale` under an entry for documents or files
  // (`Invalid key locale at author.locale`); any other key at the entry
  const ownPath = (k: string): boolean =>
    target.attributes.has(k) || (target.modelType === 'contentType' && ENTRY_SYSTEM_ATTRIBUTES.has(k)) || (k === 'locale' && base.kind !== 'component');
  for (const k of Object.keys(value)) if (!ENTRY_KEYS.has(k) || k === 'on') throw invalid(k, ownPath(k) ? `${here}.${k}` : here);
  let count = false;
  if (value['count'] !== undefined) {
    const c = truthy(value['count']);
    if (c === null) throw invalid('count', here);
    // Strapi counts relations and components; media and dynamic zones ignore it
    if (base.kind === 'relation' || base.kind === 'component' || base.kind === 'unlinked') count = c;
  }
  let populate: PopulateMap = new Map();
  // an empty nested populate names an empty key, as Strapi reports it
  if (value['populate'] === '') throw invalid('', here);
  // a file's `related` is no attribute of the file model: it is read as the media library reads it,
  // after the rest, whose bad keys Strapi reports first
  const split = base.kind === 'media' ? splitFilePopulate(value['populate']) : { related: undefined, rest: value['populate'] };
  if (split.rest !== undefined) populate = parsePopulateAt(ctx, target, split.rest, path, `${written}.populate`);
  const related = split.related === undefined ? null : parseRelated(ctx, split.related, [...path, 'populate', 'related'].join('.'));
  return {
    ...node(base.attribute, base.kind),
    fields: value['fields'] !== undefined ? underPopulate(() => parseFields(ctx, target, value['fields'])) : null,
    // an empty `filters=` is no filter inside a populate, as Strapi reads it there (a 400 at the top level)
    where: value['filters'] !== undefined && value['filters'] !== '' ? underPopulate(() => parseFilters(ctx, target, value['filters'])) : null,
    sort: value['sort'] !== undefined ? underPopulate(() => parseSort(ctx, target, value['sort'])) : null,
    populate,
    nested: value['populate'] !== undefined,
    count,
    related,
  };
}

/** `populate[role][populate][permissions][fields]=…`: Folio serves a permission's own fields, and nothing else there. */
function permissionsEntry(value: Record<string, unknown>, path: readonly string[]): PopulateNode {
  for (const k of Object.keys(value)) if (k !== 'fields') throw invalid(k, path.join('.'));
  return { ...node('permissions', 'permissions'), fields: value['fields'] === undefined ? null : underPopulate(() => permissionFields(value['fields'])) };
}

/** The names of a top-level string or list populate: each entry split at its commas, trimmed, empty ones skipped. */
function topLevelNames(raw: string | readonly string[]): string[] {
  return (typeof raw === 'string' ? [raw] : raw)
    .flatMap((entry) => entry.split(','))
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** an entry's option names, which Strapi 5.54 also takes among attribute names: checked, then ignored */
const MISPLACED_OPTIONS: ReadonlySet<string> = new Set(['fields', 'filters', 'sort', 'populate', 'count']);

/**
 * `populate[image][populate][fields][0]=url` (a front end's `populate: { image: { populate: { fields } } }`):
 * Strapi 5.54 checks such a key as the option it names, against the attributes of the level it sits at,
 * and then populates as if it weren't there (the image in full). Folio does the same, and answers the same
 * 400s for what those checks refuse.
 */
function checkMisplacedOption(ctx: ParseContext, schema: Schema, key: string, value: unknown, path: string[]): void {
  const errRoot = path.length ? path.join('.') : null;
  if (key === 'count') {
    if (truthy(value) === null) throw invalid('count', errRoot);
  } else if (key === 'populate') parsePopulateAt(ctx, schema, value, path);
  else if (key === 'fields') underPopulate(() => parseFields(ctx, schema, value));
  else if (key === 'sort') underPopulate(() => parseSort(ctx, schema, value));
  else if (value !== '') underPopulate(() => parseFilters(ctx, schema, value));
}

/**
 * The names of a list as Strapi 5.54 builds its populate from them: grouped by their first segment,
 * each group's remainders gathered newest first and read again the same way one level down (the names
 * a later, shorter name empties are left out before). So `author.profile,author.articles` populates
 * `articles` before `profile` (the keys' order where their cost ties: populate-cost.ts), a third
 * level keeps the order written, and `populate[0]=author.profile&populate[1]=author` populates no profile. Answers the order
 * in which the names' populates are merged; names left out are not in it.
 */
function mergeOrder(entries: readonly { readonly segments: readonly string[]; readonly i: number }[]): number[] {
  const groups = new Map<string, { bare: number | null; rest: { segments: readonly string[]; i: number }[] }>();
  for (const e of entries) {
    const [first, ...rest] = e.segments;
    let g = groups.get(first!);
    if (!g) groups.set(first!, (g = { bare: null, rest: [] }));
    if (rest.length === 0) g.bare = e.i;
    else g.rest.push({ segments: rest, i: e.i });
  }
  const out: number[] = [];
  for (const g of groups.values()) {
    if (g.bare !== null) out.push(g.bare);
    out.push(...mergeOrder([...g.rest].reverse()));
  }
  return out;
}

/**
 * The names a list asks for once Strapi 5.54 has read it: each entry, as written (commas and all), a
 * path set in turn into one tree, so an entry ending where an earlier one went deeper cuts that one
 * short (`populate[0]=author.profile&populate[1]=author` asks for no profile), while one going deeper
 * adds to what an earlier one asked; the paths left are then split at their commas. Names within one
 * entry (`populate=author.profile,author`, `blocks.slides.image,blocks.slides`) never cut each other.
 */
function namesKept(entries: readonly string[]): Set<string> {
  type Tree = Map<string, Tree | true>;
  const root: Tree = new Map();
  for (const entry of entries) {
    const keys = entry.split('.');
    let at = root;
    for (let i = 0; i < keys.length - 1; i++) {
      let next = at.get(keys[i]!);
      if (next === undefined || next === true) at.set(keys[i]!, (next = new Map()));
      at = next;
    }
    at.set(keys[keys.length - 1]!, true);
  }
  const paths: string[] = [];
  const walk = (tree: Tree, prefix: string): void => {
    for (const [key, below] of tree) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (below === true) paths.push(path);
      else walk(below, path);
    }
  };
  walk(root, '');
  return new Set(paths.flatMap((p) => p.split(',')).map((name) => name.trim()));
}

/** How many segments of a dotted name lead to a dynamic zone it goes on past (0: none). */
function zoneGoneThrough(ctx: ParseContext, schema: Schema, segments: readonly string[]): number {
  let at: Schema | null = schema;
  for (let i = 0; i < segments.length - 1 && at; i++) {
    const name = segments[i]!;
    if (name === 'localizations' && at.modelType === 'contentType' && !at.attributes.has(name)) continue;
    const a: Attribute | undefined = at.attributes.get(name);
    if (!a) return 0;
    if (a.kind === 'dynamiczone') return i + 1;
    if (a.kind === 'component' || a.kind === 'relation') at = targetOf(ctx, at, a);
    else return 0;
  }
  return 0;
}

function parsePopulateAt(ctx: ParseContext, schema: Schema, raw: unknown, path: string[], written: string | null = null): PopulateMap {
  const map: MutableMap = new Map();
  if (raw === undefined || raw === null || raw === '') return map;
  if (raw === '*') return star(ctx, schema);
  const errRoot = path.length ? path.join('.') : null;
  if (typeof raw === 'string' || Array.isArray(raw)) {
    // a list mixing names and objects (qs makes one of `populate=a&populate[b]=true`) is refused whole, before its names are read
    if (Array.isArray(raw) && !raw.every((item) => typeof item === 'string')) throw new ValidationError(INVALID_POPULATE);
    // at the top, Strapi 5.54 splits every entry at its commas and skips empty names (`populate[0]=image,video`,
    // `populate=a,,b`); below an entry, a list's entries are names as they are
    const items = path.length === 0 ? topLevelNames(raw) : typeof raw === 'string' ? raw.split(',') : (raw as string[]);
    const parsed: { readonly segments: readonly string[]; readonly node: PopulateNode; readonly name: string }[] = [];
    for (const item of items) {
      const s = item.trim();
      // `*` stands alone: in a list or beside other names Strapi 5.54 refuses it, at any depth
      if (s === '*') throw invalid('*', '*');
      // a list entry below an entry is one name: commas in it make no name, named at the entry as Strapi does
      if (Array.isArray(raw) && path.length > 0 && s.includes(',')) throw invalid(s, errRoot);
      const segments = s.split('.');
      const n = dotted(ctx, schema, segments, errRoot);
      if (!n || n === DROPPED) continue;
      parsed.push({ segments, node: n, name: s });
    }
    // below an entry, a name going on past a dynamic zone asks a populate of the zone, which Strapi 5.54
    // refuses there as in the object form (`populate[localizations][populate]=sections.image` is `Invalid
    // key populate at localizations.populate.sections`), once later entries have cut names short as
    // Strapi reads them; at the top it takes such names
    const asked = namesKept(typeof raw === 'string' ? [raw] : (raw as string[]));
    const kept = parsed.filter((p) => asked.has(p.name));
    if (path.length > 0) {
      for (const p of kept) {
        const at = zoneGoneThrough(ctx, schema, p.segments);
        if (at > 0) throw invalid('populate', [written ?? errRoot, p.segments.slice(0, at).join('.populate.')].filter((x) => x !== null).join('.'));
      }
    }
    for (const i of mergeOrder(kept.map((p, i) => ({ segments: p.segments, i })))) merge(map, kept[i]!.node);
    return map;
  }
  if (!isObj(raw)) throw new ValidationError('populate must be a string, an array or an object', { source: 'query', param: 'populate' });
  for (const [key, value] of Object.entries(raw)) {
    if (!schema.attributes.has(key) && MISPLACED_OPTIONS.has(key)) {
      checkMisplacedOption(ctx, schema, key, value, path);
      continue;
    }
    if (!schema.attributes.has(key) && isAdminAuthor(schema, key)) {
      const p = adminEntryProblem(value, [...path, key]);
      throw p ? invalid(p.key, p.path) : invalid(key, [...path, key].join('.'));
    }
    const keyWritten = written === null ? key : `${written}.${key}`;
    const found = lookup(ctx, schema, key, errRoot, [...path, key].join('.'), keyWritten);
    if (!found) continue;
    const here = [...path, key];
    const t = truthy(value);
    // a zone takes only a boolean or an object: `*` (which elsewhere reads as true), another word or a list
    // is Strapi's nested-populate error naming the value as sent
    if (typeof found.attr !== 'string' && found.attr.kind === 'dynamiczone' && ((t === null && !isObj(value)) || value === '*')) {
      throw zoneValueError(schema, found.attr, value);
    }
    if (t === false) continue;
    if (t === true) {
      if (!withheld(schema, found.attr)) merge(map, node(key, found.kind));
      continue;
    }
    if (Array.isArray(value)) throw listEntryError(targetOf(ctx, schema, found.attr), value, here);
    if (!isObj(value)) throw invalid(textOf(value), here.join('.'));
    if (found.attr === 'permissions') {
      merge(map, permissionsEntry(value, here));
      continue;
    }
    if (found.attr !== 'localizations' && found.attr.kind === 'dynamiczone') {
      merge(map, zoneEntry(ctx, schema, found.attr, value, here, keyWritten));
      continue;
    }
    if ('on' in value) throw fragmentOnNonZone(ctx, schema, key, value['on'], here);
    const entry = objectEntry(ctx, targetOf(ctx, schema, found.attr)!, { attribute: key, kind: found.kind }, value, here, keyWritten);
    if (withheld(schema, found.attr)) continue;
    merge(map, entry);
  }
  return map;
}

export function parsePopulate(ctx: ParseContext, schema: Schema, raw: unknown): PopulateMap {
  return parsePopulateAt(ctx, schema, raw, []);
}
