// Strapi reports a problem in a populate entry's fields, filters or sort under the `populate`
// parameter, not under the parameter that was parsed.
import { ValidationError } from '../../errors.js';

const ENTRY_PARAMS: ReadonlySet<unknown> = new Set(['fields', 'filters', 'sort']);

/** Runs `parse`, reporting a fields/filters/sort error it throws under `populate`. */
export function underPopulate<T>(parse: () => T): T {
  try {
    return parse();
  } catch (e) {
    if (e instanceof ValidationError && e.details?.['source'] === 'query' && ENTRY_PARAMS.has(e.details['param'])) {
      throw new ValidationError(e.message, { ...e.details, param: 'populate' });
    }
    throw e;
  }
}
