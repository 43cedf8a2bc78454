// What start-up tells a newcomer whose project nobody can read yet: no API token exists and the
// Public role may read no content, so every request would be a 403. Prints the commands that fix it,
// spelled the way this command was run.
import { relative } from 'node:path';
import type { App } from '../app.js';
import { PUBLIC_ROLE } from '../auth/roles.js';

const PRODUCTION_SECRETS = ['API_TOKEN_SALT', 'JWT_SECRET', 'APP_KEYS'] as const;

/** a value as a shell reads it back */
const shellWord = (v: string): string => (/^[\w./:@%+=,-]+$/.test(v) ? v : `'${v.replaceAll("'", "'\\''")}'`);

/**
 * The DATABASE_* settings this server was started with, to run before a command: without them the
 * command opens the project's SQLite file, not the database this server uses; in production, the
 * secrets too. A password or secret is never printed, only named (`…` to fill in).
 */
export function serverEnvPrefix(env: NodeJS.ProcessEnv = process.env): string {
  // one set empty is kept: a config's own default (`env('DATABASE_PASSWORD', 'strapi')`) would otherwise win
  const names = Object.keys(env)
    .filter((k) => k.startsWith('DATABASE_') && env[k] !== undefined)
    .sort();
  // a server in production took its secrets from its environment: a command run without them would
  // make a development salt of its own, and the server refuse the token it creates
  const production = env['NODE_ENV'] === 'production';
  const secrets = production ? PRODUCTION_SECRETS.filter((k) => env[k]).map((k) => `${k}=… `) : [];
  const shown = (k: string, v: string): string =>
    k === 'DATABASE_PASSWORD' && v !== '' ? '…' : shellWord(k === 'DATABASE_URL' ? v.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:…@') : v);
  return `${production ? 'NODE_ENV=production ' : ''}${secrets.join('')}${names.map((k) => `${k}=${shown(k, env[k]!)} `).join('')}`;
}

/** `cmd` + the command + `dir`: how to run another folio command on the same project from here */
function invocation(projectDir: string): { cmd: string; dir: string } {
  const script = process.argv[1] ? relative(process.cwd(), process.argv[1]) : '';
  const rel = relative(process.cwd(), projectDir);
  const cmd = script.endsWith('dist/cli/main.js') ? `node ${script}` : 'folio';
  return { cmd: `${serverEnvPrefix()}${cmd}`, dir: rel === '' ? '' : ` --dir ${rel}` };
}

export async function firstSteps(app: App): Promise<string[]> {
  const tokens = await app.database.db.selectFrom('folio_api_tokens').select('id').limit(1).execute();
  const view = await app.services.roles.view();
  const publicReads = [...view.actionsOfType(PUBLIC_ROLE)].some((a) => a.startsWith('api::'));
  if (tokens.length > 0 || publicReads) return [];
  const type = [...app.model.contentTypes.values()].find((t) => t.origin === 'api' && t.kind === 'collectionType');
  const { cmd, dir } = invocation(app.config.dir);
  const lines = ['Nothing can be read yet: no API token exists and the Public role may read no content. To start:'];
  if (type) lines.push(`  ${cmd} permissions grant public ${type.uid}.find ${type.uid}.findOne${dir}   # anyone may read ${type.pluralName}`);
  lines.push(`  ${cmd} api-token create --name dev --type full-access${dir}   # a token for scripts (printed once)`);
  lines.push(`  ${cmd} users create --email you@example.com --password 'change-me'${dir}   # an account that can log in`);
  return lines;
}
