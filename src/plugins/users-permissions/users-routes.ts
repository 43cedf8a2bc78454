// /users, /users/count, /users/me, /users/:id (behaviour.md §10.10): bare JSON, numeric ids, the
// user type's query language (filters, sort, fields, populate), each route behind its action.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApplicationError, NotFoundError, UnauthorizedError, ValidationError } from '../../errors.js';
import { checkRootPages, readUnpaged, rootOffsets, withoutRootPages } from '../../query/parse/root-pages.js';
import { authorize } from '../../http/authorize.js';
import { sendJson } from '../../http/send-json.js';
import { readGated, sendGatedValue, serveRead } from '../../http/gated-read.js';
import { readDocuments } from '../../documents/read.js';
import type { Tx } from '../../documents/store/rows.js';
import type { FindQuery, Pagination } from '../../query/ast.js';
import type { Ability } from '../../auth/ability.js';
import { pathRowId } from '../../documents/input/path-row-id.js';
import { bodyOf, type Body } from './body.js';
import type { RoleRead } from './role-ref.js';
import { checkCreateBody, checkUpdateBody, updateDataEcho } from './users-body.js';
import { besideFieldErrors, createRefusal } from './create-refusal.js';
import { fieldError } from '../../documents/input/messages.js';
import { UP, type UpContext } from './context.js';
import type { UserRow } from './users.js';
import { POOLED_COSTS } from '../../query/sql/populate-cost.js';

/** what "no limit" means for the users list: every user, as Strapi lists them */
const ALL = 2 ** 31 - 1;

function queryOf(req: FastifyRequest): Record<string, unknown> {
  return (req.query ?? {}) as Record<string, unknown>;
}

/**
 * Strapi lists every user and honours only root `start`/`limit`; Folio also honours `pagination[…]`
 * (the contract lists it), and without either returns every user as Strapi does.
 */
function listPagination(query: Record<string, unknown>, parsed: Pagination): Pagination {
  return query['pagination'] !== undefined ? parsed : rootRange(query);
}

/** Root `start`/`limit` as Strapi reads them on the users routes (its messages); every user without them. */
function rootRange(query: Record<string, unknown>): Pagination {
  const { start, limit } = rootOffsets(query);
  // past ALL, a start or limit is ALL: no database takes every whole number a double holds; a limit
  // of -1 or 0 is no limit
  const l = limit === null || limit <= 0 ? ALL : Math.min(limit, ALL);
  return { mode: 'offset', start: Math.min(start ?? 0, ALL), limit: l, withCount: false };
}

