// /users-permissions/roles and /users-permissions/permissions (behaviour.md §10.11). Roles are read
// through the document reader like any type; writes change a role and its permissions in one
// transaction, and the change mark retires every cached verdict and body at once.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ALLOW_ALL } from '../../auth/ability.js';
import { permissionRows, PUBLIC_ROLE } from '../../auth/roles.js';
import { ApplicationError, NotFoundError, ValidationError } from '../../errors.js';
import { authorize } from '../../http/authorize.js';
import { sendJson } from '../../http/send-json.js';
import { readDocuments, type DocumentObject } from '../../documents/read.js';
import { newDocumentId } from '../../documents/document-id.js';
import { parseFindQuery } from '../../query/parse/find-query.js';
import { parseContextOf } from '../../http/parse-context.js';
import { pathRowId } from '../../documents/input/path-row-id.js';
import { lockKey } from '../../database/key-lock.js';
import { writeTransaction } from '../../database/write-transaction.js';
import type { Tx } from '../../documents/store/rows.js';
import { ROLE_UID, USER_UID, type ContentType, type RelationAttribute } from '../../schema/types.js';
import { bodyOf, type Body } from './body.js';
import { USERS_LOCK } from './users.js';
import { UP, type UpContext } from './context.js';
import { snakeCase } from '../../schema/identifiers.js';
import { enabledActions, permissionTree } from './permission-tree.js';

const NAME_MIN = 3;
const NAME_MAX = 255;

/**
 * `Editors Team` → `editors_team`, `web3Devs` → `web_3_devs`, `日本語ロール` kept: Strapi's default type for a new
 * role is lodash's snakeCase of the lower-cased name
 */
export function roleType(name: string): string {
  return snakeCase(name.toLowerCase());
}

function text(body: Body, field: string, required: boolean): string | undefined {
  const v = body[field];
  if (v === undefined || v === null) {
    if (required) throw ValidationError.of([{ path: [field], message: `${field} is a required field`, name: 'ValidationError' }]);
    return undefined;
  }
  if (typeof v !== 'string') throw ValidationError.of([{ path: [field], message: `${field} must be a \`string\` type`, name: 'ValidationError', value: v }]);
  return v.trim();
}

function checkName(name: string): void {
  if (name.length < NAME_MIN || name.length > NAME_MAX) {
    throw ValidationError.of([{ path: ['name'], message: `name must be between ${NAME_MIN} and ${NAME_MAX} characters`, name: 'ValidationError', value: name }]);
  }
}

