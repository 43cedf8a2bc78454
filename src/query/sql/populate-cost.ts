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

/** How a route's reads time their populated keys in Strapi, as a cost per loaded attribute (lowest first). */
export interface PopulateCosts {
  /** an attribute's cost: `found` whether it read any row, `below` the costliest attribute of the level under it (0: none) */
  attribute(node: PopulateNode, found: boolean, below: number): number;
  /** a component kind's part of a dynamic zone's cost: `nested` whether a level below it is asked */
  zoneKind(nested: boolean, below: number): number;
  /** a dynamic zone's cost from those of the component kinds it holds entries of */
  zone(kinds: readonly number[]): number;
  /** a file's `related` (a polymorphic relation in Strapi): 36 when the files are linked to entries it shows (measured) */
  related(found: boolean): number;
}

/** The document service's reads, run in a transaction: each load is a fixed count of promise steps. */
export const TRANSACTION_COSTS: PopulateCosts = {
  attribute: (node, found, below) => (!node.nested || node.count ? PLAIN : found ? BELOW + below : NOTHING_BELOW),
  zoneKind: (nested, below) => (nested ? BELOW + below : PLAIN),
  zone: (kinds) => (kinds.length === 0 ? NOTHING_BELOW : PLAIN + Math.max(...kinds)),
  related: (found) => (found ? 2 * PLAIN : NOTHING_BELOW),
};

/**
 * The users routes' reads, which Strapi runs through its query layer without a transaction: one pooled
 * connection serves the statements in the order they ask for it, so a load with no statement below it
 * (nothing found, a level naming nothing, an empty zone) ends with the plain ones, in the order asked.
 * A cost approximation of that queue: 1,573 of 1,605 key orders measured on the reference.
 */
export const POOLED_COSTS: PopulateCosts = {
  attribute: (node, found, below) => (!node.nested || node.count || !found || below === 0 ? PLAIN : BELOW + below),
  zoneKind: (nested, below) => (nested && below > 0 ? BELOW + below : PLAIN),
  zone: (kinds) => (kinds.length === 0 ? PLAIN : PLAIN + Math.max(...kinds)),
  related: (found) => (found ? 2 * PLAIN : PLAIN),
};
