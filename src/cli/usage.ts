// How the command is called: the help text, the options each command takes, and the error for a
// call that doesn't fit (printed with the usage, exit code 2).

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export const HELP = `Usage: folio <command> [options]

Commands:
  start [--port N] [--host H] [--workers N]    serve the project
  develop [--port N] [--host H]                serve, and restart when a schema file changes
  api-token create --name N --type read-only|full-access|custom
                   [--permissions a,b] [--lifespan DAYS] [--description D] [--json]
                                               create a token; prints its access key once
  api-token list [--json]                      list tokens (never their keys)
  api-token revoke NAME|ID                     delete a token
  locales list [--json]                        list the locales documents can be written in
  locales add CODE [--name NAME] [--default]   add a locale (--default on one there is: make it the default)
  locales remove CODE [--delete-documents]     remove a locale (not the default one); refused while
                                               documents have a version in it, unless that flag
                                               deletes those versions too
  permissions list [ROLE] [--all] [--json]     the roles and the actions each may run (--all: every action)
  permissions grant ROLE ACTION...             let a role (public, authenticated, …) run actions, e.g.
                                               public api::article.article.find api::article.article.findOne
                                               (ACTION may end in .* for all of a controller's actions)
  permissions revoke ROLE ACTION...            take actions away from a role
  users create --email E --password P [--username U] [--role TYPE] [--data JSON] [--json]
                                               create a confirmed user (default role: authenticated);
                                               --data: the user's other attributes, e.g. '{"phone":"555"}'

Options:
  --dir PATH     the project folder (default: the current folder)
  --help         show this help
  --version      show Folio's version`;

export const OPTIONS = {
  dir: { type: 'string' },
  port: { type: 'string' },
  host: { type: 'string' },
  workers: { type: 'string' },
  name: { type: 'string' },
  type: { type: 'string' },
  permissions: { type: 'string' },
  lifespan: { type: 'string' },
  description: { type: 'string' },
  json: { type: 'boolean' },
  all: { type: 'boolean' },
  email: { type: 'string' },
  password: { type: 'string' },
  username: { type: 'string' },
  role: { type: 'string' },
  data: { type: 'string' },
  default: { type: 'boolean' },
  'delete-documents': { type: 'boolean' },
  help: { type: 'boolean' },
  version: { type: 'boolean' },
} as const;

export type Flags = Partial<Record<keyof typeof OPTIONS, string | boolean>>;

/** Options each command (and subcommand) accepts besides --dir; anything else is a usage error. */
const ACCEPTS: Readonly<Record<string, readonly (keyof typeof OPTIONS)[]>> = {
  start: ['port', 'host', 'workers'],
  develop: ['port', 'host'],
  'api-token create': ['name', 'type', 'permissions', 'lifespan', 'description', 'json'],
  'api-token list': ['json'],
  'api-token revoke': [],
  'locales list': ['json'],
  'locales add': ['name', 'default'],
  'locales remove': ['delete-documents'],
  'permissions list': ['all', 'json'],
  'permissions grant': [],
  'permissions revoke': [],
  'users create': ['email', 'password', 'username', 'role', 'data', 'json'],
};

/** Throws a UsageError for an option the command doesn't take. */
export function checkOptions(command: string, values: Flags): void {
  const accepted = ACCEPTS[command];
  if (!accepted) return;
  for (const key of Object.keys(values) as (keyof typeof OPTIONS)[]) {
    if (key !== 'dir' && values[key] !== undefined && !accepted.includes(key)) throw new UsageError(`folio ${command} does not take --${key}`);
  }
}

/** Throws a UsageError when more positional arguments were given than the command takes. */
export function checkArgs(command: string, args: readonly string[], max: number): void {
  if (args.length > max) throw new UsageError(`folio ${command}: unexpected argument "${args[max]}"`);
}

export function flag(values: Flags, name: keyof typeof OPTIONS): string | undefined {
  const v = values[name];
  return typeof v === 'string' ? v : undefined;
}

/** A whole-number option, or undefined when absent. */
export function numberFlag(values: Flags, name: keyof typeof OPTIONS, max = Number.MAX_SAFE_INTEGER): number | undefined {
  const v = flag(values, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v) || Number(v) > max) throw new UsageError(`--${name} takes a whole number${max < Number.MAX_SAFE_INTEGER ? ` up to ${max}` : ''}, got "${v}"`);
  return Number(v);
}
