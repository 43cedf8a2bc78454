// Gives memory back to the system once the server has gone quiet.
//
// V8 sizes its young generation by the allocation rate it saw at its last collection, and only
// collects when something allocates: a Node server that goes idle after load keeps its young
// generation at the size the load grew it to (32 MB on Node 20) for ever, and V8's memory reducer,
// which would compact the old generation, keeps waiting because its last reading of the allocation
// rate is the load's. A few young-generation collections while idle (each well under a millisecond
// with nothing to collect) give V8 the reading it lacks: it shrinks the young generation, and its
// own memory reducer then runs its compacting collections.
import { performance, type EventLoopUtilization } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface IdleMemoryOptions {
  /** how often the event loop is looked at, ms */
  readonly intervalMs?: number;
  /** the event loop's share of busy time under which an interval counts as idle */
  readonly idleBelow?: number;
  /** young-generation collections per quiet spell; V8 needs several seconds of readings */
  readonly collectionsPerSpell?: number;
}

type Collect = (options: { type: 'minor' }) => void;

/** V8's collector, made reachable the way `--expose-gc` would have at start; null where it can't be */
function youngCollector(): Collect | null {
  const own = (globalThis as { gc?: unknown }).gc;
  if (typeof own === 'function') return own as Collect;
  try {
    setFlagsFromString('--expose-gc');
    // the flag takes effect for contexts made after it: a fresh one carries the function
    const made: unknown = runInNewContext('gc');
    return typeof made === 'function' ? (made as Collect) : null;
  } catch {
    return null;
  }
}

/** Starts watching; returns the function that stops. The timer never keeps the process alive. */
export function releaseMemoryWhenIdle(options: IdleMemoryOptions = {}): () => void {
  const collect = youngCollector();
  if (collect === null) return () => {};
  const idleBelow = options.idleBelow ?? 0.01;
  const perSpell = options.collectionsPerSpell ?? 20;
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  let done = 0;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    if (busy >= idleBelow) {
      done = 0;
      return;
    }
    if (done >= perSpell) return;
    done++;
    collect({ type: 'minor' });
  }, options.intervalMs ?? 2000);
  timer.unref();
  return () => clearInterval(timer);
}
