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
    // where each key stands in the list: a write may name 10,000 documents, and a search of the list
    // for each of them was 10^8 steps of the event loop
    const at = new Map<string, number>();
    for (const e of set) {
      const k = key(e);
      const i = at.get(k);
      if (i === undefined) {
        at.set(k, list.length);
        list.push(e);
        continue;
      }
      // one document named twice is a duplicate, unless each names another version of it
      const merged = combine?.(list[i]!, e);
      if (merged === undefined || merged === e) throw duplicate(e.doc);
      list[i] = merged;
    }
  } else {
    const gone = new Set(disconnect);
    const reconnected = new Set(connect.map(key));
    // a document disconnected here still marks its place for the positions of this connect, as in
    // Strapi (disconnect B, connect C before B: C takes B's place); it leaves the list after them
    const linked = new LinkedList<T>(key);
    for (const e of current) if (!(gone.has(key(e)) && reconnected.has(key(e)))) linked.push(e);
    op.connect.forEach((ref, i) => {
      const given = connect[i]!;
      const before = linked.get(key(given));
      // `combine`: what the link becomes where the document was linked already (another version of it)
      const e = combine && before ? combine(before.value, given) : given;
      // where it stood before this connect: a loose position that can't be met puts it back there
      const was = before ? linked.remove(before) : undefined;
      // strict unless the client says otherwise, on update too: Strapi 5.54 refuses there as well; a
      // relation holding one target has no order, and Strapi ignores a position there
      place(linked, e, toMany ? ref.position : undefined, op.strict ?? true, was, key, anchorLocale);
    });
    list = linked.values().filter((e) => !gone.has(key(e)) || reconnected.has(key(e)));
  }
  return toMany ? list : list.slice(-1);
}

interface Node<T> {
  value: T;
  prev: Node<T> | null;
  next: Node<T> | null;
}

/** Where a removed node stood: after `prev` (null: at the start). */
interface Spot<T> {
  readonly prev: Node<T> | null;
}

/** An ordered list of links with each key's node at hand: every step of a connect in constant time. */
class LinkedList<T extends { doc: string; locale?: string | null }> {
  private head: Node<T> | null = null;
  private tail: Node<T> | null = null;
  private readonly nodes = new Map<string, Node<T>>();

  constructor(private readonly key: LinkKey) {}

  get(k: string): Node<T> | undefined {
    return this.nodes.get(k);
  }

  /** takes the node out; answers where it stood */
  remove(n: Node<T>): Spot<T> {
    const spot = { prev: n.prev };
    if (n.prev) n.prev.next = n.next;
    else this.head = n.next;
    if (n.next) n.next.prev = n.prev;
    else this.tail = n.prev;
    this.nodes.delete(this.key(n.value));
    return spot;
  }

  /** puts `value` after `prev` (null: first) */
  insertAfter(prev: Node<T> | null, value: T): void {
    const next = prev ? prev.next : this.head;
    const n: Node<T> = { value, prev, next };
    if (prev) prev.next = n;
    else this.head = n;
    if (next) next.prev = n;
    else this.tail = n;
    this.nodes.set(this.key(value), n);
  }

  push(value: T): void {
    this.insertAfter(this.tail, value);
  }

  values(): T[] {
    const out: T[] = [];
    for (let n = this.head; n; n = n.next) out.push(n.value);
    return out;
  }
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
 * `was`: where the entry stood before this connect (undefined if new); a loose position that can't be met
 * keeps it there, as in Strapi. `anchorLocale`: where links are told apart by locale, the anchor's.
 */
function place<T extends { doc: string; locale?: string | null }>(
  list: LinkedList<T>,
  e: T,
  position: Position | undefined,
  strict: boolean,
  was: Spot<T> | undefined,
  key: LinkKey,
  anchorLocale?: AnchorLocale,
): void {
  if (!position || 'end' in position) {
    list.push(e);
    return;
  }
  if ('start' in position) {
    list.insertAfter(null, e);
    return;
  }
  const anchor = 'before' in position ? position.before : position.after;
  const anchorNode = list.get(key({ doc: anchor, ...(anchorLocale ? { locale: anchorLocale(position, e) } : {}) }));
  if (!anchorNode && !strict) {
    if (was) list.insertAfter(was.prev, e);
    else list.push(e);
    return;
  }
  if (!anchorNode) {
    throw new ValidationError(
      `There was a problem connecting relation with id ${e.doc} at position ${JSON.stringify(position)}. The relation with id ${anchor} needs to be connected first.`,
    );
  }
  list.insertAfter('before' in position ? anchorNode.prev : anchorNode, e);
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
