// Provider logins in progress, in the database, so the browser may come back from the provider to any
// Folio process on it. Strapi keeps the same in a signed session cookie; here the cookie only names
// the row, so no provider token ever travels to the browser, and the row is spent by the login that
// uses it: a copied cookie can't sign in twice.
import { randomBytes } from 'node:crypto';
import { generateCodeVerifier, generateState } from 'arctic';
import type { Database } from '../../../database/dialect.js';

const TABLE = 'folio_oauth_flows';
/** how long a browser may spend at the provider's login page, and then before it asks for its login */
export const FLOW_LIFETIME_MS = 60 * 60 * 1000;
const SWEEP_EVERY_MS = 60_000;
const FLOW_ID = /^[0-9a-f]{48}$/;

export interface Flow {
  readonly flowId: string;
  readonly provider: string;
  readonly state: string;
  readonly codeVerifier: string;
  /** the front-end page the browser returns to */
  readonly callback: string;
  /** the provider's token answer once the code was exchanged; null while at the provider */
  readonly tokens: Readonly<Record<string, unknown>> | null;
}

function toFlow(r: Record<string, unknown>): Flow {
  const tokens = r['tokens'] === null || r['tokens'] === undefined ? null : (JSON.parse(String(r['tokens'])) as Record<string, unknown>);
  return {
    flowId: String(r['flow_id']),
    provider: String(r['provider']),
    state: String(r['state']),
    codeVerifier: String(r['code_verifier']),
    callback: String(r['callback']),
    tokens,
  };
}

export class ProviderFlows {
  private nextSweep = 0;

  constructor(private readonly database: Database) {}

  async start(provider: string, callback: string, now = Date.now()): Promise<Flow> {
    const flow: Flow = { flowId: randomBytes(24).toString('hex'), provider, state: generateState(), codeVerifier: generateCodeVerifier(), callback, tokens: null };
    await this.database.db
      .insertInto(TABLE)
      .values({ flow_id: flow.flowId, provider, state: flow.state, code_verifier: flow.codeVerifier, callback, tokens: null, expires_at: now + FLOW_LIFETIME_MS })
      .execute();
    this.sweep(now);
    return flow;
  }

  /** the live flow a cookie names, or undefined */
  async get(flowId: string | undefined, now = Date.now()): Promise<Flow | undefined> {
    if (flowId === undefined || !FLOW_ID.test(flowId)) return undefined;
    const r = await this.database.db.selectFrom(TABLE).selectAll().where('flow_id', '=', flowId).where('expires_at', '>', now).executeTakeFirst();
    return r ? toFlow(r as Record<string, unknown>) : undefined;
  }

  /** Records the provider's tokens; false when the flow was completed or ended meanwhile (a replayed callback). */
  async complete(flow: Flow, tokens: Readonly<Record<string, unknown>>): Promise<boolean> {
    const r = await this.database.db
      .updateTable(TABLE)
      .set({ tokens: JSON.stringify(tokens) })
      .where('flow_id', '=', flow.flowId)
      .where('tokens', 'is', null)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async discard(flowId: string): Promise<void> {
    await this.database.db.deleteFrom(TABLE).where('flow_id', '=', flowId).execute();
  }

  /** Spends a completed flow: of two requests with one cookie, one gets it. */
  async consume(flowId: string | undefined, provider: string, now = Date.now()): Promise<Flow | undefined> {
    const flow = await this.get(flowId, now);
    if (!flow || flow.tokens === null || flow.provider !== provider) return undefined;
    const r = await this.database.db.deleteFrom(TABLE).where('flow_id', '=', flow.flowId).where('tokens', 'is not', null).executeTakeFirst();
    return Number(r.numDeletedRows) === 1 ? flow : undefined;
  }

  /** Deletes flows that ended, at most once a minute per process, off the request's path. */
  private sweep(now: number): void {
    if (now < this.nextSweep) return;
    this.nextSweep = now + SWEEP_EVERY_MS;
    void this.database.db
      .deleteFrom(TABLE)
      .where('expires_at', '<=', now)
      .execute()
      .catch(() => undefined); // the next sweep deletes them
  }
}
