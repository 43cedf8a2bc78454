// The query-string parser Strapi and its clients use, with Strapi's options (behaviour.md §2.4).
//
// Every key a client sends must reach the validators, which refuse unknown names with a 400: qs's
// default drops keys named like Object.prototype members (`filters[constructor][x]=1` would vanish and
// the list come back unfiltered). So objects are built without a prototype (`plainObjects`), where
// such keys are plain own keys and can't reach or change Object.prototype. qs still drops
// `__proto__` segments even then, so those are carried through under a stand-in no client can
// know (random per request) and restored as own keys afterwards.
//
// Past Strapi's limits (100 list entries, 1,000 parameters) qs turns a list into an object, which
// Strapi then drops unread (`filters[id][$in]` with 101 ids answered every document), and leaves
// parameters out: a list holds up to the parameter limit here, and anything past a limit is a 400.
// A project raises or lowers the limits as in Strapi (config/query-parser-config.ts).
import { randomUUID } from 'node:crypto';
import qs from 'qs';
import { ValidationError } from '../../errors.js';
import type { QueryParserLimits } from '../../config/query-parser-config.js';

const PROTO = '__proto__';

/** Copies `v` with `stand` in keys put back to `__proto__`, as own keys of null-prototype objects. */
function restore(v: unknown, stand: string): unknown {
  if (Array.isArray(v)) return v.map((x) => restore(x, stand));
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [k, x] of Object.entries(v)) out[k.replaceAll(stand, PROTO)] = restore(x, stand);
  return out;
}

/** qs.parse keeping every key, `__proto__` included, as own keys of prototype-less objects. */
function parseKeepingNames(raw: string, strictNullHandling: boolean, limits: QueryParserLimits): Record<string, unknown> {
  let stand: string | null = null;
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(raw, {
      strictNullHandling,
      arrayLimit: limits.arrayLimit,
      parameterLimit: limits.parameterLimit,
      throwOnLimitExceeded: true,
      depth: limits.depth,
      plainObjects: true,
      decoder(str, decode, charset, type) {
        const s: unknown = decode(str, decode, charset);
        if (type !== 'key' || typeof s !== 'string' || !s.includes(PROTO)) return s;
        stand ??= `proto-${randomUUID()}`;
        return s.replaceAll(PROTO, stand);
      },
    });
  } catch (e) {
    // qs's own words: "Parameter limit exceeded. Only 1000 parameters allowed." (or the array's)
    if (e instanceof RangeError) throw new ValidationError(e.message);
    throw e;
  }
  return stand === null ? parsed : (restore(parsed, stand) as Record<string, unknown>);
}

/** Where a query string past qs's limits keeps its error: the router parses it, and must not throw (query-limit-guard.ts). */
const REFUSED_QUERY: unique symbol = Symbol('refused query');

/** The router's query-string parser: a query string past the limits keeps its error for refusedQuery(). */
export function queryStringParser(limits: QueryParserLimits): (raw: string) => Record<string, unknown> {
  return (raw) => {
    try {
      return parseKeepingNames(raw, true, limits);
    } catch (e) {
      if (e instanceof ValidationError) return { [REFUSED_QUERY]: e };
      throw e;
    }
  };
}

/** the error of a query string parseQueryString refused */
export function refusedQuery(query: unknown): ValidationError | undefined {
  return typeof query === 'object' && query !== null && REFUSED_QUERY in query ? (query as { [REFUSED_QUERY]: ValidationError })[REFUSED_QUERY] : undefined;
}

/**
 * An `application/x-www-form-urlencoded` body (behaviour.md §2.5), every key kept so the write
 * checks refuse unknown ones, shaped as JSON.parse shapes a JSON body (ordinary objects, `__proto__`
 * an own key) so both kinds of body reach the same code as the same values.
 */
export function parseFormBody(raw: string, limits: QueryParserLimits): unknown {
  return JSON.parse(JSON.stringify(parseKeepingNames(raw, false, limits))) as unknown;
}