export function registerUserRoutes(app: FastifyInstance, up: UpContext): void {
  const { services, users } = up;
  const prefix = services.config.rest.prefix;
  const adv = up.config.advanced;
  // Strapi's users routes read without a transaction: their populated keys come in another order
  const read = { ...services.readContext, populateCosts: POOLED_COSTS };

  /** the user with this id as the caller may see it: role populated when the caller may find roles */
  const shown = (id: number, ability: Ability) => users.view(id, ability, { populate: 'role' });

  const target = async (req: FastifyRequest): Promise<UserRow> => {
    const id = pathRowId((req.params as { id: string }).id);
    const row = id === undefined ? undefined : await users.rowWhere({ column: 'id', value: id });
    if (!row) throw new NotFoundError('User not found');
    return row;
  };

  const takenBy = async (tx: Tx, column: 'email' | 'username', value: string, except: number | null): Promise<boolean> => {
    let q = tx.selectFrom('up_users').select('id').where(column, '=', value);
    if (except !== null) q = q.where('id', '<>', except);
    return (await q.limit(1).executeTakeFirst()) !== undefined;
  };

  /** POST/PUT body → values: the user type's attributes as sent (the role is read apart: readRoleRef) */
  const valuesOf = (body: Body): Body => {
    const entries = Object.entries(body);
    for (const [k] of entries) if (k === 'resetPasswordToken' || k === 'confirmationToken') throw ValidationError.invalidKey(k, k, 'body');
    // fromEntries defines each key: a `__proto__` key stays a key (refused as unknown), where an assignment set the prototype
    return Object.fromEntries(entries.filter(([k]) => k !== 'role'));
  };

  /** the documentId of the role a reference names; Strapi's errors when none (a create's are ApplicationErrors) */
  const roleOf = async (read: Extract<RoleRead, { kind: 'ref' }>, creating: boolean, body: Body = {}): Promise<string> => {
    const { ref } = read;
    const documentId = await users.roleDocument(ref);
    if (documentId !== undefined) return documentId;
    if ('documentId' in ref) {
      const message = `Document with id "${ref.documentId}", locale "null" not found`;
      throw creating ? new ApplicationError(message) : new ValidationError(message);
    }
    const message = '1 relation(s) of type plugin::users-permissions.role associated with this entity do not exist';
    throw creating ? new ApplicationError(message) : ValidationError.of([fieldError([], message, updateDataEcho(body, read.echo))]);
  };

  const usernameTaken = async (tx: Tx, values: Body, except: number | null): Promise<void> => {
    if (typeof values['username'] === 'string' && (await takenBy(tx, 'username', values['username'], except))) {
      throw new ApplicationError(except === null ? 'This attribute must be unique' : 'Username already taken');
    }
  };
  const emailTaken = async (tx: Tx, values: Body, except: number | null): Promise<void> => {
    if (adv.unique_email && typeof values['email'] === 'string' && (await takenBy(tx, 'email', values['email'].toLowerCase(), except))) {
      throw new ApplicationError('Email already taken');
    }
  };
  /** Strapi's order: a create checks the email first (its username is the model's unique check), an update the username */
  const uniqueness =
    (values: Body, except: number | null) =>
    async (tx: Tx): Promise<void> => {
      if (except === null) await emailTaken(tx, values, except);
      await usernameTaken(tx, values, except);
      if (except !== null) await emailTaken(tx, values, except);
    };

  app.get(`${prefix}/users/count`, async (req, reply) => {
    const caller = await authorize(services, req, `${UP}.user.count`);
    const query = queryOf(req);
    // the whole query is checked as the list's is (Strapi 5.54 refuses a bad sort, fields, populate,
    // page, start or limit here too); only filters and _q change the count
    const { filters, _q, sort, fields, populate } = query;
    const q = users.parse(caller.ability, { filters, _q, sort, fields, populate });
    checkRootPages(query);
    rootRange(query);
    const { value: total } = await services.database.recordReads(
      async (database) =>
        (
          await readDocuments({ ...read, database }, users.type, {
            ...q,
            sort: [],
            fields: null,
            populate: new Map(),
            pagination: { mode: 'offset', start: 0, limit: 1, withCount: true },
          })
        ).total,
    );
    return sendJson(reply, total ?? 0);
  });

  /**
   * The query of a one-user read (/users/me, /users/:id): Strapi 5.54 checks its paging parameters as a
   * list's, after the rest of the query, and then ignores them (the `pagination` object unread).
   */
  const oneUserQuery = (ability: Ability, query: Record<string, unknown>): Record<string, unknown> =>
    readUnpaged(query, (rest) => {
      if (rest !== query) users.parse(ability, rest);
      return rest;
    });

  app.get(`${prefix}/users/me`, async (req, reply) => {
    const caller = await authorize(services, req, `${UP}.user.me`);
    if (caller.kind !== 'user' || !caller.user) throw new UnauthorizedError('Unauthorized');
    const id = caller.user.id;
    const query = oneUserQuery(caller.ability, queryOf(req));
    const { value: user, lease } = await readGated(services, reply.raw, (database, lease) => users.view(id, caller.ability, query, { database, lease }));
    // the caller exists (its token was just checked), so no user here means the query's filters left it
    // out: Strapi 5.54 then answers an empty body, 204
    if (!user) {
      lease.release();
      return reply.code(204).send();
    }
    return sendGatedValue(reply, () => user, lease);
  });

  // a project's own collection type named `users` (api::user.user) answers /api/users and
  // /api/users/:id, as in Strapi; /users/me and /users/count stay the plugin's
  if (!services.model.routes.has('users')) {
    app.get(`${prefix}/users`, async (req, reply) => {
      const caller = await authorize(services, req, `${UP}.user.find`);
      const query = withoutRootPages(queryOf(req));
      const parsed = users.parse(caller.ability, query);
      checkRootPages(queryOf(req));
      const q: FindQuery = { ...parsed, pagination: listPagination(query, parsed.pagination) };
      return serveRead(services, reply, async (database, lease) => (await readDocuments({ ...read, database, lease }, users.type, q)).data);
    });

    app.get(`${prefix}/users/:id`, async (req, reply) => {
      const caller = await authorize(services, req, `${UP}.user.findOne`);
      const id = pathRowId((req.params as { id: string }).id);
      const query = oneUserQuery(caller.ability, queryOf(req));
      if (id === undefined) throw new NotFoundError('User not found');
      const { value: user, lease } = await readGated(services, reply.raw, (database, lease) => users.view(id, caller.ability, query, { database, lease }));
      if (!user) {
        lease.release();
        throw new NotFoundError('User not found');
      }
      return sendGatedValue(reply, () => user, lease);
    });

    app.post(`${prefix}/users`, async (req, reply) => {
      const caller = await authorize(services, req, `${UP}.user.create`);
      const body = bodyOf(req.body);
      // the contract makes role optional (Strapi 5.54 requires it): without one, the default role
      const { errors, role } = checkCreateBody(req.body);
      if (errors.length) throw ValidationError.of(errors);
      // an account made here signs in with a password, whatever the body says (as Strapi)
      const values: Body = { ...valuesOf(body), provider: 'local' };
      await emailTaken(services.database.db, values, null);
      if (role?.kind !== 'ref') {
        const id = await users.roleIdOfType(adv.default_role);
        if (id === undefined) throw new ApplicationError('Impossible to find the default role');
        values['role'] = id;
      }
      await usernameTaken(services.database.db, values, null);
      let id: number;
      try {
        try {
          users.validatePlain(values, true);
        } catch (e) {
          throw e instanceof ValidationError ? await createRefusal(services, users.type, valuesOf(body), role, e) : e;
        }
        // a role named in the body is looked up with the entry's other relations, after the model's checks (as Strapi's create)
        if (role?.kind === 'ref') values['role'] = await roleOf(role, true);
        id = await users.write(values, null, uniqueness(values, null));
      } catch (e) {
        // Strapi's create turns the model's errors into an ApplicationError with their message alone
        throw e instanceof ValidationError ? new ApplicationError(e.message) : e;
      }
      return sendJson(reply.code(201), await shown(id, caller.ability));
    });

    app.put(`${prefix}/users/:id`, async (req, reply) => {
      const caller = await authorize(services, req, `${UP}.user.update`);
      const row = await target(req);
      const body = bodyOf(req.body);
      const { errors, role } = checkUpdateBody(req.body);
      if (errors.length) throw ValidationError.of(errors);
      if (role?.kind === 'error') {
        const echo = role.late ? fieldError([], role.error.message, updateDataEcho(body, (role.error.value as Body)['role'])) : role.error;
        throw ValidationError.of([echo]);
      }
      const values = valuesOf(body);
      // a role named by a row id that names no row is found in the model's own pass, after the
      // username and email checks, and listed after its field errors (Strapi 5.54); a documentId
      // naming none is refused at once
      let missingRole: ValidationError | undefined;
      if (role?.kind === 'ref') {
        try {
          values['role'] = await roleOf(role, false, body);
        } catch (e) {
          if (!(e instanceof ValidationError) || 'documentId' in role.ref) throw e;
          missingRole = e;
        }
      }
      if (Object.hasOwn(values, 'password') && (values['password'] === null || values['password'] === '')) throw new ValidationError('password.notNull');
      await uniqueness(values, row.id)(services.database.db);
      try {
        users.validatePlain(values, false);
      } catch (e) {
        throw missingRole && e instanceof ValidationError ? besideFieldErrors(e, missingRole) : e;
      }
      if (missingRole) throw missingRole;
      await users.write(values, row, uniqueness(values, row.id));
      return sendJson(reply, await shown(row.id, caller.ability));
    });

    app.delete(`${prefix}/users/:id`, async (req, reply) => {
      const caller = await authorize(services, req, `${UP}.user.destroy`);
      const row = await target(req);
      // the deleted user bare, without its role, as Strapi answers
      const user = await users.view(row.id, caller.ability);
      await users.remove(row);
      // refresh mode: its sessions go with it (its access tokens are refused already: the user is gone)
      await up.sessions?.revokeUser(row.id);
      return sendJson(reply, user);
    });
  }
}
