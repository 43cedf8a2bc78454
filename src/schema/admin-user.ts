// The admin panel's user and role as Strapi 5's content API sees them behind a project's relation to
// `admin::user` (an `owner` or `reviewers` relation) or `admin::role` (arda-e/netas-academy's routing of
// notifications to admin roles): their public names and their private ones, so that filters, sort and
// populate below such a relation are checked as Strapi checks them. Folio has no admin panel and never
// reads Strapi's admin tables (their rows are the admins, whose data must not reach the content API), so
// such a relation never holds a link: see the schema's `adminRelations`.

export const ADMIN_USER_UID = 'admin::user';

const hidden = { private: true };

export const ADMIN_USER_SCHEMA: Record<string, unknown> = {
  kind: 'collectionType',
  collectionName: 'admin_users',
  info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
  options: { draftAndPublish: false },
  attributes: {
    firstname: { type: 'string' },
    lastname: { type: 'string' },
    username: { type: 'string' },
    email: { type: 'email', ...hidden },
    password: { type: 'password', ...hidden },
    resetPasswordToken: { type: 'string', ...hidden },
    registrationToken: { type: 'string', ...hidden },
    isActive: { type: 'boolean', ...hidden },
    // never read: named only to be refused as the private relations they are in Strapi
    roles: { type: 'relation', relation: 'manyToMany', target: 'admin::role', ...hidden },
    blocked: { type: 'boolean', ...hidden },
    preferedLanguage: { type: 'string' },
    apiTokens: { type: 'relation', relation: 'oneToMany', target: 'admin::api-token', ...hidden },
  },
};

export const ADMIN_ROLE_UID = 'admin::role';

export const ADMIN_ROLE_SCHEMA: Record<string, unknown> = {
  kind: 'collectionType',
  collectionName: 'admin_roles',
  info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
  options: { draftAndPublish: false },
  attributes: {
    name: { type: 'string' },
    code: { type: 'string' },
    description: { type: 'string' },
    // never read: named only to be refused as the private relations they are in Strapi
    users: { type: 'relation', relation: 'manyToMany', target: 'admin::user', ...hidden },
    permissions: { type: 'relation', relation: 'oneToMany', target: 'admin::permission', ...hidden },
  },
};

/** The admin panel's types a project's relation may name, with what a relation to one is served as. */
export const ADMIN_TYPES: ReadonlyMap<string, { readonly schema: Record<string, unknown>; readonly what: string; readonly one: string }> = new Map([
  [ADMIN_USER_UID, { schema: ADMIN_USER_SCHEMA, what: "the admin panel's user", one: 'an admin user' }],
  [ADMIN_ROLE_UID, { schema: ADMIN_ROLE_SCHEMA, what: "the admin panel's role", one: 'an admin role' }],
]);
