// The actions a CLI command names (a role's permissions, a custom API token's): each must be one
// Folio has; one ending in `.*` names every action of that controller (`api::article.article.*`).
import { ApplicationError } from '../errors.js';
import { allActions } from '../plugins/users-permissions/permission-tree.js';
import type { Model } from '../schema/types.js';

export function expandActions(model: Model, requested: readonly string[]): string[] {
  const known = allActions(model);
  const out: string[] = [];
  const unknown: string[] = [];
  for (const r of requested) {
    const matches = r.endsWith('.*') ? known.filter((a) => a.startsWith(r.slice(0, -1)) && !a.slice(r.length - 1).includes('.')) : known.filter((a) => a === r);
    if (matches.length === 0) unknown.push(r);
    out.push(...matches);
  }
  if (unknown.length) {
    throw new ApplicationError(
      `Unknown action${unknown.length > 1 ? 's' : ''} ${unknown.join(', ')}. Actions look like api::article.article.find or plugin::users-permissions.user.me; \`folio permissions list --all\` lists them`,
    );
  }
  return [...new Set(out)];
}
