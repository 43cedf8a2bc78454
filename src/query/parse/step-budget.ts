// Relation, component and media steps one request's filters (or sorts) may take in all, populate's
// included: each step is a subquery, run for every row it is tested on.
import { ValidationError } from '../../errors.js';

/** Adds `n` steps to the request's count for `param`; past `max` in all, the 400 saying so. */
export function takeSteps(counter: { used: number }, n: number, max: number, param: 'filters' | 'sort'): void {
  const used = (counter.used += n);
  if (used > max) {
    throw new ValidationError(`${param} may go through relations, components and media at most ${max} times in all (these go ${used} times)`, {
      source: 'query',
      param,
      limit: max,
    });
  }
}
