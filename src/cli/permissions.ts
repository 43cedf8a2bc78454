// folio permissions list [ROLE] | grant ROLE ACTION… | revoke ROLE ACTION…: what Strapi's admin panel
// does for the users-permissions roles, for a project without one. ROLE is a role's type (public,
// authenticated, or one made through the roles API); an action may end in `.*` for every action of
// that controller (`api::article.article.*`).
import { RoleStore } from '../auth/roles.js';
import { allActions } from '../plugins/users-permissions/permission-tree.js';
import { expandActions } from './actions.js';
import { withProject } from './open-project.js';
import { table } from './table.js';
import { checkArgs, checkOptions, UsageError, type Flags } from './usage.js';

export async function runPermissions(dir: string, args: readonly string[], values: Flags): Promise<number> {
  const [sub, role, ...actions] = args;
  if (sub !== 'list' && sub !== 'grant' && sub !== 'revoke')
    throw new UsageError(sub ? `permissions: unknown subcommand "${sub}"` : 'permissions needs a subcommand: list, grant or revoke');
  checkOptions(`permissions ${sub}`, values);
  if (sub === 'list') checkArgs('permissions list', args.slice(1), 1);
  else {
    if (!role) throw new UsageError(`permissions ${sub} needs a role (public, authenticated, …) and at least one action`);
    if (actions.length === 0) throw new UsageError(`permissions ${sub} ${role} needs at least one action, e.g. api::article.article.find`);
  }
  return withProject(dir, async (database, _config, model) => {
    const roles = new RoleStore(database);
    await roles.seed();
    if (sub === 'list') {
      if (values.all) {
        console.log(allActions(model).join('\n'));
        return 0;
      }
      const view = await roles.view();
      const rows = await database.db.selectFrom('up_roles').select(['id', 'type', 'name']).orderBy('id').execute();
      const shown = role === undefined ? rows : rows.filter((r) => r.type === role);
      if (shown.length === 0) {
        console.error(`No role of type "${role}"; roles: ${rows.map((r) => r.type).join(', ')}`);
        return 1;
      }
      if (values.json) {
        console.log(JSON.stringify(shown.map((r) => ({ type: r.type, name: r.name, actions: [...view.actionsOfRole(Number(r.id))].sort() }))));
        return 0;
      }
      console.log(
        table(
          ['ROLE', 'NAME', 'ACTIONS'],
          shown.map((r) => [String(r.type), String(r.name), [...view.actionsOfRole(Number(r.id))].sort().join(' ') || '(none)']),
        ),
      );
      return 0;
    }
    const wanted = expandActions(model, actions);
    const view = await roles.view();
    if (view.roleId(role!) === undefined) {
      const types = (await database.db.selectFrom('up_roles').select('type').orderBy('id').execute()).map((r) => r.type);
      console.error(`No role of type "${role}"; roles: ${types.join(', ')}`);
      return 1;
    }
    const changed = sub === 'grant' ? await roles.grant(role!, wanted) : await roles.revoke(role!, wanted);
    const verb = sub === 'grant' ? 'Granted' : 'Revoked';
    console.log(
      changed.length
        ? `${verb} ${changed.join(', ')} ${sub === 'grant' ? 'to' : 'from'} ${role}`
        : `Nothing to change: ${role} ${sub === 'grant' ? 'already has' : 'has none of'} ${wanted.join(', ')}`,
    );
    return 0;
  });
}
