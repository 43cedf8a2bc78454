// How many SQL statements requests cost, for the "no N+1" comparisons. A request's caller checks read
// the token (or user, or role) again after any commit — on PostgreSQL a commit anywhere on the server,
// such as another test file's — which adds a statement at random, and under a full parallel run it can
// do so on every try of the slower request. Noise only ever adds statements, so each request is
// measured several times (each time under a new URL: no cached body answers it) and its cost is the
// least seen; the measuring stops once those least costs agree. A cost that grows with the number of
// documents never agrees.
import type { TestApp } from './app.js';

export async function statementCosts(t: TestApp, paths: readonly string[], attempts = 12): Promise<number[]> {
  const least = paths.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < attempts; i++) {
    for (const [k, path] of paths.entries()) {
      const before = t.statements();
      const r = await t.get(`${path}${path.includes('?') ? '&' : '?'}_attempt=${i}`);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
      least[k] = Math.min(least[k] ?? Number.POSITIVE_INFINITY, t.statements() - before);
    }
    // two tries at least: one noisy +1 on the smaller request could match a real +1 on the larger
    if (i >= 1 && least.every((c) => c === least[0])) return least;
  }
  return least;
}
