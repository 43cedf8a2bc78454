// Callers that each need a value read *after* they asked (a change mark: anything older could hide a
// commit they must see) share reads: a caller arriving while a read is in flight can't use that one,
// which may have been sent before it arrived, but waits for the next, which all such callers share.
// Under load this is at most one read in flight and one waiting, instead of one per caller.

export function sharedFreshRead<T>(read: () => Promise<T>): () => Promise<T> {
  let inFlight: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    const p = read();
    inFlight = p;
    const done = (): void => {
      if (inFlight === p) inFlight = undefined;
    };
    p.then(done, done);
    return p;
  };
  return () => {
    if (!inFlight) return start();
    if (!next) {
      const after = (): Promise<T> => {
        next = undefined;
        return start();
      };
      next = inFlight.then(after, after);
    }
    return next;
  };
}
