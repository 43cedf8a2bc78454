// folio api-token create|list|revoke
import { ApiTokenService, API_TOKEN_TYPES, type ApiToken, type ApiTokenType } from '../auth/api-tokens.js';
import { expandActions } from './actions.js';
import { withProject } from './open-project.js';
import { table } from './table.js';
import { checkArgs, checkOptions, flag, numberFlag, UsageError, type Flags } from './usage.js';

const isType = (t: string | undefined): t is ApiTokenType => API_TOKEN_TYPES.includes(t as ApiTokenType);

function createInput(values: Flags): Parameters<ApiTokenService['create']>[0] {
  const name = flag(values, 'name');
  const type = flag(values, 'type');
  if (!name?.trim()) throw new UsageError('api-token create needs --name');
  if (!isType(type)) throw new UsageError(`api-token create needs --type ${API_TOKEN_TYPES.join('|')}${type ? `, got "${type}"` : ''}`);
  const permissions = flag(values, 'permissions')
    ?.split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (permissions !== undefined && type !== 'custom') throw new UsageError('--permissions only applies to --type custom');
  if (type === 'custom' && !permissions?.length) throw new UsageError('--type custom needs --permissions, e.g. api::article.article.find,api::article.article.findOne');
  const lifespan = numberFlag(values, 'lifespan');
  if (lifespan === 0) throw new UsageError('--lifespan takes a number of days (7, 30, 90…); leave it out for a token that never expires');
  return { name, type, description: flag(values, 'description'), permissions, lifespanDays: lifespan ?? null };
}

function print(list: readonly ApiToken[]): void {
  if (list.length === 0) {
    console.log('No API tokens. Create one with: folio api-token create --name NAME --type read-only|full-access|custom');
    return;
  }
  console.log(
    table(
      ['ID', 'NAME', 'TYPE', 'EXPIRES', 'LAST USED', 'PERMISSIONS'],
      list.map((t) => [String(t.id), t.name, t.type, t.expiresAt ?? 'never', t.lastUsedAt ?? 'never', t.type === 'custom' ? t.permissions.join(',') : '']),
    ),
  );
}

export async function runApiToken(dir: string, args: readonly string[], values: Flags): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create' && sub !== 'list' && sub !== 'revoke')
    throw new UsageError(sub ? `api-token: unknown subcommand "${sub}"` : 'api-token needs a subcommand: create, list or revoke');
  checkOptions(`api-token ${sub}`, values);
  checkArgs(`api-token ${sub}`, rest, sub === 'revoke' ? 1 : 0);
  // usage mistakes are reported before the database is opened
  const input = sub === 'create' ? createInput(values) : undefined;
  if (sub === 'revoke' && !rest[0]) throw new UsageError('api-token revoke needs a token name or id');
  return withProject(dir, async (database, config, model) => {
    const tokens = new ApiTokenService(database, config.secrets.apiTokenSalt);
    if (input) {
      // as Strapi's token service, which refuses unknown permissions; `.*` as `permissions grant` reads it
      const permissions = input.permissions && expandActions(model, input.permissions);
      const { token, accessKey } = await tokens.create({ ...input, permissions });
      // the key alone, so `TOKEN=$(folio api-token create …)` works
      console.log(
        values.json ? JSON.stringify({ id: token.id, name: token.name, type: token.type, permissions: token.permissions, expiresAt: token.expiresAt, accessKey }) : accessKey,
      );
      return 0;
    }
    if (sub === 'list') {
      const list = await tokens.list();
      if (values.json) console.log(JSON.stringify(list));
      else print(list);
      return 0;
    }
    const target = rest[0]!;
    if (!(await tokens.revoke(target))) {
      console.error(`No API token named or numbered "${target}"`);
      return 1;
    }
    console.log(`Revoked API token "${target}" (refused from the next request on, by every running server)`);
    return 0;
  });
}
