// A user's access token → the user it may act as (the Authenticator's UserCredentials).
import type { CallerUser, UserCredentials } from '../../auth/authenticate.js';
import type { UserTokens } from './jwt.js';
import type { UserStates } from './user-state.js';

export function userCredentials(tokens: UserTokens, states: UserStates, requireConfirmed: () => boolean): UserCredentials {
  return {
    async userOf(accessToken: string, mark: string | null): Promise<CallerUser | 'invalid' | 'refused'> {
      const id = await tokens.userId(accessToken);
      if (id === null) return 'invalid';
      const state = await states.get(id, mark);
      if (!state || state.blocked || (requireConfirmed() && !state.confirmed)) return 'refused';
      return { id, roleId: state.roleId };
    },
  };
}