export function registerRoleRoutes(app: FastifyInstance, up: UpContext): void {
  const { services } = up;
  const { model, database } = services;
  const prefix = `${services.config.rest.prefix}/users-permissions`;
  const roleType_ = model.contentTypes.get(ROLE_UID) as ContentType;
  const userRole = model.contentTypes.get(USER_UID)!.attributes.get('role') as RelationAttribute;

  const roles = async (where?: number): Promise<DocumentObject[]> => {
    const q = parseFindQuery(parseContextOf(services, ALLOW_ALL), roleType_, {
      sort: ['name:asc', 'id:asc'],
      ...(where === undefined ? {} : { filters: { id: { $eq: String(where) } } }),
    });
    return (await readDocuments(services.readContext, roleType_, { ...q, pagination: { mode: 'offset', start: 0, limit: 2 ** 31 - 1, withCount: false } })).data;
  };

  const target = async (req: FastifyRequest, param: string): Promise<DocumentObject> => {
    const id = pathRowId((req.params as Record<string, string>)[param] ?? '');
    const role = id === undefined ? undefined : (await roles(id))[0];
    if (!role) throw new NotFoundError('Role not found');
    return role;
  };

  const nonEmpty = (req: FastifyRequest): Body => {
    const body = bodyOf(req.body);
    if (Object.keys(body).length === 0) throw new ValidationError('Request body cannot be empty');
    return body;
  };

  // kept rows keep their ids and document ids, as in Strapi: only what changed is written
  const setPermissions = async (tx: Tx, roleId: number, actions: readonly string[]): Promise<void> => {
    const unique = [...new Set(actions)];
    const have = new Set((await tx.selectFrom('up_permissions').select('action').where('role_id', '=', roleId).execute()).map((r) => String(r.action)));
    const gone = [...have].filter((a) => !unique.includes(a));
    if (gone.length) await tx.deleteFrom('up_permissions').where('role_id', '=', roleId).where('action', 'in', gone).execute();
    const fresh = unique.filter((a) => !have.has(a));
    if (fresh.length)
      await tx
        .insertInto('up_permissions')
        .values(permissionRows(roleId, fresh, database.dialect.toDatetime(new Date())))
        .execute();
  };

  const typeTaken = async (tx: Tx, type: string): Promise<void> => {
    if (await tx.selectFrom('up_roles').select('id').where('type', '=', type).executeTakeFirst()) {
      throw ValidationError.of([{ path: ['type'], message: 'This attribute must be unique', name: 'ValidationError', value: type }]);
    }
  };

  app.get(`${prefix}/roles`, async (req, reply) => {
    await authorize(services, req, `${UP}.role.find`);
    const list = await roles();
    const counts = await database.db
      .selectFrom(userRole.linkTable)
      .select(['target_document_id'])
      .select((eb) => eb.fn.countAll().as('n'))
      .groupBy('target_document_id')
      .execute();
    const byDoc = new Map(counts.map((c) => [String(c.target_document_id), Number(c.n)]));
    return sendJson(reply, { roles: list.map((r) => ({ ...r, nb_users: byDoc.get(String(r['documentId'])) ?? 0 })) });
  });

  app.get(`${prefix}/roles/:id`, async (req, reply) => {
    await authorize(services, req, `${UP}.role.findOne`);
    const role = await target(req, 'id');
    const view = await services.roles.view();
    return sendJson(reply, { role: { ...role, permissions: permissionTree(model, view.actionsOfRole(Number(role['id']))) } });
  });

  app.get(`${prefix}/permissions`, async (req, reply) => {
    await authorize(services, req, `${UP}.permissions.getPermissions`);
    return sendJson(reply, { permissions: permissionTree(model, new Set()) });
  });

  app.post(`${prefix}/roles`, async (req, reply) => {
    await authorize(services, req, `${UP}.role.createRole`);
    const body = nonEmpty(req);
    const name = text(body, 'name', true)!;
    checkName(name);
    // left out, it is null, as Strapi stores it
    const description = text(body, 'description', false) ?? null;
    const type = text(body, 'type', false) || roleType(name);
    if (!type) throw ValidationError.of([{ path: ['type'], message: 'type must not be empty', name: 'ValidationError', value: body['type'] }]);
    const actions = body['permissions'] === undefined ? [] : enabledActions(model, body['permissions']);
    await writeTransaction(database, async (tx) => {
      await lockKey(tx, database.dialect, ROLE_UID);
      await typeTaken(tx, type);
      const now = database.dialect.toDatetime(new Date());
      await tx.insertInto('up_roles').values({ document_id: newDocumentId(), name, description, type, created_at: now, updated_at: now, published_at: now }).execute();
      const row = await tx.selectFrom('up_roles').select('id').where('type', '=', type).executeTakeFirstOrThrow();
      await setPermissions(tx, Number(row.id), actions);
    });
    return sendJson(reply, { ok: true });
  });

  app.put(`${prefix}/roles/:role`, async (req, reply) => {
    await authorize(services, req, `${UP}.role.updateRole`);
    // Strapi 5.54 refuses an empty body before it looks the role up
    const body = nonEmpty(req);
    const role = await target(req, 'role');
    // a role keeps a name: null is refused like any other value that isn't one (Strapi 5.54 stores it)
    if (body['name'] === null) throw ValidationError.of([{ path: ['name'], message: 'name must be a `string` type', name: 'ValidationError', value: null }]);
    const name = text(body, 'name', false);
    if (name !== undefined) checkName(name);
    // null clears the description, as in Strapi
    const description = body['description'] === null ? null : text(body, 'description', false);
    // the contract: a PUT without permissions keeps them (Strapi removes them all)
    const actions = body['permissions'] === undefined ? null : enabledActions(model, body['permissions']);
    const id = Number(role['id']);
    await writeTransaction(database, async (tx) => {
      const cols: Record<string, unknown> = { updated_at: database.dialect.toDatetime(new Date()) };
      if (name !== undefined) cols['name'] = name;
      if (description !== undefined) cols['description'] = description;
      await tx.updateTable('up_roles').set(cols).where('id', '=', id).execute();
      if (actions !== null) await setPermissions(tx, id, actions);
    });
    return sendJson(reply, { ok: true });
  });

  app.delete(`${prefix}/roles/:role`, async (req, reply) => {
    await authorize(services, req, `${UP}.role.deleteRole`);
    const role = await target(req, 'role');
    if (role['type'] === PUBLIC_ROLE) throw new ApplicationError('Cannot delete public role');
    const id = Number(role['id']);
    await writeTransaction(database, async (tx) => {
      await lockKey(tx, database.dialect, USERS_LOCK);
      const pub = await tx.selectFrom('up_roles').select('document_id').where('type', '=', PUBLIC_ROLE).executeTakeFirst();
      // the contract: users of a deleted role move to the Public role
      if (pub)
        await tx
          .updateTable(userRole.linkTable)
          .set({ target_document_id: String(pub.document_id) })
          .where('target_document_id', '=', String(role['documentId']))
          .execute();
      else await tx.deleteFrom(userRole.linkTable).where('target_document_id', '=', String(role['documentId'])).execute();
      await tx.deleteFrom('up_permissions').where('role_id', '=', id).execute();
      await tx.deleteFrom('up_roles').where('id', '=', id).execute();
    });
    return sendJson(reply, { ok: true });
  });
}
