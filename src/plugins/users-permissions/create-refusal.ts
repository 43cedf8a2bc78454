// What POST and PUT /api/users answer when the user's values fail the model's checks, as Strapi 5.54
// decides it. A create: the documents the body names (a role or an extension's relation given by documentId) are
// looked up before any value is checked, so one naming no document is the error a client gets; and
// relation row ids naming no row are counted in the same pass as the field errors ("3 errors occurred"
// for two missing required fields and a role that doesn't exist), as the content routes count them.
import { ValidationError, type FieldError } from '../../errors.js';
import type { ContentType } from '../../schema/types.js';
import type { Services } from '../../http/services.js';
import { refuseMissingDocuments } from '../../documents/store/missing-documents.js';
import { missingRowIds } from '../../documents/store/missing-row-ids.js';
import { fieldErrorsOf } from '../../documents/store/missing-relations.js';
import type { RoleRead } from './role-ref.js';
import type { Body } from './body.js';

/**
 * The refusal of a create whose values failed with `e`: `values` are the body's attributes without the
 * role, `role` the body's role as read. Throws the missing document's error when the body names one.
 */
export async function createRefusal(services: Services, type: ContentType, values: Body, role: RoleRead | undefined, e: ValidationError): Promise<ValidationError> {
  // the role as the relation value it stands for (digits were read as a row id: readRoleRef)
  const data: Body = role?.kind === 'ref' ? { ...values, role: 'id' in role.ref ? role.ref.id : role.ref.documentId } : values;
  const db = services.database.db;
  await refuseMissingDocuments(db, services.model, type, data, null, services.locales.defaultCode());
  const fields = fieldErrorsOf(e);
  if (!fields) return e;
  const missing = await missingRowIds(db, services.model, type, data);
  // the route answers the message alone (an ApplicationError), so the echoed value doesn't matter
  return missing ? missing.besides(fields, {}) : e;
}

/**
 * An update's refusal when its values failed with `fields` and its role names no row (`missingRole`,
 * the relation error alone): one answer listing the field errors and then the relation's, as
 * Strapi's one validation pass does ("2 errors occurred").
 */
export function besideFieldErrors(fields: ValidationError, missingRole: ValidationError): ValidationError {
  const listed = fieldErrorsOf(fields);
  const relation = missingRole.details?.['errors'];
  if (!listed || !Array.isArray(relation)) return fields;
  return ValidationError.of([...listed, ...(relation as FieldError[])]);
}
