// Strapi's body parser reads multipart forms on every route, so a sign-in form sent as FormData works
// there: the auth routes take the form's text fields as their body (a field sent twice, its values in
// order); a file part is read and dropped. A form the parser can't read is the client's 400, never a
// 500 (Strapi 5.54 answers 500: behaviour.md §13).
import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { formParts } from '../../http/form-parts.js';
import { multipartError } from '../../http/multipart-error.js';

/** a sign-in or account form's fields are short: these bound what one request may make the server hold */
const AUTH_FORM_LIMITS = { fields: 50, fieldSize: 64 * 1024, files: 5, fileSize: 64 * 1024, parts: 100, headerPairs: 200 };

async function formFields(req: FastifyRequest): Promise<Record<string, unknown>> {
  const body: Record<string, unknown> = {};
  try {
    for await (const part of formParts(req)) {
      if (part.type === 'file') {
        for await (const chunk of part.file) void chunk;
        continue;
      }
      // the parser refuses every name Object.prototype has (`__proto__`, `toString`…: a 400 below), so an
      // assignment and a plain lookup only ever meet the form's own fields
      const had = body[part.fieldname];
      body[part.fieldname] = had === undefined ? part.value : Array.isArray(had) ? [...(had as unknown[]), part.value] : [had, part.value];
    }
  } catch (e) {
    throw multipartError(e, AUTH_FORM_LIMITS.files);
  }
  return body;
}

/** Lets the routes registered in `scope` after this take a multipart form's fields as their body. */
export async function acceptAuthForms(scope: FastifyInstance): Promise<void> {
  await scope.register(multipart, { limits: AUTH_FORM_LIMITS });
  scope.addHook('preValidation', async (req) => {
    if (req.isMultipart()) req.body = await formFields(req);
  });
}
