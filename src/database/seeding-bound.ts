// Start-up's seeding (roles, locales) is no request: a process waiting for another's seeding may wait
// longer than config/database statement_timeout allows a request, as the schema sync may (sync.ts). The
// bound is lifted for the seeding's own transaction only; the connection has it back at commit.
import type { Database } from './dialect.js';

export async function liftBoundForSeeding(database: Database, tx: Database['db']): Promise<void> {
  const bound = database.dialect.statementBound;
  if (bound) await bound.liftInTransaction.execute(tx);
}
