// The strapi::query entry of config/middlewares: the query-string parser's limits. Strapi hands the
// entry's config to qs as it is; Folio takes the three limits qs has (a list's highest index, the
// number of parameters, the nesting depth) and names any other option as not applied, since an
// option that changes how keys are read (allowDots, comma) would give clients other filters than
// Strapi's default parsing they were written for.
import { isObj, type Obj } from './config-files.js';
import { fileInt } from './values.js';

export interface QueryParserLimits {
  /** a list's highest index (`filters[id][$in][999]`); past it the request is a 400 */
  readonly arrayLimit: number;
  /** parameters in one query string or form body */
  readonly parameterLimit: number;
  /** bracket levels read as nesting; deeper brackets stay in the key, which validation refuses */
  readonly depth: number;
}

/**
 * Folio's defaults: a list as long as the parameters allow (Strapi's 100 turned longer lists into
 * objects its validator dropped, so a filter past it was silently left out), qs's 1,000 parameters and
 * Strapi's depth of 20.
 */
export const DEFAULT_QUERY_LIMITS: QueryParserLimits = { arrayLimit: 1000, parameterLimit: 1000, depth: 20 };

const APPLIED = new Set(['arrayLimit', 'parameterLimit', 'depth']);

export function queryParserLimits(middlewares: unknown, warnings: string[]): QueryParserLimits {
  const entry = Array.isArray(middlewares) ? middlewares.find((m): m is Obj => isObj(m) && m['name'] === 'strapi::query') : undefined;
  const config: Obj = entry && isObj(entry['config']) ? entry['config'] : {};
  const ignored = Object.keys(config).filter((k) => !APPLIED.has(k));
  if (ignored.length > 0) warnings.push(`config/middlewares strapi::query: ${ignored.join(', ')} not applied (Folio reads arrayLimit, parameterLimit and depth)`);
  const key = (k: string): string => `middlewares strapi::query ${k}`;
  return {
    arrayLimit: fileInt(config['arrayLimit'], key('arrayLimit'), DEFAULT_QUERY_LIMITS.arrayLimit, 0, 100_000),
    parameterLimit: fileInt(config['parameterLimit'], key('parameterLimit'), DEFAULT_QUERY_LIMITS.parameterLimit, 1, 100_000),
    depth: fileInt(config['depth'], key('depth'), DEFAULT_QUERY_LIMITS.depth, 1, 100),
  };
}
