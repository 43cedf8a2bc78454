// What the caller may do: the permission check every entry point asks, never the credentials themselves.

export interface Ability {
  /** true when the caller holds the action uid, e.g. `api::article.article.find` */
  can(action: string): boolean;
}

/** `<uid>.find`: the action that lets a caller see documents of a type (and populate or filter through it). */
export function findAction(uid: string): string {
  if (uid.startsWith('plugin::upload.')) return 'plugin::upload.content-api.find';
  return `${uid}.find`;
}

export const ALLOW_ALL: Ability = { can: () => true };
