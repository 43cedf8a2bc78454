// The admin panel's user as Strapi 5's content API sees it behind a project's relation to `admin::user`
// (an `owner` or `reviewers` relation): its public names and its private ones, so that filters, sort and
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
