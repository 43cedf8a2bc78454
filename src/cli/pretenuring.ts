// Turns off V8's allocation-site pretenuring in the server process.
//
// V8 samples, at each young-generation collection, how many objects of each allocation site survived;
// a site whose objects mostly survived one has its objects allocated in the old generation from then
// on. Under load on PostgreSQL such a decision was sometimes taken for a site of the per-request reads
// in the first seconds, and it stayed: objects dead a few milliseconds later filled the old generation,
// which was then collected 30–100 times in 10 s instead of 2–3, in a third to two thirds of server
// starts. Folio's CPU per uncached request then rose by half (list ≈ 290 → 460 µs, deep populate
// ≈ 1.6 → 2.1 ms); without pretenuring every start ran as the fast ones, and SQLite's reads as before.
import { setFlagsFromString } from 'node:v8';

const OWN_SETTING = /^--(?:no-)?allocation[-_]site[-_]pretenuring$/;

/** Turns pretenuring off, unless node was started with a setting of its own; true when it did. */
export function stopPretenuring(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => OWN_SETTING.test(a))) return false;
  setFlagsFromString('--no-allocation-site-pretenuring');
  return true;
}
