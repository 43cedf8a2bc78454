// The errors of a user's values in one list, as Strapi 5.54's one validation pass gives them: a value
// of the wrong type (an extension's boolean sent as "yes") beside the rule errors of the others (a
// short password), each attribute's errors at its place in the type's attribute order.
import type { FieldError } from '../../errors.js';
import { castScalar } from '../../documents/input/cast-scalar.js';
import type { ContentType } from '../../schema/types.js';
import { isSecret } from './body.js';

/** `ruled`: the model's rule errors; `password`: the password's own problem, if any. */
export function userValueErrors(type: ContentType, scalars: Readonly<Record<string, unknown>>, ruled: readonly FieldError[], password: string | null): FieldError[] {
  const byName = new Map<string, FieldError[]>();
  const add = (name: string, e: FieldError): void => void byName.set(name, [...(byName.get(name) ?? []), e]);
  const typed = new Set<string>();
  for (const [k, v] of Object.entries(scalars)) {
    const a = type.attributes.get(k);
    if (a?.kind !== 'scalar' || isSecret(k)) continue;
    const r = castScalar(a, v, [k]);
    if (r.kind !== 'invalid') continue;
    typed.add(k);
    for (const e of r.errors) add(k, e);
  }
  // a value of the wrong type has no rule errors of its own
  for (const e of ruled) if (!typed.has(e.path[0] ?? '')) add(e.path[0] ?? '', e);
  if (password !== null) add('password', { path: ['password'], message: password, name: 'ValidationError' });
  const place = (name: string): number => {
    const i = type.order.indexOf(name);
    return i === -1 ? Number.MAX_SAFE_INTEGER : i;
  };
  return [...byName].sort(([a], [b]) => place(a) - place(b)).flatMap(([, list]) => list);
}
