// Where Strapi 5.54 puts each populated key. Its database layer loads every populated attribute of a
// level at once and adds each key when that attribute's load ends, the levels below it included. On
// SQLite, whose driver runs statements synchronously, that end is a count of promise steps: the same
// for the same request and data, and the keys come in that order, ties in the order asked. The counts,
// measured on the reference (45 requests, each key order checked):
// - an attribute asking nothing below itself (`true`, fields, filters, a count): 18
// - one asking a level below (`populate` given, even naming nothing): 19 when it found no rows, else
//   20 and the costliest attribute of the level below
// - a dynamic zone: 19 without entries, else 18 and its costliest component kind present (18, or 20
//   and that kind's costliest attribute when a level below the kind is asked)
// "Found rows" is over the whole level (every document of a page), so every document of a response has
// its keys in one order. Folio puts them in the same order from what it read.
import type { PopulateNode } from '../ast.js';

const PLAIN = 18;
const NOTHING_BELOW = 19;
const BELOW = 20;

/** an attribute's cost: `found` whether it read any row, `below` the costliest attribute of the level under it (0: none) */
export function attributeCost(node: PopulateNode, found: boolean, below: number): number {
  if (!node.nested || node.count) return PLAIN;
  return found ? BELOW + below : NOTHING_BELOW;
}

/** a component kind's part of a dynamic zone's cost: `nested` whether a level below it is asked */
export function zoneKindCost(nested: boolean, below: number): number {
  return nested ? BELOW + below : PLAIN;
}

/** a dynamic zone's cost from those of the component kinds it holds entries of */
export function zoneCost(kinds: readonly number[]): number {
  return kinds.length === 0 ? NOTHING_BELOW : PLAIN + Math.max(...kinds);
}

/**
 * a file's `related` (a polymorphic relation in Strapi): 36 when the files are linked to entries it
 * shows (measured), and as a level that found nothing otherwise
 */
export function relatedLevelCost(found: boolean): number {
  return found ? 2 * PLAIN : NOTHING_BELOW;
}
