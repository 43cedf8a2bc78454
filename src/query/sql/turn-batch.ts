// Loads asked for by the several loaders of one populate level arrive in the same turn of the event
// loop; gathered per read, they go out as one statement. On PostgreSQL each statement costs a round
// trip's protocol work on both sides and a transaction of its own on the server.

interface Asked<A, R> {
  readonly ask: A;
  resolve(result: R): void;
  reject(error: unknown): void;
}

/** Gathers the asks made for one read (`ctx`) in one turn and answers them from one `run`. */
export class TurnBatches<C extends object, A, R> {
  private readonly pending = new WeakMap<C, Asked<A, R>[]>();

  /** `run` answers every ask it is given, in the order given */
  constructor(private readonly run: (ctx: C, asks: readonly A[]) => Promise<readonly R[]>) {}

  ask(ctx: C, ask: A): Promise<R> {
    return new Promise<R>((resolve, reject) => {
      let queue = this.pending.get(ctx);
      if (!queue) {
        const q: Asked<A, R>[] = [];
        this.pending.set(ctx, (queue = q));
        queueMicrotask(() => {
          this.pending.delete(ctx);
          this.run(
            ctx,
            q.map((a) => a.ask),
          ).then(
            (results) => q.forEach((a, i) => a.resolve(results[i]!)),
            (e: unknown) => q.forEach((a) => a.reject(e)),
          );
        });
      }
      queue.push({ ask, resolve, reject });
    });
  }
}
