// Writes that don't depend on one another (clearing a row's children, linking copied ones) go to
// the database together where the dialect allows: on PostgreSQL as one statement whose data-modifying
// WITH clauses each carry one write, so publishing costs one round trip instead of one per table.
// There every write sees the rows as they were before the statement, none seeing another's changes;
// elsewhere they run one by one in the order given. A batch must mean the same either way: deleting
// existing rows and then inserting new ones does; an insert copying rows another write adds does not.
import { sql, type DeleteQueryBuilder, type InsertQueryBuilder, type UpdateQueryBuilder } from 'kysely';
import { MAX_PARAMETERS, type Store } from './store.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- table shapes come from the model at run time */
export type Write = DeleteQueryBuilder<any, any, any> | InsertQueryBuilder<any, any, any> | UpdateQueryBuilder<any, any, any, any>;
/* eslint-enable @typescript-eslint/no-explicit-any */

/** Runs the writes in the order given, or all at once where the dialect can. */
export async function runWrites(s: Store, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1 || !s.dialect.writesInOneStatement) {
    for (const w of writes) await w.execute();
    return;
  }
  await runTogether(s, writes);
}

// writes one statement carries at most: PostgreSQL's time to bind a statement's parameters grows with the
// square of its clauses (10,000 one-row UPDATEs: 8 s in one statement, 29 ms with literal values)
const WRITES_PER_STATEMENT = 200;

async function runTogether(s: Store, writes: readonly Write[]): Promise<void> {
  if (writes.length === 1) {
    await writes[0]!.execute();
    return;
  }
  if (writes.length > WRITES_PER_STATEMENT) {
    for (let from = 0; from < writes.length; from += WRITES_PER_STATEMENT) await runTogether(s, writes.slice(from, from + WRITES_PER_STATEMENT));
    return;
  }
  // PostgreSQL runs the main statement first, then the WITH clauses last one first: the first write
  // is the main one and the others are named in reverse, so rows are inserted (and numbered) in the
  // order given, as on the other dialects (a file's `related` lists links by number among equals)
  const head = writes
    .slice(1)
    .reverse()
    .map((w, i) => sql`${sql.id(`w${i}`)} as (${w})`);
  const statement = sql`with ${sql.join(head)} ${writes[0]!}`.compile(s.tx);
  if (statement.parameters.length <= MAX_PARAMETERS) {
    await s.tx.executeQuery(statement);
    return;
  }
  // one statement binds at most so many parameters: long id lists split the batch
  const half = Math.ceil(writes.length / 2);
  await runTogether(s, writes.slice(0, half));
  await runTogether(s, writes.slice(half));
}
