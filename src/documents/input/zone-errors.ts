// The root-level error Strapi 5.54 adds to a write whose dynamic zone holds an entry it can't place
// (no `__component`, or one it doesn't take). Its relation step fails on that entry and reports the
// data it was about to store (strapi-echo.ts). Clients see it as one more item of `details.errors`,
// and the message counts it ("2 errors occurred").
import type { FieldError } from '../../errors.js';
import type { Model } from '../../schema/types.js';
import { fieldError } from './messages.js';
import { storedData, type WriteTarget } from './strapi-echo.js';
import type { Obj, Schema } from './walk.js';

export type { WriteTarget } from './strapi-echo.js';

export const MISSING_ZONE_COMPONENT = 'Cannot build relations store from dynamiczone, component identifier is undefined';
export const UNPLACEABLE_ZONE_COMPONENT = 'Invalid relations';

export function zoneRootError(model: Model, message: string, schema: Schema, data: Obj, write: WriteTarget | undefined): FieldError {
  return fieldError([], message, storedData(model, schema, data, write));
}
