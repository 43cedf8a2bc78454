// config/custom-fields: the project's mapping of custom field ids to the type each is stored as, for
// custom fields of plugins Folio doesn't know (`{ "plugin::acme.rating": "integer" }`).
import { ConfigError } from '../errors.js';
import { CUSTOM_FIELD_TYPES } from '../schema/custom-fields.js';
import type { ScalarType } from '../schema/types.js';
import type { Obj } from './config-files.js';

// what Strapi names a custom field: plugin::<plugin>.<name>, or global::<name> for one an app registers itself
const ID = /^(plugin::[A-Za-z0-9_-]+\.|global::)[A-Za-z0-9_-]+$/;
const TYPES: ReadonlySet<string> = new Set(CUSTOM_FIELD_TYPES);

export function customFieldsConfig(file: Obj): ReadonlyMap<string, ScalarType> {
  const out = new Map<string, ScalarType>();
  for (const [id, type] of Object.entries(file)) {
    if (!ID.test(id)) throw new ConfigError(`config/custom-fields: "${id}" is not a custom field id such as plugin::color-picker.color`);
    if (typeof type !== 'string' || !TYPES.has(type)) {
      throw new ConfigError(`config/custom-fields: "${id}" must map to one of ${CUSTOM_FIELD_TYPES.join(', ')}, got ${JSON.stringify(type)}`);
    }
    out.set(id, type as ScalarType);
  }
  return out;
}
