// The admin panel's types as Strapi 5's query validation sees them behind `createdBy`/`updatedBy`.
// Folio has no admin users, so these relations are always refused; but Strapi walks the names a query
// gives below them before refusing the private relation, and reports an unknown name or a password
// there first (`sort=createdBy.x` is "Invalid key x at createdBy"). Only the attribute names and
// kinds are kept: enough to name the same problem.
import { COMPARE_OPS } from '../ast.js';
import { isObj } from './context.js';

type AdminType = 'user' | 'role' | 'permission' | 'apiToken' | 'apiTokenPermission';

type AdminAttribute = { readonly kind: 'scalar' } | { readonly kind: 'password' } | { readonly kind: 'relation'; readonly target: AdminType };

const SCALAR: AdminAttribute = { kind: 'scalar' };
const to = (target: AdminType): AdminAttribute => ({ kind: 'relation', target });

function type(self: AdminType, scalars: readonly string[], relations: Readonly<Record<string, AdminType>>, password = false): ReadonlyMap<string, AdminAttribute> {
  const m = new Map<string, AdminAttribute>();
  // what Strapi 5 adds to every content type
  for (const n of ['documentId', 'createdAt', 'updatedAt', 'publishedAt', 'locale', ...scalars]) m.set(n, SCALAR);
  for (const [n, t] of Object.entries({ createdBy: 'user', updatedBy: 'user', localizations: self, ...relations } as const)) m.set(n, to(t));
  if (password) m.set('password', { kind: 'password' });
  return m;
}

const ADMIN: ReadonlyMap<AdminType, ReadonlyMap<string, AdminAttribute>> = new Map([
  [
    'user',
    type(
      'user',
      ['firstname', 'lastname', 'username', 'email', 'resetPasswordToken', 'resetPasswordTokenExpiresAt', 'registrationToken', 'isActive', 'blocked', 'preferedLanguage'],
      { roles: 'role', apiTokens: 'apiToken' },
      true,
    ),
  ],
  ['role', type('role', ['name', 'code', 'description'], { users: 'user', permissions: 'permission' })],
  ['permission', type('permission', ['action', 'actionParameters', 'subject', 'properties', 'conditions'], { role: 'role', apiToken: 'apiToken' })],
  [
    'apiToken',
    type('apiToken', ['name', 'description', 'kind', 'type', 'accessKey', 'encryptedKey', 'lastUsedAt', 'expiresAt', 'lifespan'], {
      permissions: 'apiTokenPermission',
      adminPermissions: 'permission',
      adminUserOwner: 'user',
    }),
  ],
  ['apiTokenPermission', type('apiTokenPermission', ['action'], { token: 'apiToken' })],
]);

function attribute(t: AdminType, name: string): AdminAttribute | null {
  if (name === 'id') return SCALAR;
  return ADMIN.get(t)!.get(name) ?? null;
}

/** A name Strapi refuses below an admin relation before the relation itself: `path` is where it reports it. */
export interface AdminProblem {
  readonly key: string;
  readonly path: string | null;
}

const joined = (path: readonly string[]): string | null => (path.length ? path.join('.') : null);

/**
 * A sort path below an admin user (`segments` after `createdBy`, `base` the path up to it): the first
 * unknown name, at its parent's path (phase 'unknown'), or a password, at its own (phase 'password');
 * nothing past a scalar is looked at.
 * A direction after a relation is read as a name one level deeper, as on Folio's own relations.
 */
export function adminSortProblem(segments: readonly string[], order: string | undefined, base: readonly string[], phase: Phase): AdminProblem | null {
  let t: AdminType = 'user';
  const path = [...base];
  for (const seg of segments) {
    const a = attribute(t, seg);
    if (!a) return phase === 'unknown' ? { key: seg, path: joined(path) } : null;
    path.push(seg);
    if (a.kind !== 'relation') return phase === 'password' && a.kind === 'password' ? { key: seg, path: joined(path) } : null;
    t = a.target;
  }
  const deeper = order?.trim();
  return phase === 'unknown' && deeper ? { key: deeper, path: joined(path) } : null;
}

