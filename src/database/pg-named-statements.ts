// PostgreSQL parses and plans an unnamed statement on every execution. Folio's reads are a few dozen
// fixed SQL texts with varying parameters, so each text gets a name the first time it runs on a
// connection (one Parse there) and later runs send only Bind/Execute; the server also keeps a
// generic plan once it finds one no worse than the custom ones. Names are per text and shared by
// the pool's connections (pg remembers per connection which it has parsed). Texts beyond the limit
// run unnamed, so a stream of distinct texts (filters with long IN lists) can't grow every backend's
// memory without bound.
import type { Pool, PoolClient, QueryResult } from 'pg';
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';

const NAMEABLE = /^\s*(select|insert|update|delete|with)\b/i;
// a prepared `select *` fails once a column is added to its table ("cached plan must not change
// result type"), as a project's schema sync may do while connections stay open
const STAR = /\bselect\s+(?:"[^"]*"\.)?\*/i;

export class StatementNames {
  readonly #names = new Map<string, string>();
  constructor(readonly limit: number) {}

  /** The statement's name, or undefined to run it unnamed (not a plain DML text, or past the limit). */
  nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known !== undefined) return known;
    if (this.#names.size >= this.limit || !NAMEABLE.test(text) || STAR.test(text)) return undefined;
    const name = `folio_${this.#names.size.toString(36)}`;
    this.#names.set(text, name);
    return name;
  }
}

function namingClient(client: PoolClient, names: StatementNames): PostgresPoolClient {
  function query<R>(sql: string, parameters: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>>;
  function query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  function query<R>(what: string | PostgresCursor<R>, parameters?: ReadonlyArray<unknown>): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof what !== 'string') return (client as unknown as PostgresPoolClient).query(what);
    const name = names.nameOf(what);
    const values = parameters ? [...parameters] : [];
    const result: Promise<QueryResult> = name === undefined ? client.query(what, values) : client.query({ name, text: what, values });
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }
  return { query, release: () => client.release() };
}

/** The pool as Kysely sees it, each client naming the statements it runs. */
export function namedStatementPool(pool: Pool, names: StatementNames): PostgresPool {
  // one wrapper per pg client, so Kysely's own per-client connection cache keeps hitting
  const wrapped = new WeakMap<PoolClient, PostgresPoolClient>();
  return {
    async connect() {
      const client = await pool.connect();
      let own = wrapped.get(client);
      if (own === undefined) {
        own = namingClient(client, names);
        wrapped.set(client, own);
      }
      return own;
    },
    end: () => pool.end(),
  };
}
