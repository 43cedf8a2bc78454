// The query-string parser Strapi and its clients use, with Strapi's options (behaviour.md §2.4).
//
// Every key a client sends must reach the validators, which refuse unknown names with a 400: qs's
// default drops keys named like Object.prototype members (`filters[constructor][x]=1` would vanish and
// the list come back unfiltered). So objects are built without a prototype (`plainObjects`), where
// such keys are plain own keys and can't reach or change Object.prototype. qs still drops
// `__proto__` segments even then, so those are carried through under a stand-in no client can
// know (random per request) and restored as own keys afterwards.
import { randomUUID } from 'node:crypto';
import qs from 'qs';

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
function parseKeepingNames(raw: string, strictNullHandling: boolean): Record<string, unknown> {
  let stand: string | null = null;
  const parsed = qs.parse(raw, {
    strictNullHandling,
    arrayLimit: 100,
    depth: 20,
    plainObjects: true,
    decoder(str, decode, charset, type) {
      const s: unknown = decode(str, decode, charset);
      if (type !== 'key' || typeof s !== 'string' || !s.includes(PROTO)) return s;
      stand ??= `proto-${randomUUID()}`;
      return s.replaceAll(PROTO, stand);
    },
  });
  return stand === null ? parsed : (restore(parsed, stand) as Record<string, unknown>);
}

export function parseQueryString(raw: string): Record<string, unknown> {
  return parseKeepingNames(raw, true);
}

/**
 * An `application/x-www-form-urlencoded` body (behaviour.md §2.5), every key kept so the write
 * checks refuse unknown ones, shaped as JSON.parse shapes a JSON body (ordinary objects, `__proto__`
 * an own key) so both kinds of body reach the same code as the same values.
 */
export function parseFormBody(raw: string): unknown {
  return JSON.parse(JSON.stringify(parseKeepingNames(raw, false))) as unknown;
}