const LOGICAL = new Set(['$and', '$or', '$not']);

/** The first unknown name in a filter object read against admin type `t`, as Strapi's first pass finds it. */
function unknownInFilter(t: AdminType, value: unknown, path: readonly string[]): AdminProblem | null {
  if (!isObj(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    if (LOGICAL.has(key)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        const p = unknownInFilter(t, item, path);
        if (p) return p;
      }
      continue;
    }
    if (COMPARE_OPS.has(key)) continue;
    const a = attribute(t, key);
    if (!a) return { key, path: joined(path) };
    const here = [...path, key];
    const p = a.kind === 'relation' ? unknownInFilter(a.target, v, here) : unknownOperator(v, here);
    if (p) return p;
  }
  return null;
}

/** Below a field only operators may follow. */
function unknownOperator(value: unknown, path: readonly string[]): AdminProblem | null {
  if (!isObj(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    if (LOGICAL.has(key)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        const p = unknownOperator(item, path);
        if (p) return p;
      }
    } else if (!COMPARE_OPS.has(key)) return { key, path: joined(path) };
  }
  return null;
}

function passwordInFilter(t: AdminType, value: unknown, path: readonly string[]): AdminProblem | null {
  if (!isObj(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    if (LOGICAL.has(key)) {
      for (const item of Array.isArray(v) ? v : [v]) {
        const p = passwordInFilter(t, item, path);
        if (p) return p;
      }
      continue;
    }
    const a = attribute(t, key);
    if (!a) continue;
    const here = [...path, key];
    if (a.kind === 'password') return { key, path: here.join('.') };
    if (a.kind === 'relation') {
      const p = passwordInFilter(a.target, v, here);
      if (p) return p;
    }
  }
  return null;
}

/** A filter object below an admin user (`value` of `filters[createdBy]`): an unknown name first, then a password. */
export function adminFilterProblem(value: unknown, base: readonly string[]): AdminProblem | null {
  return unknownInFilter('user', value, base) ?? passwordInFilter('user', value, base);
}

type Phase = 'unknown' | 'password';

/** `fields` read against an admin user: an unknown name (no path), or a password (at its name). */
function adminFieldsProblem(value: unknown, phase: Phase): AdminProblem | null {
  const names = isWord(value) ? value.split(',').map((s) => s.trim()) : Array.isArray(value) ? value : [];
  for (const n of names) {
    if (!isWord(n) || n === '*') continue;
    const a = attribute('user', n);
    if (phase === 'unknown' ? !a : a?.kind === 'password') return { key: n, path: phase === 'unknown' ? null : n };
  }
  return null;
}

/**
 * A dotted populate below an admin user (`createdBy.roles.x`): every segment must be a relation; the
 * first that isn't is reported at the path up to and including it.
 */
export function adminDottedProblem(segments: readonly string[], base: readonly string[]): AdminProblem | null {
  let t: AdminType = 'user';
  const path = [...base];
  for (const seg of segments) {
    path.push(seg);
    const a = attribute(t, seg);
    if (!a || a.kind !== 'relation') return { key: seg, path: path.join('.') };
    t = a.target;
  }
  return null;
}

const isWord = (v: unknown): v is string => typeof v === 'string';
const BOOLEAN_WORDS: ReadonlySet<string> = new Set(['true', 'false', 't', 'f', '1', '0', '*']);

function sortNames(value: unknown): { segments: string[]; order: string | undefined }[] {
  const out: { segments: string[]; order: string | undefined }[] = [];
  const add = (v: unknown, prefix: string[]): void => {
    if (isWord(v)) {
      if (prefix.length) out.push({ segments: prefix, order: v });
      else
        for (const part of v.split(',')) {
          const [name, order] = part.split(':');
          if (name?.trim()) out.push({ segments: name.trim().split('.'), order: order?.trim() });
        }
    } else if (Array.isArray(v)) for (const x of v) add(x, prefix);
    else if (isObj(v)) for (const [k, x] of Object.entries(v)) add(x, [...prefix, k]);
  };
  add(value, []);
  return out;
}

/**
 * One populate entry of `createdBy` at `path` (`populate[createdBy]=…`), walked as Strapi walks it before
 * it refuses the relation, key by key in the order given: `fields`, `sort` and `filters` as they would be
 * read for the admin user itself (an unknown name, then a password), `on` by its first key, and its
 * `populate`: unknown names anywhere below (at the parent's path), then a scalar, then any relation (no
 * role may read the admin's types).
 */
export function adminEntryProblem(value: unknown, path: readonly string[]): AdminProblem | null {
  if (isWord(value)) return BOOLEAN_WORDS.has(value) ? null : { key: value, path: path.join('.') };
  if (!isObj(value)) return null;
  for (const [key, v] of Object.entries(value)) {
    const p = entryKeyProblem(key, v, path);
    if (p) return p;
  }
  return null;
}

function entryKeyProblem(key: string, v: unknown, path: readonly string[]): AdminProblem | null {
  switch (key) {
    case 'fields':
      return adminFieldsProblem(v, 'unknown') ?? adminFieldsProblem(v, 'password');
    case 'sort': {
      const sorts = sortNames(v);
      return firstOf(sorts, (s) => adminSortProblem(s.segments, s.order, [], 'unknown')) ?? firstOf(sorts, (s) => adminSortProblem(s.segments, s.order, [], 'password'));
    }
    case 'filters':
      return unknownInFilter('user', v, []) ?? passwordInFilter('user', v, []);
    case 'on':
      if (isObj(v)) for (const k of Object.keys(v)) return { key: k, path: [...path, 'on', k].join('.') };
      return null;
    case 'populate':
      return unknownInPopulate('user', v, path) ?? scalarInPopulate('user', v, path) ?? relationInPopulate('user', v, path);
    default:
      return null;
  }
}

function firstOf<T>(items: readonly T[], f: (x: T) => AdminProblem | null): AdminProblem | null {
  for (const x of items) {
    const p = f(x);
    if (p) return p;
  }
  return null;
}

/** A `populate` value as (name, value) pairs, from the string, list and object forms (`dotted`: a name from a string). */
function populateEntries(value: unknown): { name: string; value: unknown; dotted: boolean }[] {
  if (isWord(value)) return value.split(',').map((n) => ({ name: n.trim().split('.')[0] ?? '', value: true, dotted: true }));
  if (Array.isArray(value)) return value.filter(isWord).flatMap((v) => populateEntries(v));
  if (isObj(value)) return Object.entries(value).map(([name, v]) => ({ name, value: v, dotted: false }));
  return [];
}

function unknownInPopulate(t: AdminType, value: unknown, path: readonly string[]): AdminProblem | null {
  for (const e of populateEntries(value)) {
    if (e.name === '*') continue;
    const a = attribute(t, e.name);
    if (!a) return { key: e.name, path: e.dotted ? e.name : path.join('.') };
    if (a.kind === 'relation' && isObj(e.value)) {
      const p = unknownInPopulate(a.target, e.value['populate'], [...path, e.name]);
      if (p) return p;
    }
  }
  return null;
}

function scalarInPopulate(t: AdminType, value: unknown, path: readonly string[]): AdminProblem | null {
  for (const e of populateEntries(value)) {
    const a = attribute(t, e.name);
    if (a && a.kind !== 'relation') return { key: e.name, path: e.dotted ? e.name : [...path, 'populate', e.name].join('.') };
  }
  return null;
}

function relationInPopulate(t: AdminType, value: unknown, path: readonly string[]): AdminProblem | null {
  for (const e of populateEntries(value)) if (attribute(t, e.name)?.kind === 'relation') return { key: e.name, path: [...path, e.name].join('.') };
  return null;
}
