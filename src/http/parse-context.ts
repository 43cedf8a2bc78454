// What the query parser needs from a request: the model, the REST limits, the caller's ability and
// the locales as they stand. Every route that parses a query builds it here.
import type { Ability } from '../auth/ability.js';
import type { ParseContext } from '../query/parse/context.js';
import type { Services } from './services.js';

export function parseContextOf(services: Services, ability: Ability): ParseContext {
  return {
    model: services.model,
    rest: services.config.rest,
    ability,
    defaultLocale: services.locales.defaultCode(),
    locales: services.locales.codes(),
    filterSteps: { used: 0 },
    sortSteps: { used: 0 },
  };
}
