// How many SQL statements requests cost, for the "no N+1" comparisons. Only the read is measured:
// each URL is made too long to cache (response-cache.ts), so no table counter is read after it, and
// the per-request bookkeeping (the change mark, the caller's token and roles read again after any
// commit on the server) is left out (statement-log.ts). What is left does not depend on other test
// files' writes; each request is still measured at least twice (a new URL each time) and its cost is
// the least seen, so that a stray extra statement cannot make two costs agree or differ by chance.
import type { TestApp } from './app.js';
import { MAX_CACHED_URL } from '../../src/http/response-cache.js';

const UNCACHEABLE = 'x'.repeat(MAX_CACHED_URL);

export async function statementCosts(t: TestApp, paths: readonly string[], attempts = 6): Promise<number[]> {
  const least = paths.map(() => Number.POSITIVE_INFINITY);
  for (let i = 0; i < attempts; i++) {
    for (const [k, path] of paths.entries()) {
      const before = t.dataStatements();
      const r = await t.get(`${path}${path.includes('?') ? '&' : '?'}_attempt=${i}${UNCACHEABLE}`);
      if (r.status !== 200) throw new Error(`${path}: ${r.status} ${r.text.slice(0, 300)}`);
      least[k] = Math.min(least[k] ?? Number.POSITIVE_INFINITY, t.dataStatements() - before);
    }
    if (i >= 1 && least.every((c) => c === least[0])) return least;
  }
  return least;
}
