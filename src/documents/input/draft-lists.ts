// One publish rule Strapi 5.54 applies to drafts too: a required repeatable component or dynamic
// zone must be a list. Left out of a create it "must be defined." (no value in the error), sent as
// null it is yup's array type error; an update that leaves it out keeps the stored list. Checked on
// the reference, top-level attributes of a draft & publish type.
import type { FieldError } from '../../errors.js';
import type { ContentType } from '../../schema/types.js';
import { isVisible } from '../../schema/conditions.js';
import { fieldError, notTypeMessage } from './messages.js';
import type { Obj } from './walk.js';

export function draftListErrors(type: ContentType, data: Obj, create: boolean): FieldError[] {
  const out: FieldError[] = [];
  for (const a of type.attributes.values()) {
    if (!a.required || !(a.kind === 'dynamiczone' || (a.kind === 'component' && a.repeatable))) continue;
    // a field whose condition doesn't hold is not checked at all, as in Strapi's validator
    if (!isVisible(a, data)) continue;
    if (!Object.hasOwn(data, a.name)) {
      if (create) out.push(fieldError([a.name], `${a.name} must be defined.`));
    } else if (data[a.name] === null) out.push(fieldError([a.name], notTypeMessage([a.name], 'array', null), null));
  }
  return out;
}
