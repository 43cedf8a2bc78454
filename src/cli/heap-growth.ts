// Keeps the old generation close to what a server really holds while it is under load.
//
// After each full collection V8 lets the old generation grow to up to four times what survived it
// before the next one, when collections are cheap next to the program's own work. For a Folio
// server they are: about 25 MB survives, while objects of requests in flight, promoted by the
// young-generation collections, fill the old generation with garbage at 10 MB/s and more. So the
// heap reached 100–140 MB between full collections, and RSS under load 240 MB on PostgreSQL. A
// growth of half the surviving size keeps it near 160 MB; the extra full collections (a few ms
// each, about one a second under load) did not show in CPU time per request (bench/cpu-ab.mjs).
import { setFlagsFromString } from 'node:v8';

/** the old generation's growth between full collections, as a share of what survived the last */
export const HEAP_GROWING_PERCENT = 50;

const OWN_SETTING = /^--heap[-_]growing[-_]percent(?:=|$)/;

/**
 * Sets V8's heap growing factor, unless the process was started with one of its own (`node
 * --heap-growing-percent=N`); true when it set it.
 */
export function boundHeapGrowth(execArgv: readonly string[] = process.execArgv): boolean {
  if (execArgv.some((a) => OWN_SETTING.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  return true;
}
