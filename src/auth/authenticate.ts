// Who is calling: an API token, a user (by the access token login gave it), or nobody (the Public
// role). Gives an Ability; 401 for bad credentials. The 403 decision belongs to the route's
// permission check (behaviour.md §3.3).
import { UnauthorizedError } from '../errors.js';
import type { Ability } from './ability.js';
import type { ApiToken, ApiTokenService } from './api-tokens.js';
import { PUBLIC_ROLE, type RoleStore } from './roles.js';
import type { Database } from '../database/dialect.js';
import { requestMark } from './fresh.js';

/** The user behind a request: its row id and its role's row id (null: it has none). */
export interface CallerUser {
  readonly id: number;
  readonly roleId: number | null;
  /** the refresh-mode session its access token belongs to */
  readonly sessionId?: string;
}

export interface Caller {
  readonly kind: 'public' | 'api-token' | 'user';
  readonly ability: Ability;
  readonly token?: ApiToken;
  readonly user?: CallerUser;
  /** row id of the role whose permissions apply (Public for nobody, the user's role for a user) */
  readonly roleId?: number;
  /** the change mark read when the request began (null where the mark can't see other processes) */
  readonly mark: string | null;
}

/** How a user's access token becomes a user: 'invalid' when it isn't one, 'refused' when its user may not act. */
export interface UserCredentials {
  /** `mark`: the request's change mark (src/auth/fresh.ts) */
  userOf(accessToken: string, mark: string | null): Promise<CallerUser | 'invalid' | 'refused'>;
}

/** The bearer token of an Authorization header, or null when absent or malformed (treated as absent). */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  // Node has taken the spaces and tabs off the ends; anything else there (U+00A0) makes a third part, as in Strapi
  const parts = header.split(/\s+/);
  if (parts.length !== 2 || parts[0]!.toLowerCase() !== 'bearer') return null;
  return parts[1]!;
}

function readOnly(action: string): boolean {
  return action.endsWith('.find') || action.endsWith('.findOne');
}

export function tokenAbility(token: ApiToken): Ability {
  if (token.type === 'full-access') return { can: () => true };
  if (token.type === 'read-only') return { can: readOnly };
  const allowed = new Set(token.permissions);
  return { can: (a) => allowed.has(a) };
}

export function actionsAbility(actions: ReadonlySet<string>): Ability {
  return { can: (a) => actions.has(a) };
}

export class Authenticator {
  constructor(
    private readonly database: Database,
    private readonly tokens: ApiTokenService,
    private readonly roles: RoleStore,
    private readonly users: UserCredentials,
  ) {}

  async authenticate(authorization: string | undefined): Promise<Caller> {
    // one mark for every check of this request (and its cached read): on PostgreSQL each is a round trip
    const mark = await requestMark(this.database);
    const key = bearer(authorization);
    if (key !== null) {
      // API keys are hex; a user's access token is a JWT (three dot-separated parts)
      if (!key.includes('.')) {
        const token = await this.tokens.verify(key, mark);
        if (token === 'expired') throw new UnauthorizedError('Token expired');
        if (token) return { kind: 'api-token', ability: tokenAbility(token), token, mark };
        throw new UnauthorizedError('Missing or invalid credentials');
      }
      const user = await this.users.userOf(key, mark);
      if (user === 'invalid') throw new UnauthorizedError('Missing or invalid credentials');
      if (user === 'refused') throw new UnauthorizedError('Invalid credentials');
      // a user left without a role (a Strapi database where it was removed) is no caller at all, as Strapi 5.54 answers it
      if (user.roleId === null) throw new UnauthorizedError('Missing or invalid credentials');
      const view = await this.roles.view(mark);
      return { kind: 'user', ability: actionsAbility(view.actionsOfRole(user.roleId)), user, mark, roleId: user.roleId };
    }
    const view = await this.roles.view(mark);
    const actions = view.actionsOfType(PUBLIC_ROLE);
    if (actions.size === 0) throw new UnauthorizedError('Missing or invalid credentials');
    const roleId = view.roleId(PUBLIC_ROLE);
    return { kind: 'public', ability: actionsAbility(actions), mark, ...(roleId === undefined ? {} : { roleId }) };
  }
}
