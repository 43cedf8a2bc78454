// The root-level error Strapi 5.54 adds to a write whose dynamic zone holds an entry it can't place
// (no `__component`, or one it doesn't take). Its relation step fails on that entry and reports the
// data it was about to store: the body's `data` with the defaults a create fills in, `publishedAt`
// (null: writes go to the draft first) and the locale. Clients see it as one more item of
// `details.errors`, and the message counts it ("2 errors occurred").
import type { FieldError } from '../../errors.js';
import { fieldError } from './messages.js';
import type { Obj, Schema } from './walk.js';

export const MISSING_ZONE_COMPONENT = 'Cannot build relations store from dynamiczone, component identifier is undefined';
export const UNPLACEABLE_ZONE_COMPONENT = 'Invalid relations';

/** What the write is: a create fills in defaults; a localized type's data carries its locale. */
export interface WriteTarget {
  readonly create: boolean;
  readonly locale: string | null;
}

function storedData(schema: Schema, data: Obj, write: WriteTarget | undefined): Obj {
  const out: Obj = {};
  if (write?.create) {
    for (const a of schema.attributes.values()) {
      if (a.kind === 'scalar' && a.default !== undefined && !Object.hasOwn(data, a.name)) out[a.name] = a.default;
    }
  }
  Object.assign(out, data);
  if ('draftAndPublish' in schema && schema.draftAndPublish) out['publishedAt'] = null;
  if (write?.locale !== undefined && write.locale !== null) out['locale'] = write.locale;
  return out;
}

export function zoneRootError(message: string, schema: Schema, data: Obj, write: WriteTarget | undefined): FieldError {
  return fieldError([], message, storedData(schema, data, write));
}
