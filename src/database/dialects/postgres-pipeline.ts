// PostgreSQL reads outside transactions go through a few pipelined connections (pg's `pipeline`
// mode: a statement is sent without waiting for the one before it to be answered), and the
// statements sent in one turn of the event loop leave in one write. Profiled under load (findOne with
// populate=*, 15 statements), a third of Folio's CPU was the `writev` system call pg makes once per
// statement on its own pooled connection; a populate level's statements, sent together, share one.
// Reads that must see a transaction's own writes run on that transaction's pooled connection as before.
// Each text runs as a named prepared statement (postgres-statement-names.ts).
import type pg from 'pg';
import { RowBuilders } from '../row-builder.js';
import { plannedPerValue, PreparedOnConnection, StatementNames } from './postgres-statement-names.js';
import { withArrayLiterals } from './postgres-array-literal.js';

type Client = pg.Client;
type QueryResult = pg.QueryResult<Record<string, unknown>>;

/** the application_name of the pipelined connections, as pg_stat_activity shows them */
export const PIPELINED_READS_NAME = 'folio reads';
/** the application_name of the connection for caller checks (connect.ts) */
export const PIPELINED_CHECKS_NAME = 'folio checks';

// discard and deallocate would drop the prepared statements pg believes the connection holds
const SESSION_STATEMENT = /^\s*(?:begin|start\s+transaction|commit|rollback|savepoint|release|set|reset|lock|listen|prepare|declare|discard|deallocate)\b/i;

/** the socket under a pg client (not in its typings: pg corks it around each statement it sends) */
const socketOf = (client: Client): { cork(): void; uncork(): void } => (client as unknown as { connection: { stream: { cork(): void; uncork(): void } } }).connection.stream;

/**
 * When a read connection is replaced by a fresh one. `statements`: a backend keeps every statement
 * prepared on it. `ageMs`: PostgreSQL plans a prepared statement once for all values (a generic plan,
 * which is where its saving comes from: a custom plan per run cost as much as an unnamed statement) and
 * keeps that plan until the table's statistics change; a plan made while a table was nearly empty
 * (a seq scan) must not serve it for long after it has grown, even on a server whose autovacuum is off.
 */
export interface ReadConnectionLimits {
  readonly statements: number;
  readonly ageMs: number;
  /**
   * false: statements are sent unnamed (parsed and planned every time), for a pooler that does not keep
   * a client's prepared statements across its transactions (PgBouncer in transaction mode before 1.21)
   */
  readonly prepared: boolean;
}

export const READ_CONNECTION_LIMITS: ReadConnectionLimits = { statements: 500, ageMs: 60_000, prepared: true };

interface Slot {
  client: Client | undefined;
  opening: Promise<Client> | undefined;
  /** the statements prepared on `client` */
  prepared: PreparedOnConnection;
  /** when `client` was opened (Date.now()) */
  openedAt: number;
  /** the last statement sent on `client`: its answer comes after every earlier one's */
  last: Promise<unknown>;
  /** statements sent and not yet answered */
  pending: number;
}

/** What Kysely's PostgresDialect needs of a pool: clients to query, released after each statement. */
export interface PoolLike {
  connect(): Promise<{ query(text: string, values: unknown[]): Promise<QueryResult>; release(): void }>;
  end(): Promise<void>;
}

export class PipelinedReads {
  private readonly slots: Slot[];
  /** the slot this turn's statements go to (null until the turn's first statement chooses it) */
  private turn: number | null = null;
  /** the slot the last turn used: a tie among the least busy goes to the one after it */
  private lastTurn = -1;
  /** clients whose socket is corked until the end of this turn */
  private readonly corked: Client[] = [];
  private ended = false;
  private readonly names: StatementNames;
  private readonly rows = new RowBuilders();

  constructor(
    private readonly open: () => Client,
    size: number,
    private readonly onError: (error: Error) => void,
    private readonly limits: ReadConnectionLimits = READ_CONNECTION_LIMITS,
  ) {
    this.names = new StatementNames(limits.statements);
    this.slots = Array.from({ length: Math.max(1, size) }, () => ({
      client: undefined,
      opening: undefined,
      prepared: new PreparedOnConnection(limits.statements),
      openedAt: 0,
      last: Promise.resolve(),
      pending: 0,
    }));
  }

  /** a pool for Kysely: one client object whose statements are spread over the pipelined connections */
  pool(): PoolLike {
    const client = { query: (text: string, values: unknown[]) => this.query(text, values), release: () => {} };
    return { connect: async () => client, end: () => this.end() };
  }

