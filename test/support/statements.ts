// How many SQL statements requests cost, for the "no N+1" comparisons. A request's caller checks read
// the token (or user, or role) again after any commit — on PostgreSQL a commit anywhere on the server,
// such as another test file's — which adds one statement at random. So a set of requests is measured
// again, each time under a new URL (no cached body answers it), until their costs agree or the
// attempts run out; a cost that grows with the number of documents never agrees.
import type { TestApp } from './app.js';

export async function statementCosts(t: TestApp, paths: readonly string[], attempts = 5): Promise<number[]> {
  let costs: number[] = [];
  for (let i = 0; i < attempts; i++) {
    costs = [];
    for (const path of paths) {
      const before = t.statements();
      const r = await t.get(`${path}${path.includes('?') ? '&' : '?'}_attempt=${i}`);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text}`);
      costs.push(t.statements() - before);
    }
    if (costs.every((c) => c === costs[0])) return costs;
  }
  return costs;
}
