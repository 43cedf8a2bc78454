// Every action a role can hold, and the permission tree Strapi's roles API speaks:
// `{ "<api or plugin uid>": { controllers: { "<controller>": { "<action>": { enabled, policy } } } } }`
// (behaviour.md §10.11). Only actions Folio serves are listed; the tree's leaves are `<key>.<controller>.<action>`.
import { ValidationError } from '../../errors.js';
import type { Model } from '../../schema/types.js';
import { UP } from './context.js';

export interface ActionLeaf {
  readonly enabled: boolean;
  readonly policy: string;
}
export type PermissionTree = Record<string, { controllers: Record<string, Record<string, ActionLeaf>> }>;

const PLUGIN_ACTIONS: readonly (readonly [string, string, readonly string[]])[] = [
  [
    UP,
    'auth',
    [
      'callback',
      'changePassword',
      'resetPassword',
      'connect',
      'forgotPassword',
      'register',
      'emailConfirmation',
      'sendEmailConfirmation',
      'refresh',
      'logout',
      'getSessions',
      'revokeSession',
    ],
  ],
  [UP, 'user', ['count', 'destroy', 'create', 'find', 'findOne', 'me', 'update']],
  [UP, 'role', ['createRole', 'findOne', 'find', 'updateRole', 'deleteRole']],
  [UP, 'permissions', ['getPermissions']],
  ['plugin::upload', 'content-api', ['find', 'findPage', 'findOne', 'destroy', 'upload']],
  ['plugin::i18n', 'locales', ['listLocales']],
];

/** Every action uid of this model, in tree order. */
export function allActions(model: Model): string[] {
  const out: string[] = [];
  for (const t of model.contentTypes.values()) {
    if (t.origin !== 'api') continue;
    const base = t.kind === 'collectionType' ? ['find', 'findOne', 'create', 'update', 'delete'] : ['find', 'update', 'delete'];
    // Folio's name for adding a locale version through PUT ?locale= (contract: Locale rule 4)
    if (t.localized) base.push('createLocalization');
    for (const a of base) out.push(`${t.uid}.${a}`);
  }
  for (const [key, controller, actions] of PLUGIN_ACTIONS) for (const a of actions) out.push(`${key}.${controller}.${a}`);
  return out;
}

/** `api::article.article.find` → ['api::article', 'article', 'find'] */
function split(action: string): [string, string, string] {
  const last = action.lastIndexOf('.');
  const mid = action.lastIndexOf('.', last - 1);
  return [action.slice(0, mid), action.slice(mid + 1, last), action.slice(last + 1)];
}

export function permissionTree(model: Model, enabled: ReadonlySet<string>): PermissionTree {
  const tree: PermissionTree = {};
  for (const action of allActions(model)) {
    const [key, controller, name] = split(action);
    const controllers = (tree[key] ??= { controllers: {} }).controllers;
    (controllers[controller] ??= {})[name] = { enabled: enabled.has(action), policy: '' };
  }
  return tree;
}

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The actions a tree sent by a client enables (its `enabled: true` leaves). A leaf naming an action
 * Folio doesn't have, or a tree of the wrong shape, is a 400 naming the path.
 */
export function enabledActions(model: Model, tree: unknown): string[] {
  if (!isObj(tree)) throw new ValidationError('permissions must be an object', { path: ['permissions'] });
  const known = new Set(allActions(model));
  const out: string[] = [];
  for (const [key, group] of Object.entries(tree)) {
    const controllers = isObj(group) ? group['controllers'] : undefined;
    if (!isObj(controllers)) throw new ValidationError(`permissions.${key} must be { controllers: { … } }`, { path: ['permissions', key] });
    for (const [controller, actions] of Object.entries(controllers)) {
      if (!isObj(actions))
        throw new ValidationError(`permissions.${key}.controllers.${controller} must be an object of actions`, { path: ['permissions', key, 'controllers', controller] });
      for (const [name, leaf] of Object.entries(actions)) {
        if (!isObj(leaf) || leaf['enabled'] !== true) continue;
        const action = `${key}.${controller}.${name}`;
        if (!known.has(action)) throw new ValidationError(`Unknown action ${action}`, { path: ['permissions', key, 'controllers', controller, name] });
        out.push(action);
      }
    }
  }
  return out;
}