  private query(text: string, values: unknown[]): Promise<QueryResult> {
    if (this.ended) return Promise.reject(new Error('the database connection is closed'));
    // the connections are shared by every read in flight: a transaction or session setting would leak into them
    if (SESSION_STATEMENT.test(text)) return Promise.reject(new Error(`not run on a shared read connection: ${text.slice(0, 40)}`));
    const slot = this.slots[this.turnSlot()]!;
    // unnamed (limits.prepared false, or a bound LIKE pattern): PostgreSQL parses and plans it every time
    const name = this.limits.prepared && !plannedPerValue(text) ? this.names.nameOf(text) : undefined;
    const client = slot.client;
    if (client !== undefined && Date.now() - slot.openedAt <= this.limits.ageMs && (name === undefined || slot.prepared.admit(name))) {
      this.cork(client);
      return this.send(slot, client, text, values, name);
    }
    if (client !== undefined) this.retire(slot, client);
    return this.connected(slot).then((c) => {
      if (name !== undefined) slot.prepared.admit(name);
      return this.send(slot, c, text, values, name);
    });
  }

  /**
   * The slot of this turn's statements: the one with the fewest unanswered, chosen at the turn's first
   * statement. A connection answers in the order it was sent to, so a statement queued behind a slow one
   * waits for it: taken in turn regardless, one 30 s read held up every other read sent to its connection.
   */
  private turnSlot(): number {
    if (this.turn !== null) return this.turn;
    let best = (this.lastTurn + 1) % this.slots.length;
    for (let k = 1; k < this.slots.length; k++) {
      const i = (this.lastTurn + 1 + k) % this.slots.length;
      if (this.slots[i]!.pending < this.slots[best]!.pending) best = i;
    }
    this.turn = best;
    this.lastTurn = best;
    process.nextTick(() => {
      this.turn = null;
    });
    return best;
  }

  private send(slot: Slot, client: Client, text: string, values: unknown[], name: string | undefined): Promise<QueryResult> {
    // array rows made into objects here: pg's object rows are built by a keyed store per column
    const sent = withArrayLiterals(values);
    const answer = client.query<unknown[]>(name === undefined ? { text, values: sent, rowMode: 'array' } : { name, text, values: sent, rowMode: 'array' });
    slot.last = answer;
    slot.pending++;
    const answered = (): void => {
      slot.pending--;
    };
    answer.then(answered, answered);
    return answer.then((r) => this.asObjects(r));
  }

  private asObjects(result: pg.QueryResult<unknown[]>): QueryResult {
    const arrays = result.rows;
    const rows = new Array<Record<string, unknown>>(arrays.length);
    if (arrays.length > 0) {
      const build = this.rows.for(result.fields.map((f) => f.name));
      for (let i = 0; i < arrays.length; i++) rows[i] = build(arrays[i]!);
    }
    const objects = result as unknown as QueryResult;
    objects.rows = rows;
    return objects;
  }

  /** takes a connection past its limits out of use, and closes it once its statements are answered */
  private retire(slot: Slot, client: Client): void {
    slot.client = undefined;
    const close = (): void => void client.end().catch(() => {});
    slot.last.then(close, close);
  }

  /** holds the client's writes until the end of this turn, so the statements sent meanwhile leave together */
  private cork(client: Client): void {
    if (this.corked.includes(client)) return;
    socketOf(client).cork();
    if (this.corked.push(client) > 1) return;
    process.nextTick(() => {
      for (const c of this.corked.splice(0)) socketOf(c).uncork();
    });
  }

  private connected(slot: Slot): Promise<Client> {
    if (slot.opening) return slot.opening;
    const client = this.open();
    // node-postgres emits two errors for a terminated backend (the server's message, then "Connection
    // terminated unexpectedly"): the connection is reported once
    let reported = false;
    const forget = (error?: Error): void => {
      if (slot.client === client) slot.client = undefined;
      if (!error || this.ended || reported) return;
      reported = true;
      this.onError(error);
    };
    // a lost connection (server restart, terminated backend) fails the statements sent on it; the
    // next statement opens a new one
    client.on('error', forget);
    client.on('end', () => forget());
    slot.opening = client.connect().then(
      () => {
        slot.opening = undefined;
        slot.client = client;
        slot.prepared = new PreparedOnConnection(this.limits.statements);
        slot.openedAt = Date.now();
        return client;
      },
      (e: unknown) => {
        slot.opening = undefined;
        throw e;
      },
    );
    return slot.opening;
  }

  private async end(): Promise<void> {
    this.ended = true;
    await Promise.all(
      this.slots.map(async (s) => {
        const c = s.client ?? (await s.opening?.catch(() => undefined));
        s.client = undefined;
        await c?.end().catch(() => {});
      }),
    );
  }
}
