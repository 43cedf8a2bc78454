// A connection of the test's own to a project's PostgreSQL or MySQL database, through the driver
// itself: another client holding locks or a transaction open while Folio works on the same database.

export interface RawSession {
  /** the rows of one statement */
  query(statement: string): Promise<Record<string, unknown>[]>;
  end(): Promise<void>;
}

/** `env`: a project's DATABASE_* variables (PostgreSQL or MySQL) */
export async function rawSession(env: Record<string, string>): Promise<RawSession> {
  const client = env['DATABASE_CLIENT'];
  if (client !== 'postgres' && client !== 'mysql') throw new Error(`no server to connect to on ${client}`);
  const conn = {
    host: env['DATABASE_HOST'],
    port: Number(env['DATABASE_PORT']),
    user: env['DATABASE_USERNAME'],
    password: env['DATABASE_PASSWORD'],
    database: env['DATABASE_NAME'],
  };
  if (client === 'postgres') {
    const pg = (await import('pg')).default;
    const c = new pg.Client(conn);
    await c.connect();
    return { query: async (s) => (await c.query(s)).rows as Record<string, unknown>[], end: () => c.end() };
  }
  const mysql = await import('mysql2/promise');
  const c = await mysql.createConnection(conn);
  return { query: async (s) => (await c.query(s))[0] as Record<string, unknown>[], end: () => c.end() };
}
