// Schemas of the built-in plugin types, written in the same format as project schema files
// so they go through the same loader and checks.

export interface BuiltinSchema {
  readonly uid: string;
  readonly json: Record<string, unknown>;
}

const hidden = { searchable: false, private: true };

export const BUILTIN_SCHEMAS: readonly BuiltinSchema[] = [
  {
    uid: 'plugin::upload.file',
    json: {
      kind: 'collectionType',
      collectionName: 'files',
      info: { singularName: 'file', pluralName: 'files', displayName: 'File' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', required: true },
        alternativeText: { type: 'text' },
        caption: { type: 'text' },
        focalPoint: { type: 'json' },
        width: { type: 'integer' },
        height: { type: 'integer' },
        formats: { type: 'json' },
        hash: { type: 'string', required: true },
        ext: { type: 'string' },
        mime: { type: 'string', required: true },
        size: { type: 'decimal', required: true },
        url: { type: 'text', required: true },
        previewUrl: { type: 'text' },
        provider: { type: 'string', required: true },
        provider_metadata: { type: 'json' },
        folderPath: { type: 'string', ...hidden },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.role',
    json: {
      kind: 'collectionType',
      collectionName: 'up_roles',
      info: { singularName: 'role', pluralName: 'roles', displayName: 'Role' },
      options: { draftAndPublish: false },
      attributes: {
        name: { type: 'string', required: true, minLength: 3 },
        description: { type: 'string' },
        type: { type: 'string', unique: true },
        users: { type: 'relation', relation: 'oneToMany', target: 'plugin::users-permissions.user', mappedBy: 'role' },
      },
    },
  },
  {
    uid: 'plugin::users-permissions.user',
    json: {
      kind: 'collectionType',
      collectionName: 'up_users',
      info: { singularName: 'user', pluralName: 'users', displayName: 'User' },
      options: { draftAndPublish: false },
      attributes: {
        username: { type: 'string', minLength: 3, unique: true, required: true },
        email: { type: 'email', minLength: 6, required: true },
        provider: { type: 'string' },
        password: { type: 'password', minLength: 6, ...hidden },
        resetPasswordToken: { type: 'string', ...hidden },
        confirmationToken: { type: 'string', ...hidden },
        confirmed: { type: 'boolean', default: false },
        blocked: { type: 'boolean', default: false },
        role: { type: 'relation', relation: 'manyToOne', target: 'plugin::users-permissions.role', inversedBy: 'users' },
      },
    },
  },
];
