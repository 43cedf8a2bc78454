// folio users create --email E --password P [--username U] [--role TYPE] [--data JSON] [--json]: a confirmed
// account, written through the same checks as POST /api/users (validation, unique username/email,
// bcrypt), for a project without an admin panel.
import { createApp } from '../app.js';
import { loadConfig } from '../config/load-config.js';
import { ALLOW_ALL } from '../auth/ability.js';
import { ApplicationError, ValidationError } from '../errors.js';
import { accountTaken } from '../plugins/users-permissions/users.js';
import type { Tx } from '../documents/store/store.js';
import { checkProjectDir } from './project-dir.js';
import { announce } from './report.js';
import { checkArgs, checkOptions, flag, UsageError, type Flags } from './usage.js';

/** what the command sets itself: --data may not give these */
const OWN_KEYS: ReadonlySet<string> = new Set(['email', 'password', 'username', 'role', 'provider', 'confirmed', 'blocked']);

/** `--data`: the other attributes of the account (a user extension's required ones), as a JSON object */
function extraAttributes(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch (e) {
    throw new UsageError(`users create --data must be a JSON object of attributes: ${(e as Error).message}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new UsageError('users create --data must be a JSON object of attributes, e.g. \'{"phone":"555"}\'');
  const own = Object.keys(data).find((k) => OWN_KEYS.has(k));
  if (own !== undefined)
    throw new UsageError(`users create --data may not set "${own}"${['email', 'password', 'username', 'role'].includes(own) ? `: use --${own}` : ': the command sets it'}`);
  return data as Record<string, unknown>;
}

export async function runUsers(dir: string, args: readonly string[], values: Flags): Promise<number> {
  const [sub, ...rest] = args;
  if (sub !== 'create') throw new UsageError(sub ? `users: unknown subcommand "${sub}"` : 'users needs a subcommand: create');
  checkOptions('users create', values);
  checkArgs('users create', rest, 0);
  const email = flag(values, 'email');
  const password = flag(values, 'password');
  if (!email || !password) throw new UsageError('users create needs --email and --password');
  const extra = extraAttributes(flag(values, 'data'));
  checkProjectDir(dir);
  const loaded = await loadConfig(dir);
  announce(loaded, (line) => console.error(line));
  const app = await createApp({ ...loaded.config, logger: false });
  try {
    const { users } = app.usersPermissions;
    const type = flag(values, 'role') ?? app.config.usersPermissions.advanced.default_role;
    const role = await users.roleIdOfType(type);
    if (role === undefined) throw new ApplicationError(`No role of type "${type}"`);
    const values_ = {
      ...extra,
      username: flag(values, 'username') ?? email.toLowerCase().split('@')[0],
      email: email.toLowerCase(),
      password,
      provider: 'local',
      confirmed: true,
      blocked: false,
      role,
    };
    // a username made from the email is named in its errors: the one who ran the command never typed it
    const derived = flag(values, 'username') === undefined;
    const fromEmail = (message: string): string => (derived ? `${message} (username "${values_.username}" is the email's first part; pass --username)` : message);
    const taken = async (tx: Tx): Promise<void> => {
      if (await accountTaken(tx, values_.email, values_.username!, app.config.usersPermissions.advanced.unique_email))
        throw new ApplicationError(fromEmail('Email or Username are already taken'));
    };
    try {
      users.validatePlain(values_, true);
    } catch (e) {
      if (derived && e instanceof ValidationError && e.message.startsWith('username ')) throw new ValidationError(fromEmail(e.message));
      throw e;
    }
    const id = await users.write(values_, null, taken);
    const user = await users.view(id, ALLOW_ALL, { populate: 'role' });
    console.log(values.json ? JSON.stringify(user) : `Created user ${values_.username} <${values_.email}> (id ${id}) with role ${type}`);
    return 0;
  } finally {
    await app.close();
  }
}
