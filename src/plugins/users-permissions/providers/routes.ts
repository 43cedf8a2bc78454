// Third-party login (behaviour.md §10.8, Strapi 5.54's flow): /connect/:provider sends the browser to
// the provider with a state, /connect/:provider/callback checks that state and trades the code for
// tokens, then sends the browser to the front end without any token in its URL; the front end asks
// /auth/:provider/callback, with the same cookie, for the login: `{jwt, user}` as local login answers.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ArcticFetchError, OAuth2RequestError, UnexpectedErrorResponseBodyError, UnexpectedResponseError } from 'arctic';
import { ApplicationError, FolioError, NotFoundError, ValidationError } from '../../../errors.js';
import { authorize } from '../../../http/authorize.js';
import { sendJson } from '../../../http/send-json.js';
import { UP, type UpContext } from '../context.js';
import { authResponse } from '../auth-response.js';
import { redirect } from '../../../http/redirect.js';
import { clientOf } from './clients.js';
import { FLOW_LIFETIME_MS, type ProviderFlows } from './flows.js';
import { providerAccount } from './accounts.js';
import type { ProviderSettings } from './settings.js';
import { str } from './http.js';

export const FLOW_COOKIE = 'folio_oauth';
/** what the profile readers use of the token answer: the rest (refresh tokens…) is never stored */
const KEPT_TOKEN_FIELDS = ['access_token', 'id_token', 'email', 'user_id'];

function messageOf(e: unknown): string {
  if (e instanceof OAuth2RequestError) return e.description ?? e.code;
  if (e instanceof UnexpectedResponseError || e instanceof UnexpectedErrorResponseBodyError) return `Token exchange failed (${e.status})`;
  if (e instanceof ArcticFetchError) return 'Token exchange failed: the provider could not be reached';
  if (e instanceof Error && e.name === 'TimeoutError') return 'The provider did not answer in time';
  return e instanceof Error && e.message ? e.message : 'Provider login failed';
}

/** the front-end URL with exactly these query parameters (Strapi drops the configured ones too) */
function withQuery(url: string, params: Readonly<Record<string, string | undefined>>): string {
  const u = new URL(url);
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.set(k, v);
  u.search = q.toString();
  return u.toString();
}

/** Strapi's rule for `?callback=`: same origin and path as the configured one; the query may differ */
function sameTarget(candidate: string, configured: string): boolean {
  if (!URL.canParse(candidate)) return false;
  const a = new URL(candidate);
  const b = new URL(configured);
  return a.origin === b.origin && a.pathname === b.pathname;
}

const queryString = (req: FastifyRequest, key: string): string | undefined => {
  const v = (req.query as Record<string, unknown>)[key];
  return typeof v === 'string' ? v : undefined;
};

