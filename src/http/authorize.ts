// The one permission check every route asks before any work: who calls, and may it run this action.
import type { FastifyRequest } from 'fastify';
import { ForbiddenError } from '../errors.js';
import type { Caller } from '../auth/authenticate.js';
import type { Services } from './services.js';

export async function authorize(services: Services, req: FastifyRequest, action: string): Promise<Caller> {
  const caller = await services.authenticator.authenticate(req.headers.authorization);
  if (!caller.ability.can(action)) throw new ForbiddenError('Forbidden');
  return caller;
}
