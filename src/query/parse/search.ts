// `_q`: the text a list is searched for. A list or an object there (`_q[0]=a`) is no text: refused with
// a 400 rather than dropped, which would answer the unsearched list (Strapi 5.54 answers a 500).
import { ValidationError } from '../../errors.js';

export function parseSearch(raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  if (typeof raw !== 'string') throw new ValidationError('Invalid _q parameter. Expected a string', { source: 'query', param: '_q' });
  return raw;
}
