// How many SQL statements requests cost, for the "no N+1" comparisons. Only the read is measured: each
// URL is made too long to cache (response-cache.ts), so no change mark or table version is read after
// it — on PostgreSQL a commit anywhere on the server (another test file's) during the read made the
// cached path read the table versions again, one statement more on nearly every try of the slower
// request under CI's load. A request's caller check still reads the token again after such a commit,
// which adds a statement at random: noise only ever adds, so each request is measured several times
// (a new URL each time) and its cost is the least seen, and the measuring stops once those least costs
// agree after two tries at least. A cost that grows with the number of documents never agrees.
import type { TestApp } from './app.js';
import { MAX_CACHED_URL } from '../../src/http/response-cache.js';

const UNCACHEABLE = 'x'.repeat(MAX_CACHED_URL);

export async function statementCosts(t: TestApp, paths: readonly string[], attempts = 12): Promise<number[]> {
  const least = paths.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < attempts; i++) {
    for (const [k, path] of paths.entries()) {
      const before = t.statements();
      const r = await t.get(`${path}${path.includes('?') ? '&' : '?'}_attempt=${i}${UNCACHEABLE}`);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
      least[k] = Math.min(least[k] ?? Number.POSITIVE_INFINITY, t.statements() - before);
    }
    // two tries at least: one noisy +1 on the smaller request could match a real +1 on the larger
    if (i >= 1 && least.every((c) => c === least[0])) return least;
  }
  return least;
}
