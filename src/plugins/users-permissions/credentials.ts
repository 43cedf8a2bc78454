// A user's access token → the user it may act as (the Authenticator's UserCredentials). In refresh
// mode only a session's access token counts, while its session stands; in legacy mode the `{id}` JWT.
import type { CallerUser, UserCredentials } from '../../auth/authenticate.js';
import type { UserTokens } from './jwt.js';
import type { Sessions } from './sessions.js';
import type { UserStates } from './user-state.js';

export function userCredentials(tokens: UserTokens, states: UserStates, requireConfirmed: () => boolean, sessions: Sessions | null = null): UserCredentials {
  return {
    async userOf(accessToken: string, mark: string | null): Promise<CallerUser | 'invalid' | 'refused'> {
      let id: number | null;
      let sessionId: string | undefined;
      if (sessions) {
        const claims = await sessions.access(accessToken, mark);
        id = claims?.userId ?? null;
        sessionId = claims?.sessionId;
      } else id = await tokens.userId(accessToken);
      if (id === null) return 'invalid';
      const state = await states.get(id, mark);
      if (!state || state.blocked || (requireConfirmed() && !state.confirmed)) return 'refused';
      return { id, roleId: state.roleId, ...(sessionId === undefined ? {} : { sessionId }) };
    },
  };
}
