// Who is calling: an API token, or nobody (the Public role). Gives an Ability; 401 for bad
// credentials. The 403 decision belongs to the route's permission check (behaviour.md §3.3).
import { UnauthorizedError } from '../errors.js';
import type { Ability } from './ability.js';
import type { ApiToken, ApiTokenService } from './api-tokens.js';
import { PUBLIC_ROLE, type RoleStore } from './roles.js';

export interface Caller {
  readonly kind: 'public' | 'api-token';
  readonly ability: Ability;
  readonly token?: ApiToken;
}

/** The bearer token of an Authorization header, or null when absent or malformed (treated as absent). */
export function bearer(header: string | undefined): string | null {
  if (!header) return null;
  const parts = header.trim().split(/\s+/);
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

export class Authenticator {
  constructor(private readonly tokens: ApiTokenService, private readonly roles: RoleStore) {}

  async authenticate(authorization: string | undefined): Promise<Caller> {
    const key = bearer(authorization);
    if (key !== null) {
      const token = await this.tokens.verify(key);
      if (token === 'expired') throw new UnauthorizedError('Token expired');
      if (token) return { kind: 'api-token', ability: tokenAbility(token), token };
      throw new UnauthorizedError('Missing or invalid credentials');
    }
    const actions = this.roles.actionsOfType(PUBLIC_ROLE);
    if (actions.size === 0) throw new UnauthorizedError('Missing or invalid credentials');
    return { kind: 'public', ability: { can: (a) => actions.has(a) } };
  }
}
