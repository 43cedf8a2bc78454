// folio api-token create|list|revoke
import { ApiTokenService, API_TOKEN_TYPES, type ApiTokenType } from '../auth/api-tokens.js';
import { withProject } from './open-project.js';
import { flag, UsageError, type Flags } from './usage.js';

export async function runApiToken(dir: string, args: string[], values: Flags): Promise<number> {
  const [sub, arg] = args;
  return withProject(dir, async (database, config) => {
    const tokens = new ApiTokenService(database, config.secrets.apiTokenSalt);
    if (sub === 'create') {
      const name = flag(values, 'name');
      const type = flag(values, 'type');
      if (!name) throw new UsageError('api-token create needs --name');
      if (!type || !API_TOKEN_TYPES.includes(type as ApiTokenType)) throw new UsageError(`api-token create needs --type ${API_TOKEN_TYPES.join('|')}`);
      const lifespan = flag(values, 'lifespan');
      if (lifespan !== undefined && !/^\d+$/.test(lifespan)) throw new UsageError('--lifespan takes a number of days');
      const { token, accessKey } = await tokens.create({
        name, type: type as ApiTokenType, description: flag(values, 'description'),
        permissions: flag(values, 'permissions')?.split(',').map((p) => p.trim()).filter(Boolean),
        lifespanDays: lifespan === undefined ? null : Number(lifespan),
      });
      if (values['json']) {
        console.log(JSON.stringify({ id: token.id, name: token.name, type: token.type, permissions: token.permissions, expiresAt: token.expiresAt, accessKey }));
      } else {
        console.log(accessKey);
      }
      return 0;
    }
    if (sub === 'list') {
      const list = await tokens.list();
      if (values['json']) console.log(JSON.stringify(list));
      else for (const t of list) console.log(`${t.id}\t${t.name}\t${t.type}\t${t.expiresAt ?? 'never expires'}\t${t.permissions.join(',')}`);
      return 0;
    }
    if (sub === 'revoke') {
      if (!arg) throw new UsageError('api-token revoke needs a token name or id');
      if (!(await tokens.revoke(arg))) {
        console.error(`No API token named or numbered "${arg}"`);
        return 1;
      }
      console.log(`Revoked ${arg}`);
      return 0;
    }
    throw new UsageError(`api-token: unknown subcommand "${sub ?? ''}"`);
  });
}
