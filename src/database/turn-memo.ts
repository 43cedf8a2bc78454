// A synchronous read shared by the callers that run between two looks of the event loop for I/O.
// SQLite's `PRAGMA data_version` costs ~1.8 µs (it opens a read transaction on the WAL), more than the
// rest of a cached hit's own work, while libuv's loop metrics cost ~80 ns to read.
//
// Why sharing stays exact: a request can only be seen by JavaScript after libuv polled its socket.
// libuv counts a loop iteration just before each poll (`loopCount`) and adds the events it handled
// after each batch of them (`events`), so while both numbers stand no new batch of I/O has been
// handled since the value was read: every caller still running was received before that read. A
// value read in a timer or an immediate is therefore never reused by a request of the next poll,
// and one read during a batch of requests serves the rest of that batch.
import { performance } from 'node:perf_hooks';

interface Held<T> {
  readonly value: T;
  readonly loops: number;
  readonly events: number;
}

export function memoForTurn<T>(read: () => T): () => T {
  let held: Held<T> | undefined;
  return () => {
    const { loopCount, events } = performance.nodeTiming.uvMetricsInfo;
    if (held !== undefined && held.loops === loopCount && held.events === events) return held.value;
    held = { value: read(), loops: loopCount, events };
    return held.value;
  };
}
