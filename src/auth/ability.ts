// What the caller may do: the permission check every entry point asks, never the credentials themselves.

export interface Ability {
  /** true when the caller holds the action uid, e.g. `api::article.article.find` */
  can(action: string): boolean;
}

/**
 * `<uid>.find`: the action that lets a caller see documents of a type (and populate, filter, sort
 * through or link a relation to it). For every type, files included: a relation attribute targeting
 * `plugin::upload.file` asks `plugin::upload.file.find`, as Strapi 5.54 asks it, which only full-access
 * and read-only tokens hold. The media library's own `plugin::upload.content-api.find` opens its routes
 * (and `media` attributes need nothing), not a relation: it would show and link which file a document
 * points at to roles Strapi refuses it to.
 */
export function findAction(uid: string): string {
  return `${uid}.find`;
}

export const ALLOW_ALL: Ability = { can: () => true };
