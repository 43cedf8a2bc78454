// What a successful login, registration, password change or provider callback answers: an access token
// and the user as login shows it (public fields, no role). The one place refresh mode will add its
// refresh token (or cookie) to every such answer.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ALLOW_ALL } from '../../auth/ability.js';
import type { UpContext } from './context.js';

export async function authResponse(up: UpContext, userId: number, _req: FastifyRequest, _reply: FastifyReply): Promise<Record<string, unknown>> {
  return { jwt: await up.tokens.issue(userId), user: await up.users.view(userId, ALLOW_ALL) };
}
