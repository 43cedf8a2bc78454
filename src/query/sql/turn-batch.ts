// Loads asked for by the several loaders of one populate level arrive in the same turn of the event
// loop; gathered per read, they go out as one statement. On PostgreSQL each statement costs a round
// trip's protocol work on both sides and a transaction of its own on the server.

interface Asked<A, R> {
  readonly ask: A;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/**
 * Gathers the asks made for one read (`ctx`) in one turn and answers them from `run`: once for all,
 * or, when `size` says how many values an ask binds, once per run of asks within IDS_PER_STATEMENT.
 */
export class TurnBatches<C extends object, A, R> {
  private readonly pending = new WeakMap<C, Asked<A, R>[]>();

  /** `run` answers every ask it is given, in the order given */
  constructor(
    private readonly run: (ctx: C, asks: readonly A[]) => Promise<readonly R[]>,
    private readonly size?: (ask: A) => number,
  ) {}

  ask(ctx: C, ask: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let queue = this.pending.get(ctx);
      if (!queue) {
        const q: Asked<A, R>[] = [];
        this.pending.set(ctx, (queue = q));
        queueMicrotask(() => {
          this.pending.delete(ctx);
          const size = this.size;
          for (const part of size ? withinBindLimit(q, (a) => size(a.ask)) : [q]) {
            this.run(
              ctx,
              part.map((a) => a.ask),
            ).then(
              (results) => part.forEach((a, i) => a.resolve(results[i]!)),
              (e: unknown) => part.forEach((a) => a.reject(e)),
            );
          }
        });
      }
      queue.push({ ask, resolve, reject });
    });
  }
}

/**
 * The values one gathered statement may bind: each part of a UNION binds its own id list, so parts
 * together could pass what a database takes (SQLite 32,766, PostgreSQL 65,535) where each alone did not.
 */
export const IDS_PER_STATEMENT = 10_000;

/** `asks` in order, cut into runs whose `size`s add up to at most IDS_PER_STATEMENT (an ask larger alone is a run of its own) */
export function withinBindLimit<A>(asks: readonly A[], size: (ask: A) => number): A[][] {
  const runs: A[][] = [];
  let run: A[] = [];
  let total = 0;
  for (const a of asks) {
    const n = size(a);
    if (run.length > 0 && total + n > IDS_PER_STATEMENT) {
      runs.push(run);
      run = [];
      total = 0;
    }
    run.push(a);
    total += n;
  }
  if (run.length > 0) runs.push(run);
  return runs;
}