export function registerProviderRoutes(app: FastifyInstance, up: UpContext, providers: ReadonlyMap<string, ProviderSettings>, flows: ProviderFlows): void {
  const { services } = up;
  const prefix = services.config.rest.prefix;
  const redirectUri = (name: string): string => `${services.config.publicUrl}${prefix}/connect/${name}/callback`;
  const cookieOptions = { httpOnly: true, signed: true, sameSite: 'lax' as const, path: prefix || '/', secure: services.config.env === 'production' };

  const enabled = (req: FastifyRequest): ProviderSettings => {
    const s = providers.get((req.params as { provider: string }).provider);
    if (s === undefined) throw new ApplicationError('This provider is disabled');
    return s;
  };
  const flowIdOf = (req: FastifyRequest): string | undefined => {
    const raw = req.cookies[FLOW_COOKIE];
    if (raw === undefined || raw === '') return undefined;
    const r = req.unsignCookie(raw);
    return r.valid && r.value !== null ? r.value : undefined;
  };
  const endFlow = (reply: FastifyReply): void => {
    reply.clearCookie(FLOW_COOKIE, cookieOptions);
  };

  app.get(`${prefix}/connect/:provider`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.connect`);
    const s = enabled(req);
    const asked = (req.query as Record<string, unknown>)['callback'];
    let callback = s.callback;
    if (asked !== undefined) {
      if (typeof asked !== 'string' || !sameTarget(asked, s.callback)) throw new ValidationError('Invalid callback URL provided', { callback: asked });
      callback = asked;
    }
    const flow = await flows.start(s.name, callback);
    reply.setCookie(FLOW_COOKIE, flow.flowId, { ...cookieOptions, maxAge: FLOW_LIFETIME_MS / 1000 });
    return redirect(req, reply, clientOf(s, redirectUri(s.name)).authorizationURL(flow.state, flow.codeVerifier).toString());
  });

  // Strapi's connect route is `/connect/(.*)`: no provider, or a path below one that is not enabled, is
  // its 400 rather than a 404
  const belowConnect = async (req: FastifyRequest): Promise<never> => {
    await authorize(services, req, `${UP}.auth.connect`);
    enabled(req);
    throw new NotFoundError('Not Found');
  };
  app.get(`${prefix}/connect/`, belowConnect);
  app.get(`${prefix}/connect/:provider/*`, belowConnect);

  app.get(`${prefix}/connect/:provider/callback`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.connect`);
    const s = enabled(req);
    const found = await flows.get(flowIdOf(req));
    const flow = found?.provider === s.name ? found : undefined;
    const callback = flow?.callback ?? s.callback;
    const fail = async (error: string, description: string | undefined): Promise<FastifyReply> => {
      if (flow) await flows.discard(flow.flowId);
      endFlow(reply);
      return redirect(req, reply, withQuery(callback, { error, error_description: description }));
    };
    const error = queryString(req, 'error');
    if (error !== undefined) return fail(error, queryString(req, 'error_description'));
    try {
      const code = queryString(req, 'code');
      if (!code) throw new Error('OAuth2 missing code parameter');
      // a missing flow is refused like a wrong state: a callback this browser didn't start is login CSRF
      // a flow that already came back once is over: a replayed callback URL (code and state) signs nobody in
      if (!flow || flow.tokens !== null || queryString(req, 'state') !== flow.state) throw new Error('OAuth2 state mismatch');
      const tokens = await clientOf(s, redirectUri(s.name)).exchange(code, flow.codeVerifier);
      const data = tokens.data as Record<string, unknown>;
      const kept = Object.fromEntries(KEPT_TOKEN_FIELDS.filter((k) => Object.hasOwn(data, k)).map((k) => [k, data[k]]));
      if (!(await flows.complete(flow, kept))) throw new Error('OAuth2 state mismatch');
      return redirect(req, reply, withQuery(callback, {}));
    } catch (e) {
      return fail('oauth_error', messageOf(e));
    }
  });

  app.get(`${prefix}/auth/:provider/callback`, async (req, reply) => {
    await authorize(services, req, `${UP}.auth.callback`);
    const s = enabled(req);
    const flow = await flows.consume(flowIdOf(req), s.name);
    endFlow(reply);
    if (!flow?.tokens) throw new ApplicationError('OAuth authentication requires a completed provider session');
    let userId: number;
    try {
      const profile = await s.def.profile({ settings: s, api: s.apiUrl ?? s.def.api(s), accessToken: str(flow.tokens['access_token']), tokenResponse: flow.tokens });
      userId = await providerAccount(up, s.name, profile);
    } catch (e) {
      // Strapi answers every failure here as a 400 with its message
      if (e instanceof FolioError && !(e instanceof ApplicationError)) throw e;
      throw new ApplicationError(messageOf(e));
    }
    const row = await up.users.rowWhere({ column: 'id', value: userId });
    if (!row || row.blocked) throw new ApplicationError('Your account has been blocked by an administrator');
    return sendJson(reply, await authResponse(up, userId, req, reply));
  });
}
