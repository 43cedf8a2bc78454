// An ordered list of links edited by one relation value: set, or connect (with positions) and
// disconnect, applied in order as Strapi 5.54 applies them. Links are told apart by a key: their
// document, or from a source without locales their document in one locale.
import { ValidationError } from '../../errors.js';
import type { Position, RelationOp, RelationRef } from '../input/types.js';
import type { Entry } from './targets.js';

/** What makes two links one: their document, or (from a source without locales) their document in one locale. */
export type LinkKey = (e: { doc: string; locale?: string | null }) => string;

export const byDocument: LinkKey = (e) => e.doc;

/**
 * Applies set / connect / disconnect with positions to an ordered list of documents. `disconnect`
 * holds link keys; positions name documents.
 */
export function applyOp<T extends { doc: string; locale?: string | null }>(
  current: T[],
  op: RelationOp,
  connect: T[],
  set: T[],
  disconnect: readonly string[],
  toMany: boolean,
  key: LinkKey = byDocument,
  anchorLocale?: AnchorLocale,
  combine?: (was: T, now: T) => T,
): T[] {
  let list: T[];
  if (op.kind === 'set') {
    list = [];
    for (const e of set) {
      const at = list.findIndex((x) => key(x) === key(e));
      if (at < 0) {
        list.push(e);
        continue;
      }
      // one document named twice is a duplicate, unless each names another version of it
      const merged = combine?.(list[at]!, e);
      if (merged === undefined || merged === e) throw duplicate(e.doc);
      list[at] = merged;
    }
  } else {
    const gone = new Set(disconnect);
    const reconnected = new Set(connect.map(key));
    // a document disconnected here still marks its place for the positions of this connect, as in
    // Strapi (disconnect B, connect C before B: C takes B's place); it leaves the list after them
    list = current.filter((e) => !(gone.has(key(e)) && reconnected.has(key(e))));
    op.connect.forEach((ref, i) => {
      const was = list.findIndex((x) => key(x) === key(connect[i]!));
      // `combine`: what the link becomes where the document was linked already (another version of it)
      const e = combine && was >= 0 ? combine(list[was]!, connect[i]!) : connect[i]!;
      list = list.filter((x) => key(x) !== key(e));
      // strict unless the client says otherwise, on update too: Strapi 5.54 refuses there as well; a
      // relation holding one target has no order, and Strapi ignores a position there
      place(list, e, toMany ? ref.position : undefined, op.strict ?? true, was, key, anchorLocale);
    });
    list = list.filter((e) => !gone.has(key(e)) || reconnected.has(key(e)));
  }
  return toMany ? list : list.slice(-1);
}

/**
 * The documents positions name (`before`/`after`) that are neither linked now nor connected by this
 * op, in the version their item links: Strapi looks each up and refuses one that doesn't exist
 * ("Document with id … not found") before asking whether it is connected.
 */
export function positionAnchors(
  op: RelationOp,
  connect: readonly Entry[],
  linked: readonly { doc: string; locale?: string | null }[],
  key: LinkKey = byDocument,
  anchorLocale?: AnchorLocale,
): Entry[] {
  if (op.kind !== 'change') return [];
  const known = new Set([...linked.map(key), ...connect.map(key)]);
  const out: Entry[] = [];
  op.connect.forEach((ref, i) => {
    const p = ref.position;
    const anchor = p && 'before' in p ? p.before : p && 'after' in p ? p.after : undefined;
    if (anchor === undefined) return;
    const e = { ...connect[i]!, doc: anchor, ...(anchorLocale ? { locale: anchorLocale(p!, connect[i]!) } : {}) };
    if (known.has(key(e))) return;
    known.add(key(e));
    out.push(e);
  });
  return out;
}

/**
 * The locale a position's anchor is linked in, where links are told apart by locale (a source without
 * locales): the one the position names, else the connected item's, as Strapi 5.54 reads it.
 */
export type AnchorLocale = (p: Position, item: { locale?: string | null }) => string;

export function duplicate(doc: string): ValidationError {
  return new ValidationError(`The relation with id ${doc} is already connected. You cannot connect the same relation twice.`);
}

/**
 * `was`: where the entry stood before this connect (-1 if new); a loose position that can't be met keeps
 * it there, as in Strapi. `anchorLocale`: where links are told apart by locale, the anchor's.
 */
function place<T extends { doc: string; locale?: string | null }>(
  list: T[],
  e: T,
  position: Position | undefined,
  strict: boolean,
  was: number,
  key: LinkKey,
  anchorLocale?: AnchorLocale,
): void {
  if (!position || 'end' in position) {
    list.push(e);
    return;
  }
  if ('start' in position) {
    list.unshift(e);
    return;
  }
  const anchor = 'before' in position ? position.before : position.after;
  const anchorKey = key({ doc: anchor, ...(anchorLocale ? { locale: anchorLocale(position, e) } : {}) });
  const i = list.findIndex((x) => key(x) === anchorKey);
  if (i < 0 && !strict) {
    if (was >= 0) list.splice(was, 0, e);
    else list.push(e);
    return;
  }
  if (i < 0) {
    throw new ValidationError(
      `There was a problem connecting relation with id ${e.doc} at position ${JSON.stringify(position)}. The relation with id ${anchor} needs to be connected first.`,
    );
  }
  list.splice('before' in position ? i : i + 1, 0, e);
}

/**
 * `localeOf`: the locale a ref's link keeps, when links from this source are told apart by it.
 * `byStatus`: links are told apart by their target's version too (an owner with draft & publish seen
 * from a side without it): an item naming a status is that version's link, one naming none is both.
 */
export function checkConnectDuplicates(op: RelationOp, localeOf?: (r: RelationRef) => string | null, byStatus = false): void {
  // a set's duplicates are found where it is applied, but where links name versions: a document named
  // without one holds both, so it and a version of it are one link named twice
  const items = op.kind === 'change' ? op.connect : byStatus ? op.items : null;
  if (!items) return;
  const seen = new Set<string>();
  for (const r of items) {
    const base = `${r.documentId ?? `#${r.id}`}\u0000${(r.documentId !== undefined && localeOf?.(r)) || ''}`;
    const versions = byStatus && r.documentId !== undefined ? (r.status ? [r.status] : ['draft', 'published']) : [''];
    const keys = versions.map((v) => `${base}\u0000${v}`);
    if (keys.some((k) => seen.has(k))) throw duplicate(r.documentId ?? String(r.id));
    for (const k of keys) seen.add(k);
  }
}
